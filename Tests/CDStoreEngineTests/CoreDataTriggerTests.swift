import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A store Core Data made for a model with derived attributes holds triggers that compute them with functions
/// Core Data registers on its connections. Written through cdstore, the rows get the values Core Data would write:
/// the triggers here have the shape of Core Data's (`Z_DA_<table>_<entity>_<attribute>_INSERT`, the value set by
/// an `UPDATE`, then reported to Core Data's contexts by a `SELECT` of the callback).
@Suite("Core Data's trigger functions")
struct CoreDataTriggerTests {
    static let model: ManagedObjectModel = {
        ManagedObjectModel(entities: [Entity(name: "Item", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "lower", type: .string, isOptional: true),
            Attribute(name: "key", type: .string, isOptional: true),
            Attribute(name: "touched", type: .date, isOptional: true),
        ])])
    }()

    static func trigger(_ attribute: String, column: String, value: String) -> String {
        "CREATE TRIGGER IF NOT EXISTS Z_DA_ZITEM_Item_\(attribute)_INSERT AFTER INSERT ON ZITEM FOR EACH ROW BEGIN "
            + "UPDATE ZITEM SET \(column) = \(value) WHERE Z_PK = NEW.Z_PK; "
            + "SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZITEM', Z_ENT, Z_PK, '\(attribute)', \(column)) "
            + "FROM ZITEM WHERE Z_PK = NEW.Z_PK; END"
    }

    /// A new store with the triggers of `lower = lowercase:(name)`, `key = canonical:(name)`, `touched = now()`
    /// and any `extra` ones, opened again as a store Core Data wrote.
    func store(extra: [String] = []) throws -> Store {
        let path = try temporaryDirectory().appendingPathComponent("Derived.sqlite").path
        _ = try Store.open(at: path, model: Self.model)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: Self.trigger("lower", column: "ZLOWER", value: "NSCoreDataToLower(NEW.ZNAME)"))
            try db.execute(sql: Self.trigger("key", column: "ZKEY", value: "NSCoreDataCanonical(NEW.ZNAME)"))
            try db.execute(sql: Self.trigger("touched", column: "ZTOUCHED", value: "NSCoreDataNow()"))
            for sql in extra { try db.execute(sql: sql) }
        }
        return try Store.open(at: path, model: Self.model)
    }

    @Test func derivedValuesAreComputedAsCoreDataComputesThem() throws {
        let store = try store()
        let before = Date().timeIntervalSinceReferenceDate
        try store.insert([InputRecord(fields: [("name", .string("Crème Brûlée"))]), InputRecord(fields: [])], into: "Item")
        let after = Date().timeIntervalSinceReferenceDate
        let rows = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ZLOWER, ZKEY, ZTOUCHED FROM ZITEM ORDER BY Z_PK")
        }
        #expect(rows.map { $0["ZLOWER"] as String? } == ["crème brûlée", nil])
        #expect(rows.map { $0["ZKEY"] as String? } == ["creme brulee", nil])
        for row in rows {
            let touched = try #require(row["ZTOUCHED"] as Double?)
            #expect(touched >= before && touched <= after)
        }
    }

    /// A trigger that stores what cdstore cannot compute refuses the write, leaving the store as it was, rather
    /// than storing NULL.
    @Test func aValueCdstoreCannotComputeRefusesTheWrite() throws {
        let store = try store(extra: [Self.trigger("name", column: "ZNAME",
                                                   value: "NSCoreDataDATriggerMergeableString('ZITEM', Z_ENT, Z_PK, 'name', NEW.ZNAME)")])
        #expect(throws: StoreError.self) {
            try store.insert([InputRecord(fields: [("name", .string("a"))])], into: "Item")
        }
        #expect(try DatabaseQueue(path: store.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM") } == 0)
    }
}
