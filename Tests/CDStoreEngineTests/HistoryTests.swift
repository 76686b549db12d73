import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Persistent history read as records (`Store.forEachHistoryTransaction/Change`) from the corpus SwiftData store
/// and from a synthetic store laid out as Core Data lays it out (``HistoryFixture``), and kept by cdstore's
/// own writes (docs/decisions/0009-persistent-history-writes.md).
@Suite struct HistoryTests {
    /// A new store of the fixture model with the history tables and, unless `rows` is false, their rows.
    static func fixtureStore(rows: Bool = true) throws -> Store {
        let folder = try temporaryDirectory()
        let model = try ModelLoader.load(try HistoryFixture.writeModel(in: folder)).model
        let path = folder.appendingPathComponent("History.sqlite").path
        _ = try Store.open(at: path, model: model)
        try DatabaseQueue(path: path).write { db in
            for statement in HistoryFixture.tables + (rows ? HistoryFixture.rows : []) { try db.execute(sql: statement) }
        }
        return try Store.open(at: path, model: model)
    }

    static func count(_ table: String, _ store: Store) throws -> Int {
        try DatabaseQueue(path: store.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    func id(_ store: Store, _ entity: String, _ pk: Int64) -> ObjectID {
        ObjectID(storeUUID: store.metadata.uuid, entity: entity, primaryKey: pk)
    }

    // MARK: - Reading

    @Test func corpusSwiftDataStore() throws {
        let source = Corpus.stores.appendingPathComponent("Karim-ezzedine__CartKit__CartKitSwiftData_v1/CartKitSwiftData_v1.sqlite")
        let copy = try Corpus.copyStore(source)
        let store = try Store.open(at: copy.path, loaded: nil, options: .init(readOnly: true))
        #expect(try store.hasPersistentHistory)
        let transactions = try store.historyTransactions()
        #expect(transactions == [HistoryTransaction(number: 1, timestamp: 791478105.826932, author: nil,
                                                    bundleID: "com.apple.dt.xctest.tool", processID: "xctest",
                                                    contextName: nil, changeCount: 1)])
        let changes = try store.historyChanges()
        #expect(changes == [HistoryChange(number: 1, transaction: 1, type: .insert, entity: "CartModel",
                                          objectID: ObjectID(storeUUID: "C2A6F180-A5E4-47ED-ABB7-F14AB955DC76",
                                                             entity: "CartModel", primaryKey: 1),
                                          updatedProperties: nil, tombstone: nil)])
        #expect(transactions.count == (try Self.count("ATRANSACTION", store)))
        #expect(changes.count == (try Self.count("ACHANGE", store)))
        #expect(transactions.map(\.changeCount).reduce(0, +) == changes.count)
    }

    static func expectedTransactions() -> [HistoryTransaction] {
        [HistoryTransaction(number: 1, timestamp: 700000000.5, author: "NSCloudKitMirroringDelegate.import",
                            bundleID: "com.example.shelves", processID: "Shelves", contextName: "viewContext", changeCount: 3),
         HistoryTransaction(number: 2, timestamp: 700003600.25, author: "widget", bundleID: "com.example.shelves",
                            processID: "ShelvesWidget", contextName: nil, changeCount: 3),
         HistoryTransaction(number: 5, timestamp: 700007200, author: "legacy", bundleID: "com.example.old",
                            processID: "OldApp", contextName: nil, changeCount: 3)]
    }

    func expectedChanges(_ store: Store) -> [HistoryChange] {
        [HistoryChange(number: 1, transaction: 1, type: .insert, entity: "Shelf", objectID: id(store, "Shelf", 1),
                       updatedProperties: nil, tombstone: nil),
         HistoryChange(number: 2, transaction: 1, type: .insert, entity: "Book", objectID: id(store, "Book", 1),
                       updatedProperties: nil, tombstone: nil),
         HistoryChange(number: 3, transaction: 1, type: .insert, entity: "Tag", objectID: id(store, "Tag", 1),
                       updatedProperties: nil, tombstone: nil),
         HistoryChange(number: 4, transaction: 2, type: .update, entity: "Book", objectID: id(store, "Book", 1),
                       updatedProperties: ["pages", "shelf"], tombstone: nil),
         HistoryChange(number: 5, transaction: 2, type: .update, entity: "Shelf", objectID: id(store, "Shelf", 1),
                       updatedProperties: ["books"], tombstone: nil),
         HistoryChange(number: 6, transaction: 2, type: .update, entity: "Tag", objectID: id(store, "Tag", 1),
                       updatedProperties: ["books", "#7"], tombstone: nil),
         HistoryChange(number: 7, transaction: 5, type: .update, entity: "#99", objectID: id(store, "#99", 3),
                       updatedProperties: ["#1"], tombstone: nil),
         HistoryChange(number: 8, transaction: 5, type: .delete, entity: "Book", objectID: id(store, "Book", 1),
                       updatedProperties: nil,
                       tombstone: [("added", .date(699999999.25)), ("code", .string("B-1")), ("title", .string("Dune"))]),
         HistoryChange(number: 9, transaction: 5, type: .delete, entity: "Item", objectID: id(store, "Item", 2),
                       updatedProperties: nil,
                       tombstone: [("added", .date(700000000)), ("code", .string("I-2")), ("title", .string("Lamp"))])]
    }

    @Test func syntheticStoreDecodesExactly() throws {
        let store = try Self.fixtureStore()
        #expect(try store.historyTransactions() == Self.expectedTransactions())
        #expect(try store.historyChanges() == expectedChanges(store))
    }

    @Test func filters() throws {
        let store = try Self.fixtureStore()
        let all = Self.expectedTransactions()
        let changes = expectedChanges(store)
        // A token is exclusive: what came after it.
        #expect(try store.historyTransactions(HistoryQuery(since: .token(1))) == Array(all[1...]))
        #expect(try store.historyChanges(HistoryQuery(since: .token(2))) == Array(changes[6...]))
        #expect(try store.historyTransactions(HistoryQuery(since: .token(5))) == [])
        // A date is inclusive.
        #expect(try store.historyTransactions(HistoryQuery(since: .date(700003600.25))) == Array(all[1...]))
        #expect(try store.historyChanges(HistoryQuery(since: .date(700003600.5))) == Array(changes[6...]))
        // Authors, interned or in the text twin.
        #expect(try store.historyTransactions(HistoryQuery(author: "widget")) == [all[1]])
        #expect(try store.historyChanges(HistoryQuery(author: "legacy")) == Array(changes[6...]))
        #expect(try store.historyTransactions(HistoryQuery(author: "nobody")) == [])
        // An entity: its changes and its sub-entities', and the transactions holding some, counting only those.
        var bookTransactions = all
        for index in bookTransactions.indices { bookTransactions[index].changeCount = 1 }
        #expect(try store.historyTransactions(HistoryQuery(entity: "Book")) == bookTransactions)
        #expect(try store.historyChanges(HistoryQuery(entity: "Book")) == [changes[1], changes[3], changes[7]])
        #expect(try store.historyChanges(HistoryQuery(entity: "Item")) == [changes[1], changes[3], changes[7], changes[8]])
        #expect(try store.historyChanges(HistoryQuery(since: .token(1), author: "widget", entity: "Shelf")) == [changes[4]])
        #expect(throws: StoreError(.unknownName, "no entity 'Shelfs' in the store; did you mean 'Shelf'?")) {
            try store.historyChanges(HistoryQuery(entity: "Shelfs"))
        }
    }

    @Test func storeWithoutHistory() throws {
        let store = try Self.fixtureStore(rows: false)
        try DatabaseQueue(path: store.path).write { db in
            for table in ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"] { try db.execute(sql: "DROP TABLE \(table)") }
        }
        let plain = try Store.open(at: store.path, model: store.model)
        #expect(try !plain.hasPersistentHistory)
        #expect(try plain.historyTransactions() == [])
        #expect(try plain.historyChanges(HistoryQuery(entity: "Book")) == [])
        // Writing creates no history and leaves the schema as it was.
        let schema = try plain.rows("SELECT name FROM sqlite_master ORDER BY name")
        try plain.insertJSON("Shelf", #"{"name": "A"}"#)
        #expect(try plain.rows("SELECT name FROM sqlite_master ORDER BY name") == schema)
        #expect(try !plain.hasPersistentHistory)
    }

    @Test func propertyOrder() throws {
        let store = try Self.fixtureStore(rows: false)
        let book = HistoryPropertyOrder(entity: store.model.entity(named: "Book")!, model: store.model)
        #expect(book.properties == ["added", "code", "isbn", "pages", "shelf", "tags", "title"])
        #expect(book.tombstones == ["added", "code", "isbn", "title"])
        #expect(book.bitmap(["pages", "shelf"]) == Data([0x18]))
        #expect(book.bitmap(["title", "added", "nope"]) == Data([0x82]))
        #expect(book.bitmap(["nope"]) == nil)
        #expect(book.names(in: Data([0x18, 0x01])) == ["pages", "shelf", "#15"])
        #expect(HistoryPropertyOrder.bits(in: Data([0x80, 0x01])) == [0, 15])
        #expect(HistoryPropertyOrder.union(Data([0x80]), Data([0x01, 0x40])) == Data([0x81, 0x40]))
    }
}
