import Foundation
import Testing
@testable import CDStoreSQLite

/// Issue 27: model regular expressions of the plain shape are checked without ICU; the answer must be ICU's for
/// every pattern and string (what `AttributeRule` asked ICU before: an anchored first match covering the string).
@Suite("Plain patterns: the same answers as ICU")
struct PlainPatternTests {
    static func icu(_ pattern: String, _ text: String) -> Bool {
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return regex.firstMatch(in: text, options: [.anchored], range: range)?.range == range
    }

    static let plain = [
        #"^[^@ ]+@[^@ ]+\.[a-z]{2,}$"#, "^[A-Z]{2}[0-9]{4}$", "^a*b?c+$", "^[a-c]{1,3}[b-d]{0,2}$", "^.*x$", "^.+$",
        "^x{3}$", "^[^a]*a[^a]*$", #"^\$[0-9]+\.[0-9]{2}$"#, "^[ab]*b?b$", "^a?a?a?aaa$", "^é+ü?$", "^[α-ω]+$",
        "^a{2,}a{0,1}$", #"^[\-\]x]+$"#, "^ab c$", "^$", "^[0-9]{0,3}$",
    ]
    static let notPlain = [
        "[A-Z]+", "^[A-Z]+", "[A-Z]+$", "^(a|b)+$", "^a|b$", #"^\d+$"#, #"^\w+$"#, "^a+?$", "^a++$", "^a*+$",
        "^[[:alpha:]]+$", "^[a-z&&[^x]]+$", #"^\p{L}+$"#, "^a{2$", "^[a-]$", "^a$b$", "^a**$", "^[]$", "^[^]$",
    ]
    static let texts = [
        "", "a", "b", "ab", "abc", "aaa", "aaaa", "aaaaa", "ann@x.org", "ann@x.o", "a b@x.org", "ann@@x.org",
        "AB1234", "AB12345", "ab1234", "A1234", "x", "yx", "xyz", "xxx", "xxxx", "bb", "abb", "cbd", "ccc", "cccdd",
        "$12.50", "$12.5", "ééü", "ü", "αβγ", "αβγz", "ab c", "abc ", "-]x", "123", "1234", "aab", "ba", "aba", "éa",
        "ann@x.org\n", "a\nb", "x\r", "AB1234\u{2028}", String(repeating: "a", count: 5000) + "@x.org",
    ]

    @Test(arguments: plain)
    func sameAnswerAsICU(_ pattern: String) throws {
        let compiled = try #require(PlainPattern(pattern), "\(pattern) is of the plain shape")
        for text in Self.texts {
            let expected = Self.icu(pattern, text)
            if let answer = compiled.matches(text) {
                #expect(answer == expected, "\(pattern) on \(text.debugDescription.prefix(40))")
            }
        }
    }

    @Test(arguments: notPlain)
    func otherPatternsGoToICU(_ pattern: String) {
        #expect(PlainPattern(pattern) == nil, "\(pattern)")
    }

    @Test func stringsICUMustAnswer() throws {
        let email = try #require(PlainPattern(#"^[^@ ]+@[^@ ]+\.[a-z]{2,}$"#))
        #expect(email.matches("ann@x.org") == true)
        #expect(email.matches("ann@x.o") == false)
        // A line terminator (ICU's `$` also matches before a final one) and very long strings are ICU's to answer.
        #expect(email.matches("ann@x.org\n") == nil)
        #expect(email.matches("ann@x.org\u{2029}") == nil)
        #expect(email.matches(String(repeating: "a", count: 5000) + "@x.org") == nil)
    }

    /// Every string of up to four characters from a small alphabet, on patterns whose items overlap, against ICU.
    @Test func exhaustiveShortStrings() throws {
        let patterns = ["^a*ab?b*$", "^[ab]{1,2}a?[^b]{0,2}$", "^.?a+.*$", "^b?[a-c]*c{2}$", "^a{0,2}b{1,}a*$"]
        let alphabet = ["a", "b", "c", " "]
        var texts = [""]
        var frontier = [""]
        for _ in 1...4 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
            texts += frontier
        }
        for pattern in patterns {
            let compiled = try #require(PlainPattern(pattern))
            for text in texts {
                #expect(compiled.matches(text) == Self.icu(pattern, text), "\(pattern) on '\(text)'")
            }
        }
    }
}
