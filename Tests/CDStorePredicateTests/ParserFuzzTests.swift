import CDStoreTestSupport
import Testing

@testable import CDStorePredicate

@Suite struct ParserFuzzTests {
    /// Valid inputs to mutate: every row of the parser table.
    static let seeds = printedForms.map(\.0) + [
        "SUBQUERY(residents, $r, $r.firstname == \"Jane\" AND $r.lastname == \"Doe\").@count > 0",
        "date > CAST(\"2016-01-02T00:00:00Z\", \"NSDate\") AND NOT (counter IN {1, 2, 3})",
        // Found with other seeds: a minus before a boolean, a literal beyond Double's range, '%' runs in strings.
        "a == -NO OR b > 2.7e828 OR c == '100%%%@'",
    ]

    /// Bytes and fragments that stress the lexer and parser.
    static let fragments = ["(", ")", "{", "}", "[", "]", ",", ".", "'", "\"", "\\", "%", "%@", "%K", "$", "#", "@",
                            "==", "!", "-", "*", "**", "&", "|", "^", ":=", ":", " AND ", " OR ", "NOT ", " IN ",
                            "ANY ", "SUBQUERY(", "CAST(", "[cd]", "é", "\u{0}", "\n", "0x", "1e", "9999999999999999999999"]

    /// Parsing either succeeds or throws a CDPredicateError with a column inside the text (or just after it);
    /// when it succeeds, the printed form parses again, to the same tree (up to the number forms the printer
    /// documents as lossy: booleans and integral doubles read back as integers, dates to the microsecond),
    /// and from then on printing and parsing are exact: the tree read back prints to text that reads back as it.
    static func check(_ text: String) {
        let node: PredicateNode
        do {
            node = try PredicateParser.parse(text, arguments: [])
        } catch {
            if let column = error.column {
                #expect(column >= 1 && column <= text.unicodeScalars.count + 1, "\(text.debugDescription)")
            }
            return
        }
        let printed = node.format
        do {
            let again = try PredicateParser.parse(printed)
            #expect(again.normalizingNumbers() == node.normalizingNumbers(),
                    "\(text.debugDescription) printed \(printed.debugDescription) reads back as \(again.format.debugDescription)")
            // Not `again.format == printed`: `-NO` prints as `-0`, which reads back as the literal 0 and prints `0`.
            let third = try PredicateParser.parse(again.format)
            #expect(third == again && third.format == again.format,
                    "\(text.debugDescription) printed \(printed.debugDescription), then \(again.format.debugDescription)")
        } catch {
            Issue.record("\(text.debugDescription) printed \(printed.debugDescription), which does not parse: \(error)")
        }
    }

    @Test func randomBytes() {
        var rng = SeededGenerator(state: 1)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &rng)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                // Mostly printable ASCII, where the grammar lives, with some arbitrary bytes.
                bytes.append(Bool.random(using: &rng) ? UInt8.random(in: 32...126, using: &rng) : UInt8.random(in: 0...255, using: &rng))
            }
            Self.check(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func mutationsOfValidPredicates() {
        var rng = SeededGenerator(state: 42)
        for _ in 0..<20_000 {
            var scalars = Array(Self.seeds.randomElement(using: &rng)!.unicodeScalars)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0...scalars.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where at < scalars.count: scalars.remove(at: at)
                case 1: scalars.insert(contentsOf: Self.fragments.randomElement(using: &rng)!.unicodeScalars, at: at)
                case 2 where at < scalars.count: scalars[at] = Unicode.Scalar(UInt8.random(in: 32...126, using: &rng))
                default:
                    // Splice a piece of another seed, which produces plausible but wrong structure.
                    let other = Array(Self.seeds.randomElement(using: &rng)!.unicodeScalars)
                    let start = Int.random(in: 0...other.count, using: &rng)
                    let end = Int.random(in: start...other.count, using: &rng)
                    scalars.insert(contentsOf: other[start..<end], at: at)
                }
            }
            Self.check(String(String.UnicodeScalarView(scalars)))
        }
    }

    @Test func pathologicalNesting() {
        for opener in ["(", "{", "-", "NOT ", "!", "a[", "f(", "SUBQUERY(a, $x, ", "TERNARY(", "a == {"] {
            for count in [10, 499, 501, 5_000] {
                Self.check(String(repeating: opener, count: count) + "a == 1")
            }
        }
    }
}
