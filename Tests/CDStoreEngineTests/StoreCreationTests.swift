import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A store cdstore creates, inspected with plain SQL: what Core Data would find in it.
@Suite("Creating a store")
struct StoreCreationTests {
    let model = try! ModelLoader.load(Fixtures.model.path).model

    func newStore() throws -> (Store, DatabaseQueue) {
        let path = try temporaryDirectory().appendingPathComponent("New.sqlite").path
        let store = try Store.open(at: path, model: model, options: .init(uuid: "0C5E3A54-5B7D-4A8C-9A5E-22E2C0F4D1A1"))
        return (store, try DatabaseQueue(path: path))
    }

    @Test func tablesAndColumnsHaveCoreDataNamesAndTypes() throws {
        let (_, db) = try newStore()
        try db.read { db throws in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            #expect(tables == ["ZCHECKED", "ZITEM", "ZSHAPE", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(ZITEM)").map { "\($0["name"] as String) \($0["type"] as String)" }
            #expect(columns == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZFLAG INTEGER", "ZI16 INTEGER",
                                "ZI32 INTEGER", "ZI64 INTEGER", "ZDBL FLOAT", "ZFLT FLOAT", "ZWHEN TIMESTAMP",
                                "ZDEC DECIMAL", "ZLINK VARCHAR", "ZSTR VARCHAR", "ZBLOB BLOB", "ZUID BLOB", "ZXF BLOB"])
            // Sub-entities share the root's table; the transient attribute has no column.
            let shape = try Row.fetchAll(db, sql: "PRAGMA table_info(ZSHAPE)").map { $0["name"] as String }
            #expect(shape.sorted() == ["ZLABEL", "ZRADIUS", "ZSIDE", "Z_ENT", "Z_OPT", "Z_PK"])
            let primaryKey = try Row.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'ZITEM'")!["sql"] as String
            #expect(primaryKey == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFLAG INTEGER, "
                    + "ZI16 INTEGER, ZI32 INTEGER, ZI64 INTEGER, ZDBL FLOAT, ZFLT FLOAT, ZWHEN TIMESTAMP, ZDEC DECIMAL, "
                    + "ZLINK VARCHAR, ZSTR VARCHAR, ZBLOB BLOB, ZUID BLOB, ZXF BLOB )")
        }
    }

    @Test func primaryKeyTableNumbersEntitiesAsCoreData() throws {
        let (_, db) = try newStore()
        let rows = try db.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                .map { "\($0[0] as Int) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)" }
        }
        // Roots by case-insensitive name, each followed by its sub-entities depth first.
        #expect(rows == ["1 Checked 0 0", "2 Item 0 0", "3 Shape 0 0", "4 Circle 3 0", "5 Square 3 0"])
    }

    @Test func indexesHaveCoreDataNames() throws {
        let (_, db) = try newStore()
        let indexes = try db.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
        #expect(indexes == [
            "CREATE INDEX ZSHAPE_Z_ENT_INDEX ON ZSHAPE (Z_ENT)",
            "CREATE UNIQUE INDEX Z_Checked_UNIQUE_code ON ZCHECKED (ZCODE COLLATE BINARY ASC)",
        ])
    }

    @Test func pragmasAreCoreData() throws {
        let (_, db) = try newStore()
        let pragmas: [String] = try db.read { db in
            try ["auto_vacuum", "journal_mode", "page_size", "user_version"].map { name in
                try String.fetchOne(db, sql: "PRAGMA \(name)") ?? "?"
            }
        }
        #expect(pragmas == ["2", "wal", "4096", "0"])
    }

    @Test func metadataHoldsCoreDataKeysAndTheModel() throws {
        let (_, db) = try newStore()
        let row = try db.read { db in try Row.fetchOne(db, sql: "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")! }
        #expect(row["Z_VERSION"] as Int == 1)
        let uuid: String = row["Z_UUID"]
        let plistData: Data = row["Z_PLIST"]
        #expect(uuid == "0C5E3A54-5B7D-4A8C-9A5E-22E2C0F4D1A1")
        #expect(plistData.starts(with: Array("bplist00".utf8)))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == ["1"])
        #expect(plist["NSPersistenceFrameworkVersion"] as? Int == StoreMetadata.frameworkVersion)
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes == VersionHasher.entityHashes(of: model).mapValues { Data($0) })
        #expect(plist["NSStoreModelVersionHashesDigest"] as? String == VersionHasher.hashesDigest(of: model))
        #expect(plist["NSStoreModelVersionChecksumKey"] as? String == VersionHasher.versionChecksum(of: model))
        // The model is in Z_MODELCACHE (ModelCacheWriteTests), no longer in the metadata (decision 0008).
        #expect(plist[StoreMetadata.cachedModelKey] == nil)
        #expect(plist.keys.sorted() == ["NSPersistenceFrameworkVersion", "NSStoreModelVersionChecksumKey",
                                        "NSStoreModelVersionHashes", "NSStoreModelVersionHashesDigest",
                                        "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers", "NSStoreType",
                                        "_NSAutoVacuumLevel"])
    }

    @Test func reopeningWithoutAModelUsesTheCachedOne() throws {
        let (store, _) = try newStore()
        let reopened = try Store.open(at: store.path, model: nil)
        // The model comes back from Z_MODELCACHE: the same model, with entities and properties in name order (as
        // Core Data's own caches give them) and without Xcode-only settings (code generation).
        #expect(reopened.modelSource == .coreDataCache && reopened.warnings == [])
        #expect(ModelComparison.normalised(reopened.model) == ModelComparison.normalised(model))
        #expect(reopened.model.entities.map(\.name) == model.entities.map(\.name).sorted())
        #expect(reopened.metadata.uuid == "0C5E3A54-5B7D-4A8C-9A5E-22E2C0F4D1A1")
    }

    @Test func reopeningWithAnotherModelIsRefused() throws {
        let (store, _) = try newStore()
        var other = model
        other.entities[0].attributes.append(Attribute(name: "extra", type: .string, isOptional: true))
        // With migration off (--no-migrate); by default the store would be migrated (see MigrationTests).
        let mismatch = #expect(throws: StoreError.self) { try Store.open(at: store.path, model: other, options: .init()) }
        #expect(mismatch?.code == .modelMismatch)
        do {
            _ = try Store.open(at: store.path, model: other, options: .init())
        } catch let error as StoreError {
            #expect(error.code == .modelMismatch)
            #expect(error.message == """
                the store was saved with a different model (Core Data error 134100) and migration is off: \
                entity hashes differ for Checked; differences from the model in Z_MODELCACHE ["1"]:
                  attribute added: Checked.extra (String, optional)
                """)
        }
    }

    @Test func aFileThatIsNotAStoreIsRefused() throws {
        let path = try temporaryDirectory().appendingPathComponent("plain.sqlite").path
        let db = try DatabaseQueue(path: path)
        try db.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        #expect { try Store.open(at: path, model: model) } throws: { error in
            (error as? StoreError)?.code == .cannotOpen
        }
    }
}
