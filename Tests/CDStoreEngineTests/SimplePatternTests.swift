import Foundation
import Testing
@testable import CDStoreEngine

/// Plain regular expressions of text attributes are matched without ICU (``SimplePattern``). The answer
/// must be ICU's (an anchored match covering the whole value) for every pattern it takes, and any other pattern is
/// left to ICU.
@Suite("Plain regular expressions matched without ICU")
struct SimplePatternTests {
    static func icu(_ pattern: String, _ text: String) throws -> Bool {
        SimplePattern.matchesWhole(text, try NSRegularExpression(pattern: pattern))
    }

    @Test func theModelsPatternsAnswerAsICUDoes() throws {
        let email = #"^[^@ ]+@[^@ ]+\.[a-z]{2,}$"#
        let badge = "^[A-Z]{2}[0-9]{4}$"
        let cases: [(String, String)] = [
            (email, "ann@example.com"), (email, "a@b.co"), (email, "a@b.c"), (email, "ann@@x.com"), (email, "an n@x.com"),
            (email, "ann@x.COM"), (email, ""), (email, "é@ü.fr"), (email, "🙂@x.io"), (email, "a@b.c.de"), (email, "@x.com"),
            (badge, "AB1234"), (badge, "AB123"), (badge, "ab1234"), (badge, "AB12345"), (badge, "ÀB1234"), (badge, ""),
        ]
        for (pattern, text) in cases {
            let simple = try #require(SimplePattern(pattern), "\(pattern)")
            #expect(simple.matchesWhole(text) == (try Self.icu(pattern, text)), "\(pattern) on \(text.debugDescription)")
        }
    }

    @Test(arguments: [#"^\d+$"#, "^(a|b)$", "^a|b$", "^a+?$", "^a*+$", "^[[:alpha:]]$", "^[a-z&&[^b]]$", "^abc",
                      "^a{2,1}$", #"^\p{L}$"#, "^[]$", "^a$b$", #"^abc\$"#, "^$", "^a{,2}$", "^a{+2}$", "^[a-]$",
                      "^[z-a]$", #"^\w+@x$"#, "^a{1000}$", "^a**$", "(?i)^a$"])
    func otherPatternsAreLeftToICU(_ pattern: String) {
        #expect(SimplePattern(pattern) == nil, "\(pattern)")
    }

    @Test func aValueWithALineTerminatorIsLeftToICU() throws {
        let simple = try #require(SimplePattern("^[^@]+$"))
        for text in ["a\n", "a\rb", "\u{2028}", "a\u{85}", "a\u{0B}"] { #expect(simple.matchesWhole(text) == nil) }
        #expect(simple.matchesWhole("a b") == true)
    }

    /// Random patterns of the plain kind against random values: the same answer as ICU every time.
    @Test func randomPatternsAnswerAsICUDoes() throws {
        var random = SplitMix(seed: 27)
        let atoms = ["a", "b", "@", " ", "é", "🙂", ".", #"\."#, "[a-c]", "[^@ ]", "[a-z]", "[^a]", "[ab.]", "[0-9]", "[é-ü]", "[^🙂]"]
        let quantifiers = ["", "", "*", "+", "?", "{2}", "{1,}", "{0,2}", "{2,3}", "{0}"]
        let letters = ["a", "b", "c", "@", ".", "é", " ", "z", "0", "🙂", "ü", "\n"]
        var compared = 0
        for _ in 0..<3000 {
            let count = Int(random.next() % 4) + 1
            var pattern = random.next() % 2 == 0 ? "^" : ""
            for _ in 0..<count {
                pattern += atoms[Int(random.next() % UInt64(atoms.count))] + quantifiers[Int(random.next() % UInt64(quantifiers.count))]
            }
            pattern += "$"
            let simple = try #require(SimplePattern(pattern), "\(pattern)")
            let expression = try NSRegularExpression(pattern: pattern)
            for _ in 0..<8 {
                let length = Int(random.next() % 7)
                let text = (0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }.joined()
                guard let answer = simple.matchesWhole(text) else {
                    #expect(text.contains("\n"), "\(pattern) left \(text.debugDescription) to ICU")
                    continue
                }
                #expect(answer == SimplePattern.matchesWhole(text, expression), "\(pattern) on \(text.debugDescription)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }
}

/// A seeded generator, so that a failure can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
