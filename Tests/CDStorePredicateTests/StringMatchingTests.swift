import Testing

@testable import CDStorePredicate

typealias SM = PredicateStringMatching

@Suite struct StringMatchingTests {
    @Test func folding() {
        #expect(SM.fold("Café", options: []) == "Café")
        #expect(SM.fold("Café", options: .caseInsensitive) == "café")
        #expect(SM.fold("Café", options: .diacriticInsensitive) == "Cafe")
        #expect(SM.fold("CAFÉ", options: [.caseInsensitive, .diacriticInsensitive]) == "cafe")
        #expect(SM.fold("Straße", options: .caseInsensitive) == "strasse")
        #expect(SM.fold("ΟΔΟΣ", options: .caseInsensitive) == SM.fold("οδος", options: .caseInsensitive))
        #expect(SM.fold("Ångström", options: .diacriticInsensitive) == "Angstrom")
        // [n] and [l] alone change nothing.
        #expect(SM.fold("Café", options: [.normalized, .localeSensitive]) == "Café")
    }

    @Test func equalityIsByScalarsWithoutOptions() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(!SM.equals(composed, decomposed))
        #expect(SM.equals(composed, decomposed, options: .caseInsensitive))
        #expect(SM.equals(composed, "CAFE", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(SM.equals("ÉCOLE", "école", options: .caseInsensitive))
    }

    @Test func ordering() {
        #expect(SM.compare("a", "b") < 0)
        #expect(SM.compare("B", "a") < 0)
        #expect(SM.compare("B", "a", options: .caseInsensitive) > 0)
        #expect(SM.compare("é", "f") > 0)
        #expect(SM.compare("é", "f", options: .diacriticInsensitive) < 0)
        #expect(SM.compare("x", "x") == 0)
    }

    @Test func substringOperators() {
        #expect(SM.contains("Café con Leche", "CAFE", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!SM.contains("Café con Leche", "CAFE"))
        #expect(SM.contains("abc", ""))
        #expect(SM.beginsWith("Émile", "em", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!SM.beginsWith("Émile", "em"))
        #expect(SM.endsWith("naïve", "IVE", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(SM.endsWith("x", ""))
        #expect(!SM.endsWith("x", "xx"))
    }

    /// Each row: value, LIKE pattern, options, expected.
    static let likeCases: [(String, String, String, Bool)] = [
        ("Smith", "S*", "", true), ("smith", "S*", "", false), ("smith", "S*", "c", true),
        ("abc", "a?c", "", true), ("abbc", "a?c", "", false), ("abc", "*", "", true), ("", "*", "", true),
        ("", "?", "", false), ("aXbXc", "a*b*c", "", true), ("aXbXd", "a*b*c", "", false),
        ("a*b", "a\\*b", "", true), ("aXb", "a\\*b", "", false), ("a?b", "a\\?b", "", true),
        ("Crème brûlée", "creme*", "cd", true), ("Crème brûlée", "creme*", "c", false),
        ("anna", "a*a", "", true), ("Anna", "a*a", "c", true), ("ab", "a*a", "", false),
        ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "*a*a*a*a*a*a*a*c", "", false),
        ("a.c", "a.c", "", true), ("abc", "a.c", "", false), ("(x)", "(?)", "", true),
    ]

    @Test(arguments: likeCases)
    func like(value: String, pattern: String, letters: String, expected: Bool) throws {
        let options = try #require(ComparisonOptions(letters: letters))
        #expect(SM.like(value, pattern: pattern, options: options) == expected)
    }

    @Test func likePatternAsRegularExpression() throws {
        #expect(SM.likePatternToRegularExpression("a*b?.") == "\\Aa.*b.\\.\\z")
        for (value, pattern, letters, expected) in Self.likeCases where letters.isEmpty {
            let regex = SM.likePatternToRegularExpression(pattern)
            // The regex is anchored itself; MATCHES anchoring again must not change the answer.
            #expect(try SM.matches(value, regex: regex) == expected, "\(value) LIKE \(pattern)")
        }
    }

    @Test func matches() throws {
        #expect(try SM.matches("CATCATCATX", regex: ".*(CAT){3,}(?!CA).*"))
        #expect(try SM.matches("0123456789", regex: "\\d{10}|\\d{9}[Xx]"))
        #expect(try SM.matches("012345678X", regex: "\\d{10}|\\d{9}[Xx]"))
        #expect(try !SM.matches("0123456789extra", regex: "\\d{10}"))
        #expect(try !SM.matches("x\n", regex: "x"))
        #expect(try SM.matches("ABC", regex: "abc", options: .caseInsensitive))
        #expect(try !SM.matches("ABC", regex: "abc"))
        #expect(try SM.matches("café", regex: "cafe", options: .diacriticInsensitive))
        #expect(try SM.matches("ÇA", regex: "ca", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(throws: CDPredicateError(.invalidRegularExpression, "invalid regular expression \"[\" in MATCHES")) {
            try SM.matches("x", regex: "[")
        }
    }

    @Test func optionLetters() {
        #expect(ComparisonOptions(letters: "cd") == [.caseInsensitive, .diacriticInsensitive])
        #expect(ComparisonOptions(letters: "DC") == [.caseInsensitive, .diacriticInsensitive])
        #expect(ComparisonOptions(letters: "") == [])
        #expect(ComparisonOptions(letters: "cx") == nil)
        #expect(ComparisonOptions(letters: "lndc")?.letters == "cdnl")
    }
}
