import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Regression tests for text that GRDB's `String` binding (`sqlite3_bind_text(…, -1, …)`) and reading
/// (`String(cString:)`) cut at the first NUL: `"nul\u0000byte"` was stored as `nul` and insert said it succeeded.
/// Every write and read path of attribute values is tried with a NUL inside the text (``ExactText``).
@Suite("Exact text: NUL inside strings")
struct ExactTextTests {
    let model = try! ModelLoader.load(Fixtures.model.path).model

    func newStore() throws -> Store {
        try Store.open(at: try temporaryDirectory().appendingPathComponent("T.sqlite").path, model: model)
    }

    func strings(_ store: Store, _ entity: String = "Item", _ attribute: String = "str") throws -> [ObjectValue] {
        try store.fetch(ObjectFetchRequest(entity: entity)).map { $0[attribute] ?? .null }
    }

    /// The stored bytes, read with their length by SQLite's `hex()`.
    func storedHex(_ store: Store, _ sql: String = "SELECT hex(ZSTR) FROM ZITEM ORDER BY Z_PK") throws -> [String] {
        try DatabaseQueue(path: store.path).read { db in try String.fetchAll(db, sql: sql) }
    }

    func hex(_ text: String) -> String { text.utf8.map { String(format: "%02X", $0) }.joined() }

    @Test func insertAndFetchKeepTheWholeString() throws {
        let store = try newStore()
        try store.insert([InputRecord(fields: [("str", .string("nul\u{0}byte"))])], into: "Item")
        #expect(try storedHex(store) == [hex("nul\u{0}byte")])
        #expect(try strings(store) == [.string("nul\u{0}byte")])
    }

    /// `import` writes through ``AttributeRow``, not the bulk insert's raw statements.
    @Test func importKeepsTheWholeString() throws {
        let store = try newStore()
        try store.importGraph(GraphDocument(entities: [("Item", [InputRecord(fields: [("str", .string("g\u{0}h\u{0}"))])])]))
        #expect(try storedHex(store) == [hex("g\u{0}h\u{0}")])
        #expect(try strings(store) == [.string("g\u{0}h\u{0}")])
    }

    /// Predicates bind their strings exactly: `"a\0b"` matches itself, not `"a"` nor `"a\0c"`.
    @Test func predicatesMatchTheWholeString() throws {
        let store = try newStore()
        try store.insert(["a", "a\u{0}b", "a\u{0}c"].map { InputRecord(fields: [("str", .string($0))]) }, into: "Item")
        let predicate = try PredicateParserShim.parse("str == \"a\u{0}b\"")
        #expect(try store.count(ObjectFetchRequest(entity: "Item", predicate: predicate)) == 1)
        #expect(try store.fetch(ObjectFetchRequest(entity: "Item", predicate: predicate)).map { $0["str"] } == [.string("a\u{0}b")])
        // Case-insensitive comparison runs in a registered SQL function (``ExactFunction``), with the whole text too.
        let folded = try PredicateParserShim.parse("str ==[c] \"A\u{0}B\"")
        #expect(try store.fetch(ObjectFetchRequest(entity: "Item", predicate: folded)).map { $0["str"] } == [.string("a\u{0}b")])
    }

    /// `update` reads the selected rows and writes the new values: both with the whole string.
    @Test func updateWritesAndReadsTheWholeString() throws {
        let store = try newStore()
        try store.insert(["a\u{0}b", "a"].map { InputRecord(fields: [("str", .string($0))]) }, into: "Item")
        let predicate = try PredicateParserShim.parse("str == \"a\u{0}b\"")
        #expect(try store.update(UpdateRequest(entity: "Item", predicate: predicate,
                                               assignments: [UpdateAssignment("str", .literal(.string("u\u{0}v")))])) == 1)
        #expect(try strings(store) == [.string("u\u{0}v"), .string("a")])
        // An expression of the stored value: read whole, written whole.
        #expect(try store.update(UpdateRequest(entity: "Item", predicate: nil,
                                               assignments: [UpdateAssignment(parsing: "str:=uppercase:(str)")])) == 2)
        let after = try storedHex(store)
        #expect(after == [hex("U\u{0}V"), hex("A")], "\(after)")
    }

    /// Upserts look objects up by their constraint's values, bound exactly, and merge through ``AttributeRow``.
    @Test func upsertMatchesAndMergesTheWholeString() throws {
        let store = try newStore()
        try store.insert([InputRecord(fields: [("code", .string("k\u{0}1")), ("name", .string("Ann"))])], into: "Checked")
        try store.insert([InputRecord(fields: [("code", .string("k\u{0}1")), ("name", .string("Bob"))]),
                          InputRecord(fields: [("code", .string("k\u{0}")), ("name", .string("Cy"))])],
                         into: "Checked", options: InsertSettings(upsert: true))
        let objects = try store.fetch(ObjectFetchRequest(entity: "Checked"))
        #expect(objects.map { $0["code"] } == [.string("k\u{0}1"), .string("k\u{0}")])
        #expect(objects.map { $0["name"] } == [.string("Bob"), .string("Cy")])
    }

    @Test func projectionReadsTheWholeString() throws {
        let store = try newStore()
        try store.insert([InputRecord(fields: [("str", .string("p\u{0}q"))])], into: "Item")
        let rows = try store.project(ProjectionRequest(entity: "Item", properties: ["str"]))
        #expect(rows.map { $0.map(\.1) } == [[.string("p\u{0}q")]])
    }

    /// CSV quoting looks at bytes: "\r\n" is one Character, equal to neither "\r" nor "\n", and a leading space
    /// followed by a combining mark is not the Character " ".
    @Test func csvFieldsAreQuotedByTheirBytes() {
        #expect(CSVText.field("a\r\nb") == "\"a\r\nb\"")
        #expect(CSVText.field("\r\n") == "\"\r\n\"")
        #expect(CSVText.field(" \u{301}x") == "\" \u{301}x\"")
        #expect(CSVText.field("x \u{301}") == "x \u{301}")
        #expect(CSVText.field("nul\u{0}byte") == "nul\u{0}byte")
        #expect(CSVText.field("") == "\"\"")
    }
}
