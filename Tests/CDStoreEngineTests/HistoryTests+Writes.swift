import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// cdstore's writes into a store with persistent history add one transaction each, with one change per object
/// (docs/decisions/0009-persistent-history-writes.md).
extension HistoryTests {
    /// The transactions after `token`, each timestamp checked against the clock around `body` and then dropped,
    /// so that the records compare whole.
    func written(_ store: Store, after token: Int64, _ body: () throws -> Void) throws -> [HistoryTransaction] {
        let start = Date().timeIntervalSinceReferenceDate
        try body()
        let end = Date().timeIntervalSinceReferenceDate
        return try store.historyTransactions(HistoryQuery(since: .token(token))).map { transaction in
            #expect(transaction.timestamp.map { $0 >= start && $0 <= end } == true, "timestamp \(String(describing: transaction.timestamp))")
            var copy = transaction
            copy.timestamp = nil
            return copy
        }
    }

    func mine(_ number: Int64, changes: Int) -> HistoryTransaction {
        HistoryTransaction(number: number, timestamp: nil, author: "cdstore", bundleID: nil,
                           processID: ProcessInfo.processInfo.processName, contextName: nil, changeCount: changes)
    }

    func change(_ store: Store, _ number: Int64, _ transaction: Int64, _ type: HistoryChange.ChangeType, _ entity: String,
                _ pk: Int64, updated: [String]? = nil, tombstone: [(name: String, value: ObjectValue)]? = nil) -> HistoryChange {
        HistoryChange(number: number, transaction: transaction, type: type, entity: entity, objectID: id(store, entity, pk),
                      updatedProperties: updated, tombstone: type == .delete ? tombstone ?? [] : tombstone)
    }

    func update(_ store: Store, _ entity: String, _ predicate: String, _ assignments: [String]) throws -> Int {
        try store.update(UpdateRequest(entity: entity, predicate: try PredicateParserShim.parse(predicate),
                                       assignments: try assignments.map(UpdateAssignment.init(parsing:))))
    }

    func delete(_ store: Store, _ entity: String, _ predicate: String) throws {
        try store.delete(ObjectFetchRequest(entity: entity, predicate: try PredicateParserShim.parse(predicate)))
    }

    @Test func insertAddsOneTransactionWithAChangePerObject() throws {
        let store = try Self.fixtureStore()
        let transactions = try written(store, after: 5) {
            try store.insertJSON("Shelf", #"{"name": "Fiction", "books": [{"title": "Dune", "code": "B-7", "tags": [{"name": "sf"}]}]}"#)
        }
        #expect(transactions == [mine(6, changes: 3)])
        #expect(try store.historyChanges(HistoryQuery(since: .token(5))) == [
            change(store, 10, 6, .insert, "Tag", 1), change(store, 11, 6, .insert, "Book", 1),
            change(store, 12, 6, .insert, "Shelf", 1),
        ])
        // As Core Data writes them: Z_ENT the ancillary entity, Z_OPT NULL, strings interned, Z_MAX moved.
        let process = ProcessInfo.processInfo.processName
        #expect(try store.rows("SELECT * FROM ACHANGE WHERE ZTRANSACTIONID = 6 ORDER BY Z_PK") == [
            "10|16001|NULL|0|4|1|6|NULL|NULL|NULL|NULL|NULL", "11|16001|NULL|0|2|1|6|NULL|NULL|NULL|NULL|NULL",
            "12|16001|NULL|0|3|1|6|NULL|NULL|NULL|NULL|NULL",
        ])
        #expect(try store.rows("SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZAUTHOR, "
                               + "ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN FROM ATRANSACTION WHERE Z_PK = 6")
                == ["6|16002|NULL|7|NULL|NULL|8|NULL|NULL|NULL|NULL|NULL"])
        #expect(try store.rows("SELECT * FROM ATRANSACTIONSTRING WHERE Z_PK > 6") == ["7|16003|NULL|cdstore", "8|16003|NULL|\(process)"])
        #expect(try store.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000")
                == ["16001|12", "16002|6", "16003|8"])
        #expect(try Self.count("ATRANSACTION", store) == (try store.historyTransactions().count))
        #expect(try Self.count("ACHANGE", store) == (try store.historyChanges().count))

        // The next command reuses the interned strings; a reference to an existing shelf updates its to-many.
        let second = try written(store, after: 6) {
            try store.insertJSON("Book", #"{"title": "Emma", "shelf": {"_ref": {"name": "Fiction"}}}"#)
        }
        #expect(second == [mine(7, changes: 2)])
        #expect(try store.historyChanges(HistoryQuery(since: .token(6))) == [
            change(store, 13, 7, .insert, "Book", 2), change(store, 14, 7, .update, "Shelf", 1, updated: ["books"]),
        ])
        #expect(try Self.count("ATRANSACTIONSTRING", store) == 8)
    }

    @Test func updatesAndDeletesRecordPropertiesAndTombstones() throws {
        let store = try Self.fixtureStore()
        try store.insertJSON("Shelf", #"{"name": "Fiction", "label": "F", "books": [{"title": "Dune", "code": "B-7", "isbn": "0-441", "#
                             + #""added": "2024-05-01T00:00:00Z", "tags": [{"name": "sf"}]}, {"title": "Emma"}]}"#)
        var updated = 0
        #expect(try written(store, after: 6) { updated = try update(store, "Book", "title == 'Dune'", ["pages=412", "code=B-8"]) }
                == [mine(7, changes: 1)])
        #expect(updated == 1)
        #expect(try store.historyChanges(HistoryQuery(since: .token(6)))
                == [change(store, 14, 7, .update, "Book", 1, updated: ["code", "pages"])])

        // An update that changes no object adds no transaction.
        #expect(try update(store, "Book", "title == 'Nope'", ["pages=1"]) == 0)
        #expect(try store.historyTransactions(HistoryQuery(since: .token(7))) == [])

        // Deleting a book: its tombstone; its shelf and its tag lose a member of their to-many.
        #expect(try written(store, after: 7) { try delete(store, "Book", "title == 'Dune'") } == [mine(8, changes: 3)])
        #expect(try store.historyChanges(HistoryQuery(since: .token(7))) == [
            change(store, 15, 8, .delete, "Book", 1, tombstone: [
                ("added", .date(736214400)), ("code", .string("B-8")), ("isbn", .string("0-441")), ("title", .string("Dune")),
            ]),
            change(store, 16, 8, .update, "Tag", 1, updated: ["books"]),
            change(store, 17, 8, .update, "Shelf", 1, updated: ["books"]),
        ])
        // Deleting the shelf nullifies the remaining book's to-one.
        #expect(try written(store, after: 8) { try delete(store, "Shelf", "name == 'Fiction'") } == [mine(9, changes: 2)])
        #expect(try store.historyChanges(HistoryQuery(since: .token(8))) == [
            change(store, 18, 9, .update, "Book", 2, updated: ["shelf"]),
            change(store, 19, 9, .delete, "Shelf", 1, tombstone: [("name", .string("Fiction"))]),
        ])
        #expect(try Self.count("ACHANGE", store) == (try store.historyChanges().count))
    }

    @Test func failedWritesAddNothing() throws {
        let store = try Self.fixtureStore()
        let before = try store.rows("SELECT * FROM Z_PRIMARYKEY")
        let error = #expect(throws: StoreError.self) { try store.insertJSON("Book", #"{"title": "A", "pages": "many"}"#) }
        #expect(error?.code == .invalidInput)
        #expect(error?.description == "record 1: entity 'Book', attribute 'pages': expected a whole number, got 'many'")
        #expect(try store.historyTransactions(HistoryQuery(since: .token(5))) == [])
        #expect(try store.rows("SELECT * FROM Z_PRIMARYKEY") == before)
        // The next write still records (the recorder's state was rolled back with the failed transaction).
        try store.insertJSON("Tag", #"{"name": "x"}"#)
        #expect(try store.historyChanges(HistoryQuery(since: .token(5))) == [change(store, 10, 6, .insert, "Tag", 1)])
    }

    /// One change per object per command, whatever the statements: inserted then updated is an insert, two
    /// updates are one with both properties, inserted then deleted leaves nothing; a record skipped by
    /// `skipInvalid` is rolled back with its history.
    @Test func oneChangePerObjectPerCommand() throws {
        let store = try Self.fixtureStore()
        try store.insertJSON("Shelf", #"[{"name": "A"}, {"name": "B"}]"#)
        try store.write { db in
            try db.execute(sql: "UPDATE ZSHELF SET ZNAME = 'A2' WHERE Z_PK = 1")
            try db.execute(sql: "UPDATE ZSHELF SET ZLABEL = 'x', Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
            try db.execute(sql: "INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (50, 3, 1, 'C')")
            try db.execute(sql: "UPDATE ZSHELF SET ZLABEL = 'y' WHERE Z_PK = 50")
            try db.execute(sql: "INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (51, 3, 1, 'D')")
            try db.execute(sql: "DELETE FROM ZSHELF WHERE Z_PK = 51")
        }
        #expect(try store.historyChanges(HistoryQuery(since: .token(6))) == [
            change(store, 12, 7, .update, "Shelf", 1, updated: ["label", "name"]), change(store, 13, 7, .insert, "Shelf", 50),
        ])
        let summary = try store.insert(try records(#"[{"name": "E"}, {"name": "F", "books": 3}, {"name": "G"}]"#), into: "Shelf",
                                       options: InsertSettings(skipInvalid: true))
        #expect(summary == 2)
        #expect(try store.historyChanges(HistoryQuery(since: .token(7))) == [
            change(store, 14, 8, .insert, "Shelf", 51), change(store, 15, 8, .insert, "Shelf", 52),
        ])
    }

    /// Apps remember the last transaction number they read; after `deleteHistory(before:)` pruned the newest
    /// rows, new numbers still continue past `Z_MAX`, never below a number already handed out.
    @Test func numbersContinuePastPrunedHistory() throws {
        let store = try Self.fixtureStore()
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 20 WHERE Z_ENT = 16002")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_ENT = 16001")
        }
        #expect(try written(store, after: 5) { try store.insertJSON("Tag", #"{"name": "x"}"#) } == [mine(21, changes: 1)])
        #expect(try store.historyChanges(HistoryQuery(since: .token(20))) == [change(store, 41, 21, .insert, "Tag", 1)])
    }
}
