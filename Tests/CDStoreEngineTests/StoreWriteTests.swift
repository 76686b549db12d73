import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Inserting, fetching, counting and deleting through the store API.
@Suite("Writing and reading objects")
struct StoreWriteTests {
    let model = try! ModelLoader.load(Fixtures.model.path).model

    func newStore() throws -> Store {
        try Store.open(at: try temporaryDirectory().appendingPathComponent("W.sqlite").path, model: model)
    }

    func record(_ fields: [(String, InputValue)]) -> InputRecord { InputRecord(fields: fields) }

    @Test func insertAllocatesKeysAsCoreData() throws {
        let store = try newStore()
        try store.insert([record([("label", .string("a"))]), record([("label", .string("b"))])], into: "Circle")
        try store.insert([record([("side", .double(2))])], into: "Square")
        let rows = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT FROM ZSHAPE ORDER BY Z_PK").map { [$0[0] as Int, $0[1], $0[2]] }
        }
        #expect(rows == [[1, 4, 1], [2, 4, 1], [3, 5, 1]])
        let max = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { [$0[0] as Int, $0[1]] }
        }
        // Only the root row of the hierarchy carries Z_MAX.
        #expect(max == [[1, 0], [2, 0], [3, 3], [4, 0], [5, 0]])
    }

    @Test func defaultsFillMissingAttributes() throws {
        let store = try newStore()
        try store.insert([record([("name", .string("Ann")), ("code", .string("A1"))])], into: "Checked")
        let object = try #require(try store.fetch(ObjectFetchRequest(entity: "Checked")).first)
        #expect(object["active"] == .bool(true))
        #expect(object["score"] == .double(1.5))
        #expect(object["age"] == .null)
    }

    @Test func subEntityObjectsComeWithTheirEntity() throws {
        let store = try newStore()
        try store.insert([InputRecord(fields: [("label", .string("c"))], entityName: "Circle"),
                          InputRecord(fields: [("label", .string("s"))], entityName: "Square")], into: "Shape")
        let all = try store.fetch(ObjectFetchRequest(entity: "Shape"))
        #expect(all.map(\.entity) == ["Circle", "Square"])
        #expect(try store.count(ObjectFetchRequest(entity: "Circle")) == 1)
        #expect(try store.count(ObjectFetchRequest(entity: "Shape", includesSubentities: false)) == 0)
    }

    @Test func abstractEntitiesCannotBeInserted() throws {
        let store = try newStore()
        let error = #expect(throws: StoreError.self) { try store.insert([record([("label", .string("x"))])], into: "Shape") }
        #expect(error?.code == .invalidInput)
        #expect(error?.description == "record 1: entity 'Shape': the entity is abstract and cannot have objects of its own; "
                + #"insert one of Circle, Square (or set "_entity")"#)
    }

    @Test(arguments: [
        (("age", InputValue.integer(200)), "record 2: entity 'Checked', attribute 'age': 200 is greater than the maximum 150"),
        (("age", .string("old")), "record 2: entity 'Checked', attribute 'age': expected a whole number, got 'old'"),
        (("age", .integer(70000)), "record 2: entity 'Checked', attribute 'age': 70000 is out of range for Integer 16"),
        (("name", .string("A")), "record 2: entity 'Checked', attribute 'name': 1 character is shorter than the minimum length 2"),
        (("name", .string("Ann3")), "record 2: entity 'Checked', attribute 'name': 'Ann3' does not match the regular expression '[A-Za-z ]+'"),
        (("joined", .string("1999-01-01")), "record 2: entity 'Checked', attribute 'joined': 1999-01-01T00:00:00.000Z is before the earliest allowed date 2001-01-01T00:00:00.000Z"),
        (("nmae", .string("x")), "record 2: entity 'Checked', attribute 'nmae': no such attribute or relationship; did you mean 'name'?"),
        (("active", .string("maybe")), "record 2: entity 'Checked', attribute 'active': expected a boolean (true/false, yes/no, 1/0), got 'maybe'"),
    ] as [((String, InputValue), String)])
    func invalidRecordsAreRefusedWholesale(field: (String, InputValue), message: String) throws {
        let store = try newStore()
        var fields: [(String, InputValue)] = [("name", .string("Bob")), ("code", .string("B"))]
        fields.removeAll { $0.0 == field.0 }
        fields.append(field)
        let batch = [record([("name", .string("Ann")), ("code", .string("A"))]), record(fields)]
        #expect { try store.insert(batch, into: "Checked") } throws: { error in
            (error as? StoreError)?.description == message
        }
        // The valid first record was rolled back with the rest.
        #expect(try store.count(ObjectFetchRequest(entity: "Checked")) == 0)
    }

    @Test func missingRequiredValueIsNamed() throws {
        let store = try newStore()
        #expect { try store.insert([record([("code", .string("A"))])], into: "Checked") } throws: { error in
            (error as? StoreError)?.description
                == "record 1: entity 'Checked', attribute 'name': a value is required (the attribute is not optional)"
        }
    }

    @Test func uniquenessConstraintViolationNamesConstraintAndValues() throws {
        let store = try newStore()
        try store.insert([record([("name", .string("Ann")), ("code", .string("A"))])], into: "Checked")
        #expect { try store.insert([record([("name", .string("Bob")), ("code", .string("A"))])], into: "Checked") } throws: { error in
            let text = (error as? StoreError)?.description ?? ""
            return text.hasPrefix("record 1: entity 'Checked': uniqueness constraint (code) violated: an object with code = 'A' "
                                  + "already exists (x-coredata://") && text.hasSuffix("/Checked/p1)")
        }
    }

    @Test func fetchSortsLimitsAndOffsets() throws {
        let store = try newStore()
        try store.insert(["bo", "Al", "cy", "al"].map { record([("str", .string($0))]) }, into: "Item")
        func names(_ request: ObjectFetchRequest) throws -> [String] {
            try store.fetch(request).map { if case .string(let s) = $0["str"] { return s } else { return "?" } }
        }
        #expect(try names(ObjectFetchRequest(entity: "Item", sort: [SortDescriptor("str")])) == ["Al", "al", "bo", "cy"])
        #expect(try names(ObjectFetchRequest(entity: "Item", sort: [SortDescriptor(parsing: "-str")])) == ["cy", "bo", "al", "Al"])
        #expect(try names(ObjectFetchRequest(entity: "Item", sort: [SortDescriptor(parsing: "str:ci")], limit: 2, offset: 1)) == ["al", "bo"])
        #expect(try store.count(ObjectFetchRequest(entity: "Item", limit: 3, offset: 2)) == 2)
    }

    @Test func deleteRemovesOnlyMatchingObjects() throws {
        let store = try newStore()
        try store.insert((1...5).map { record([("i32", .integer($0))]) }, into: "Item")
        let predicate = try PredicateParserShim.parse("i32 >= 4")
        #expect(try store.delete(ObjectFetchRequest(entity: "Item", predicate: predicate)).total == 2)
        #expect(try store.count(ObjectFetchRequest(entity: "Item")) == 3)
    }

    @Test func selectStatementIsBuiltFromTheModelWithBoundValues() throws {
        let store = try newStore()
        let predicate = try PredicateParserShim.parse("age > 30 AND name BEGINSWITH[c] 'a'")
        let query = try QueryBuilder(store: store, request: ObjectFetchRequest(entity: "Checked", predicate: predicate,
                                                                        sort: [SortDescriptor(parsing: "-age")], limit: 5))
        let select = query.selectStatement()
        #expect(select.sql == "SELECT t.Z_PK, t.Z_ENT, t.ZACTIVE, t.ZAGE, t.ZCODE, t.ZJOINED, t.ZNAME, t.ZSCORE FROM ZCHECKED t "
                + "WHERE ((t.ZAGE > ?) AND (cdstore_strcmp('beginsWith', 1, t.ZNAME, ?))) ORDER BY t.ZAGE DESC, t.Z_PK ASC LIMIT 5")
        #expect(select.arguments == [30.databaseValue, "a".databaseValue])
    }

    @Test func subEntityFilterUsesTheEntityRange() throws {
        let store = try newStore()
        let circles = try QueryBuilder(store: store, request: ObjectFetchRequest(entity: "Circle")).countStatement()
        #expect(circles.sql == "SELECT COUNT(*) FROM ZSHAPE t WHERE (t.Z_ENT = ?)")
        #expect(circles.arguments == [4.databaseValue])
        let shapes = try QueryBuilder(store: store, request: ObjectFetchRequest(entity: "Shape")).countStatement()
        #expect(shapes.sql == "SELECT COUNT(*) FROM ZSHAPE t WHERE 1")
        let exact = try QueryBuilder(store: store, request: ObjectFetchRequest(entity: "Shape", includesSubentities: false)).countStatement()
        #expect(exact.sql == "SELECT COUNT(*) FROM ZSHAPE t WHERE (t.Z_ENT = ?)")
    }
}

/// Large inserts report progress, so the CLI can show a progress line on a terminal.
@Suite("Insert progress")
struct InsertProgressTests {
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [InsertProgress] = []
        func add(_ progress: InsertProgress) { lock.lock(); values.append(progress); lock.unlock() }
        var all: [InsertProgress] { lock.lock(); defer { lock.unlock() }; return values }
    }

    @Test func progressIsReportedEvery4096RecordsAndAtTheEnd() throws {
        let model = try ModelLoader.load(Fixtures.model.path).model
        let store = try Store.open(at: try temporaryDirectory().appendingPathComponent("P.sqlite").path, model: model)
        let calls = Calls()
        let records = (0..<5000).map { InputRecord(fields: [("i32", .integer(Int64($0)))]) }
        try store.insert(records, into: "Item", options: InsertSettings(progress: { calls.add($0) }))
        #expect(calls.all.map(\.records) == [4096, 5000])
        #expect(calls.all.map(\.isFinished) == [false, true])
    }
}
