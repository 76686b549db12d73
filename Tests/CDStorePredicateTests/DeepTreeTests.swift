import Foundation
import Testing

@testable import CDStorePredicate

/// Predicates whose trees would be deeper than the nesting limit: the parser refuses them, including the chains
/// it builds in a loop (`a + 1 + 1 + …`, `a[0][0]…`), which would otherwise come out as trees thousands of levels
/// deep for the SQL compiler to recurse over until the stack overflows. Trees as deep as the limit allows
/// format, evaluate and substitute on a default thread stack.
@Suite("Deep predicate trees")
struct DeepTreeTests {
    static func tooDeep(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: CDPredicateError.self, sourceLocation: sourceLocation) { try PredicateParser.parse(text) }
        #expect(error?.code == .tooDeep, sourceLocation: sourceLocation)
        #expect(error?.message == "predicate nested too deeply (limit 500)", sourceLocation: sourceLocation)
    }

    /// `age + 1 + 1 …` with `terms` ones.
    static func sum(_ terms: Int) -> String { "age" + String(repeating: " + 1", count: terms) + " == 5" }

    @Test func aLongArithmeticChainIsTooDeep() {
        Self.tooDeep(Self.sum(2_000))
        Self.tooDeep(Self.sum(100_000))
        Self.tooDeep("age == " + Array(repeating: "2", count: 2_000).joined(separator: " * "))
        Self.tooDeep("tags UNION " + Array(repeating: "tags", count: 2_000).joined(separator: " UNION ") + " == nil")
    }

    @Test func aLongIndexChainIsTooDeep() {
        Self.tooDeep("tags" + String(repeating: "[0]", count: 2_000) + " == 1")
        Self.tooDeep("FUNCTION(SELF, 'x')" + String(repeating: "[FIRST].name", count: 1_000) + " == 1")
    }

    /// A long key path stays one flat node and needs no nesting.
    @Test func aLongKeyPathIsFlat() throws {
        let path = Array(repeating: "next", count: 2_000).joined(separator: ".")
        let parsed = try PredicateParser.parse(path + " == 1")
        guard case .comparison(let comparison) = parsed, case .keyPath(let keyPath) = comparison.left else {
            Issue.record("not a key path: \(parsed)")
            return
        }
        #expect(keyPath.components.count == 2_000)
    }

    @Test func hundredThousandOpenParenthesesOrNots() {
        Self.tooDeep(String(repeating: "(", count: 100_000) + "age == 1" + String(repeating: ")", count: 100_000))
        Self.tooDeep(String(repeating: "NOT ", count: 100_000) + "age == 1")
        Self.tooDeep("age == " + String(repeating: "-", count: 100_000) + "1")
    }

    /// 490 additions (the comparison and the chain's operand take the other levels): formatted, evaluated,
    /// substituted and compared without trouble.
    @Test func theDeepestAllowedChainIsUsable() throws {
        let text = Self.sum(490)
        let parsed = try PredicateParser.parse(text)
        #expect(parsed.format == text)
        #expect(try PredicateEvaluator().evaluate(parsed, with: EvaluableDictionary(["age": .int(-485)])))
        #expect(try parsed.substituting(variables: [:]) == parsed)
        let nots = String(repeating: "NOT ", count: 499) + "age == 1"
        #expect(try PredicateParser.parse(nots).format == String(repeating: "NOT ", count: 499) + "age == 1")
        #expect(try PredicateEvaluator().evaluate(try PredicateParser.parse(nots), with: EvaluableDictionary(["age": .int(1)])) == false)
    }
}
