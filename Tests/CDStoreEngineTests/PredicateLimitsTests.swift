import CDStoreModel
import CDStorePredicate
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// Predicates far larger than people type are handled or refused with a message — never a crash, a
/// stack overflow or SQLite's "Expression tree is too large".
@Suite("Predicate limits")
struct PredicateLimitsTests {
    static func store() throws -> Store {
        let model = try ModelLoader.load(Corpus.schemas.appendingPathComponent("People.json").path).model
        let store = try Org.store(model, name: "Limits.sqlite")
        try store.insert((0..<200).map { InputRecord(fields: [("id", .integer(Int64($0))), ("name", .string("P\($0)")),
                                                               ("age", .integer(Int64(18 + $0 % 70))), ("salary", .double(1)),
                                                               ("active", .bool(true)), ("joined", .string("2020-01-01"))]) },
                         into: "Person")
        return store
    }

    func count(_ store: Store, _ predicate: String) throws -> Int {
        try store.count(ObjectFetchRequest(entity: "Person", predicate: try PredicateParserShim.parse(predicate)))
    }

    @Test func aChainOfTwentyThousandTermsRuns() throws {
        let store = try Self.store()
        // SQLite nests `a OR b OR …` as deep as the chain is long and refused past 1000 terms.
        #expect(try count(store, (0..<20_000).map { "id == \($0 * 2)" }.joined(separator: " OR ")) == 100)
        #expect(try count(store, (0..<20_000).map { "name != 'x\($0)'" }.joined(separator: " AND ")) == 200)
    }

    @Test func aPredicateOfAHundredThousandTermsIsRefusedWithAMessage() throws {
        let store = try Self.store()
        let message = errorText { _ = try count(store, (0..<100_000).map { "id == \($0)" }.joined(separator: " OR ")) }
        #expect(message == "entity 'Person': the predicate has 100000 values, more than the 32000 SQLite takes in one "
                + "query; split the request or use fewer values")
    }

    @Test func nestingDeeperThanTheParserTakesIsAnErrorAtItsColumn() throws {
        let text = String(repeating: "(", count: 100_000) + "age > 1" + String(repeating: ")", count: 100_000)
        do {
            _ = try PredicateParserShim.parse(text)
            Issue.record("parsed")
        } catch let error as CDPredicateError {
            #expect(error.description == "predicate nested too deeply (limit 500) at column 501")
            let rendered = error.rendered(in: text).split(separator: "\n")
            #expect(rendered.count == 3 && rendered[1].count < 130 && rendered[2].hasSuffix("^"))
        }
    }
}
