import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A new store's first write transaction runs with a rollback journal, and the store ends in WAL with the pages
/// a write through WAL gives (``Store/beginFirstWriteJournal(_:)``).
@Suite("A new store's first write")
struct FirstWriteJournalTests {
    static let uuid = "5C1D9A2E-7B3F-4E61-8D0A-2F4B6C8E1A3D"

    static func people(_ count: Int) -> [InputRecord] {
        (1...count).map { n in
            InputRecord(fields: [("name", .string("person \(n)")), ("age", .integer(Int64(n % 90)))], line: n)
        }
    }

    static func newStore(_ name: String) throws -> Store {
        try Store.open(at: try temporaryDirectory().appendingPathComponent(name).path, model: try Self.model(),
                       options: .init(uuid: uuid))
    }

    static func model() throws -> ManagedObjectModel {
        try Org.jsonModel(#"""
            [{"name": "Person", "attributes": [{"name": "name", "type": "String"},
                                               {"name": "age", "type": "Integer 16", "optional": true}],
              "fetchIndexes": [{"name": "byAge", "elements": [{"property": "age"}]}]}]
            """#)
    }

    static func journalMode(_ store: Store) throws -> String {
        try store.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// The file's bytes with the header's change counter and version-valid-for number blanked: WAL does not keep
    /// them as a rollback journal does.
    static func pages(_ store: Store) throws -> [UInt8] {
        try store.database.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store.path)))
        for offset in Array(24..<28) + Array(92..<96) { bytes[offset] = 0 }
        return bytes
    }

    @Test func theStoreEndsInWALWithThePagesWALWrites() throws {
        let journaled = try Self.newStore("Journaled.sqlite")
        let throughWAL = try Self.newStore("ThroughWAL.sqlite")
        #expect(journaled.journal.firstWritePending)
        throughWAL.journal.firstWritePending = false
        for store in [journaled, throughWAL] {
            try store.insert(Self.people(5000), into: "Person")
            try store.insert(Self.people(10), into: "Person")
            #expect(try Self.journalMode(store) == "wal")
            #expect(!FileManager.default.fileExists(atPath: store.path + "-journal"))
        }
        #expect(try journaled.count(ObjectFetchRequest(entity: "Person")) == 5010)
        let a = try Self.pages(journaled), b = try Self.pages(throughWAL)
        #expect(a.count == b.count)
        #expect(a == b, "first differing byte at \(a.indices.first { $0 < b.count && a[$0] != b[$0] } ?? -1)")
    }

    @Test func onlyTheFirstWriteRunsWithARollbackJournal() throws {
        let store = try Self.newStore("Modes.sqlite")
        func modeInsideAWrite() throws -> String {
            try store.inWriteTransaction {
                try store.insert(Self.people(10), into: "Person")
                return try store.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
            }
        }
        #expect(try modeInsideAWrite() == "delete")
        #expect(try Self.journalMode(store) == "wal")
        #expect(try modeInsideAWrite() == "wal")
        // An opened store, not created by this call, writes through WAL from the start.
        let reopened = try Store.open(at: store.path, model: try Self.model())
        #expect(!reopened.journal.firstWritePending)
    }

    @Test func aFailedFirstWriteLeavesTheStoreAsCreatedInWAL() throws {
        let store = try Self.newStore("Failed.sqlite")
        var records = Self.people(3000)
        records.append(InputRecord(fields: [("name", .string("late")), ("age", .string("old"))], line: 3001))
        #expect(throws: StoreError.self) { try store.insert(records, into: "Person") }
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 0)
        #expect(try Self.journalMode(store) == "wal")
        #expect(!FileManager.default.fileExists(atPath: store.path + "-journal"))
        try store.insert(Self.people(3), into: "Person")
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 3)
    }

    @Test func anotherConnectionKeepsTheFirstWriteInWAL() throws {
        let store = try Self.newStore("Shared.sqlite")
        let other = try DatabaseQueue(path: store.path)
        try other.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPERSON") }
        let mode = try store.inWriteTransaction {
            try store.insert(Self.people(100), into: "Person")
            return try store.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
        }
        #expect(mode == "wal")
        #expect(try Self.journalMode(store) == "wal")
        #expect(try other.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPERSON") } == 100)
    }
}
