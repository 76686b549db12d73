import CDStoreModel
import CDStorePredicate
import Foundation
import Testing
@testable import CDStoreEngine

/// Predicates nested deeper than SQLite runs are refused by the compiler with a message, before any SQL is built:
/// 300 nested `+` (which the parser accepts) must not overflow the stack of `cdstore count --where`.
@Suite("Predicate SQL nesting")
struct PredicateDepthSQLTests {
    let store = GraphFixture.shared.store

    func count(_ text: String) throws -> Int {
        try store.count(ObjectFetchRequest(entity: "Employee", predicate: try PredicateParserShim.parse(text, [])))
    }

    /// `age + 1 + 1 …` with `terms` ones.
    static func sum(_ terms: Int) -> String { "age" + String(repeating: " + 1", count: terms) + " == 5" }

    @Test func deeperThanSQLiteIsAnError() throws {
        for terms in [99, 300, 490] {
            let error = #expect(throws: StoreError.self) { try count(Self.sum(terms)) }
            #expect(error?.code == .invalidInput)
            #expect(error?.message == "nested more than 100 levels deep; SQLite cannot run it")
            #expect(error?.input == .predicate)
            #expect(error?.entity == "Employee")
        }
        let nots = String(repeating: "NOT ", count: 120) + "age == 1"
        let error = #expect(throws: StoreError.self) { try count(nots) }
        #expect(error?.message == "nested more than 100 levels deep; SQLite cannot run it")
    }

    /// A predicate compiled at the limit is SQLite's to judge; a moderately deep one runs.
    @Test func moderateNestingRuns() throws {
        #expect(try count(Self.sum(30)) == count("age + 30 == 5"))
        #expect(try count(String(repeating: "NOT ", count: 10) + "age > 0") == count("age > 0"))
    }
}
