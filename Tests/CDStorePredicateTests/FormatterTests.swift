import Foundation
import Testing

@testable import CDStorePredicate

@Suite struct FormatterTests {
    /// Trees built in code print the way Foundation's `predicateFormat` / `NSExpression.description` do.
    @Test func foundationStyle() {
        #expect(ExpressionNode.function("count:", [.keyPath("pages")]).format == "count:(pages)")
        #expect(ExpressionNode.function("now", []).format == "now()")
        #expect(ExpressionNode.function("canonical:", [.keyPath("optionalString")]).format == "canonical:(optionalString)")
        #expect(ExpressionNode.keyPath("oneToMany.@count").format == "oneToMany.@count")
        #expect(ExpressionNode.constant(.string("x")).format == #""x""#)
        #expect(ExpressionNode.constant(.string(#"a"b\c"#)).format == #""a\"b\\c""#)
        #expect(ExpressionNode.constant(.null).format == "nil")
        #expect(ExpressionNode.constant(.bool(true)).format == "1")
        #expect(ExpressionNode.constant(.double(2)).format == "2")
        #expect(ExpressionNode.constant(.double(10.5)).format == "10.5")
        #expect(ExpressionNode.constant(.date(Date(timeIntervalSinceReferenceDate: -978250148))).format
            == #"CAST(-978250148.000000, "NSDate")"#)
        #expect(ExpressionNode.constant(.array([.int(1), .string("a")])).format == #"{1, "a"}"#)
        let name = PredicateNode.comparison(.init(left: .keyPath("name"), op: .equal, right: .constant(.string("x"))))
        #expect(name.format == #"name == "x""#)
        let both = PredicateNode.and([
            .comparison(.init(left: .keyPath("age"), op: .greaterThan, right: .constant(.int(3)))),
            .comparison(.init(left: .keyPath("name"), op: .beginsWith, right: .constant(.string("a")), options: .caseInsensitive)),
        ])
        #expect(both.format == #"age > 3 AND name BEGINSWITH[c] "a""#)
        #expect(PredicateNode.comparison(.init(modifier: .any, left: .keyPath("x"), op: .equal, right: .constant(.int(1)))).format
            == "ANY x == 1")
        #expect(PredicateNode.not(both).format == #"NOT (age > 3 AND name BEGINSWITH[c] "a")"#)
        #expect(PredicateNode.or([both, name]).format == #"(age > 3 AND name BEGINSWITH[c] "a") OR name == "x""#)
    }

    @Test func parenthesesOnlyWhereNeeded() {
        let a = ExpressionNode.keyPath("a"), b = ExpressionNode.keyPath("b"), c = ExpressionNode.keyPath("c")
        #expect(ExpressionNode.arithmetic(.multiply, .arithmetic(.add, a, b), c).format == "(a + b) * c")
        #expect(ExpressionNode.arithmetic(.add, a, .arithmetic(.multiply, b, c)).format == "a + b * c")
        #expect(ExpressionNode.arithmetic(.subtract, a, .arithmetic(.subtract, b, c)).format == "a - (b - c)")
        #expect(ExpressionNode.arithmetic(.power, .arithmetic(.power, a, b), c).format == "(a ** b) ** c")
        #expect(ExpressionNode.negate(.arithmetic(.add, a, b)).format == "-(a + b)")
        #expect(ExpressionNode.member(.arithmetic(.add, a, b), PredicateKeyPath("x")).format == "(a + b).x")
        #expect(ExpressionNode.keyPath(PredicateKeyPath([.key("size")])).format == "#size")
    }

    @Test func controlCharactersInStringsRoundTrip() throws {
        let text = "a\n\"b\"\t\\c\u{1}"
        let node = PredicateNode.comparison(.init(left: .keyPath("x"), op: .equal, right: .constant(.string(text))))
        #expect(try PredicateParser.parse(node.format) == node)
    }

    /// `%%` inside quotes reads as one `%`, so `"100%%@"` printed as is read back as `"100%@"` (found by the fuzz test).
    @Test(arguments: ["100%", "%@", "100%%@", "%%", "%%%K%", "a%%b%"])
    func percentSignsInStringsRoundTrip(text: String) throws {
        let node = PredicateNode.comparison(.init(left: .keyPath("x"), op: .equal, right: .constant(.string(text))))
        #expect(try PredicateParser.parse(node.format) == node, "\(node.format)")
    }

    /// A number literal beyond Double's range reads as infinity, which printed as `inf`: a key path (found by fuzzing).
    @Test(arguments: ["a == 2.7e828", "a == -1e400", "(2 ** 4e99999) ** 2 == x"])
    func infinityRoundTrips(text: String) throws {
        let node = try PredicateParser.parse(text)
        #expect(try PredicateParser.parse(node.format) == node, "\(node.format)")
    }

    @Test func aLonePercentSignPrintsAsWritten() {
        let node = PredicateNode.comparison(.init(left: .keyPath("x"), op: .like, right: .constant(.string("100% %@"))))
        #expect(node.format == #"x LIKE "100% %@""#)
        #expect(PredicateNode.comparison(.init(left: .keyPath("x"), op: .equal, right: .constant(.string("%%")))).format
                == #"x == "%%%""#)
    }
}
