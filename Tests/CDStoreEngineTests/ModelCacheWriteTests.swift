import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine
@testable import CDStoreMigration

/// Whether `python3` runs here (the reference checkers need it).
let pythonIsAvailable: Bool = (try? ProcessRunner.run("python3", ["-c", "pass"]).status) == 0

/// `Z_MODELCACHE` in the stores cdstore creates, seeds and migrates (decision 0008), and the stores of earlier
/// cdstore versions that carry their model as JSON under `cdstore.model`.
@Suite("Model cache written", .serialized)
struct ModelCacheWriteTests {
    static let uuid = "5C1E2D3A-4B5C-4D6E-8F70-8192A3B4C5D6"

    static func newStore(_ loaded: LoadedModel, name: String = "New.sqlite") throws -> Store {
        let path = try temporaryDirectory().appendingPathComponent(name).path
        return try Store.open(at: path, loaded: loaded, options: .init(uuid: uuid))
    }

    static func cacheContent(_ path: String) throws -> Data? {
        try DatabaseQueue(path: path).read { db in try Store.modelCacheContent(db) }
    }

    static func plist(_ path: String) throws -> [String: Any] {
        let data = try DatabaseQueue(path: path).read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") }
        return try StoreMetadata.decode(uuid: "", plist: data).plist ?? [:]
    }

    /// Turns a store into one an earlier cdstore made: no `Z_MODELCACHE`, the JSON model under `cdstore.model`.
    static func makeJSONOnly(_ path: String, model: ManagedObjectModel) throws {
        try DatabaseQueue(path: path).write { db in
            var metadata = try StoreMetadata.decode(uuid: "", plist: try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            try metadata.keepJSONModel(model)
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try metadata.encodedPlist()])
            try db.execute(sql: "DROP TABLE Z_MODELCACHE")
        }
    }

    // MARK: New stores

    /// The table as every Apple-written store of the corpus has it — same DDL, created right after `Z_METADATA`
    /// — with one row: the model's archive, raw-DEFLATE compressed. The metadata no longer holds the model.
    @Test func aNewStoreCarriesTheModelCacheAsCoreDataWritesIt() throws {
        let loaded = try ModelLoader.load(Fixtures.model.path)
        let store = try Self.newStore(loaded)
        let apple = try Corpus.copyStore(Corpus.stores.appendingPathComponent("Karim-ezzedine__CartKit__CartStorage_v1/CartStorage_v1.sqlite"))
        let appleSQL = try DatabaseQueue(path: apple.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'Z_MODELCACHE'")
        }
        #expect(appleSQL == Store.modelCacheTableSQL)
        let tables = try StaffFixture.rows(store.path, "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
        #expect(Array(tables.prefix(3)) == [
            ["Z_PRIMARYKEY", "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"],
            ["Z_METADATA", "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"],
            ["Z_MODELCACHE", "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"],
        ])
        #expect(try StaffFixture.rows(store.path, "SELECT COUNT(*) FROM Z_MODELCACHE") == [["1"]])
        let content = try #require(try Self.cacheContent(store.path))
        #expect(try RawInflate.inflate(content) == (try ModelArchiver.archive(loaded.model, predicates: PredicateArchiver()).data))
        #expect(try Self.plist(store.path)[StoreMetadata.cachedModelKey] == nil)
        #expect(store.warnings == [])
    }

    @Test func aStoreReopenedWithoutAModelReadsItsCache() throws {
        let loaded = try StaffFixture.version("Staff 4")
        let store = try Self.newStore(loaded)
        let reopened = try Store.open(at: store.path, model: nil)
        #expect(reopened.modelSource == .coreDataCache && reopened.warnings == [])
        #expect(VersionHasher.entityHashes(of: reopened.model) == VersionHasher.entityHashes(of: loaded.model))
        #expect(reopened.layout.createStatements == store.layout.createStatements)
        #expect(try reopened.info().hasCoreDataModelCache && !(try reopened.info().hasCDStoreModel))
    }

    /// For every model: the layout Core Data gives the model decoded from the cache is the layout of the model
    /// itself — entity numbers, tables, columns, join tables and indexes.
    @Test func theCachedModelHasTheModelsFreshStoreLayout() throws {
        let models = try EveryModel.load()
        #expect(models.count == 277)
        for (name, loaded) in models {
            let cache = try ModelCacheEncoder.encode(loaded.model, predicates: PredicateArchiver())
            let decoded = try ModelCacheDecoder.decode(cache.data)
            let original = StoreLayout(model: loaded.model, options: .init(propertyOrder: loaded.propertyOrder))
            let fromCache = StoreLayout(model: decoded.model, options: .init(propertyOrder: decoded.propertyOrder))
            #expect(fromCache.entities == original.entities, "\(name)")
            #expect(fromCache.tables == original.tables, "\(name)")
            #expect(fromCache.indexes == original.indexes, "\(name)")
        }
    }

    /// `verify_store.py`, an independent reader, decodes the cache of stores cdstore made and finds every entity's
    /// version hash equal to the store's `NSStoreModelVersionHashes`.
    @Test(.enabled(if: pythonIsAvailable, "python3 is not installed: verify_store.py cannot run"),
          arguments: [
              "Tests/Fixtures/Fixture.xcdatamodeld",
              "Schemas/Staff.xcdatamodeld",
              "Schemas/Company.json",
              "../shared/corpus/models/SwiftGen__SwiftGen__Model.xcdatamodeld",
              "../shared/corpus/models/project-imas__encrypted-core-data__SubEntitiesModel.xcdatamodeld",
              "../shared/corpus/models/contentful__contentful-persistence.swift__Test.xcdatamodeld",
              "../shared/corpus/models/artsy__energy__ArtsyPartner.xcdatamodeld",
          ])
    func theReferenceCheckerAgreesWithTheCache(_ model: String) throws {
        let loaded = try ModelLoader.load(Corpus.packageRoot.appendingPathComponent(model).standardized.path)
        let store = try Self.newStore(loaded)
        try store.close()
        let result = try ProcessRunner.run("python3", [Corpus.tools.appendingPathComponent("verify_store.py").path, store.path])
        #expect(result.status == 0, "\(result.stderr)")
        let count = loaded.model.entities.count
        // The reference script hashes each entity with its inherited properties (the cache's copies included).
        #expect(result.stdout.split(separator: "\n").first == "inherited: \(store.path) ok \(count) bad 0 [] missing-in-model set()",
                "\(result.stdout)")
    }

    /// Two stores created with the same UUID are the same bytes (the cache is deterministic too).
    @Test func creatingTwiceGivesTheSameBytes() throws {
        let loaded = try ModelLoader.load(Corpus.models.appendingPathComponent("SwiftGen__SwiftGen__Model.xcdatamodeld").path)
        var bytes: [Data?] = []
        for _ in 0..<2 {
            let store = try Self.newStore(loaded)
            try store.prepareForBundling()
            try store.close()
            bytes.append(FileManager.default.contents(atPath: store.path))
        }
        #expect(bytes[0] != nil && bytes[0] == bytes[1])
    }

    /// `cdstore seed` writes the cache; two seeds, in two processes, are the same bytes.
    @Test func seededStoresCarryTheCache() throws {
        let folder = try temporaryDirectory()
        var bytes: [Data?] = []
        for name in ["a.sqlite", "b.sqlite"] {
            let out = folder.appendingPathComponent(name).path
            let result = try CLIRunner.run(["seed", "--model", Corpus.schemas.appendingPathComponent("Company.json").path,
                                            "--out", out, "--uuid", Self.uuid,
                                            Corpus.schemas.appendingPathComponent("demo/Company.json").path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try StaffFixture.rows(out, "SELECT COUNT(*) FROM Z_MODELCACHE") == [["1"]])
            bytes.append(FileManager.default.contents(atPath: out))
        }
        #expect(bytes[0] != nil && bytes[0] == bytes[1])
    }

    // MARK: Migration

    /// Migration replaces the cache with the destination model's, in the migration's transaction.
    @Test func migrationReplacesTheCache() throws {
        let path = try StaffFixture.makeVersion1Store()
        let destination = try StaffFixture.version("Staff 2")
        let before = try #require(try Self.cacheContent(path))
        let report = try Store.migrate(at: path, to: destination, options: .init(backup: false))
        #expect(report.warnings == [])
        let after = try #require(try Self.cacheContent(path))
        #expect(after != before)
        #expect(after == (try ModelCacheEncoder.encode(destination.model, predicates: PredicateArchiver()).data))
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*) FROM Z_MODELCACHE") == [["1"]])
    }

    @Test func aFailedMigrationLeavesTheCacheAsItWas() throws {
        let path = try StaffFixture.makeVersion1Store()
        let before = try Self.cacheContent(path)
        let error = #expect(throws: StoreError.self) {
            try Store.migrate(at: path, to: try StaffFixture.version("Staff 2"),
                              options: .init(backup: false, failAfterStatements: 3))
        }
        #expect(error?.code == .sqlite, "\(String(describing: error))")
        #expect(try Self.cacheContent(path) == before)
        #expect(try Store.open(at: path, model: nil).modelSource == .coreDataCache)
    }

    // MARK: Stores of earlier cdstore versions

    /// A store with only `cdstore.model` (made before 0008) opens without a model, and migrates: the migrated store
    /// carries the new model's cache and no longer the JSON.
    @Test func aStoreWithOnlyTheJSONModelOpensAndMigrates() throws {
        let path = try StaffFixture.makeVersion1Store()
        let version1 = try StaffFixture.version("Staff")
        try Self.makeJSONOnly(path, model: version1.model)
        let opened = try Store.open(at: path, model: nil, options: .init(readOnly: true))
        #expect(opened.modelSource == .cdstoreCache && opened.model == version1.model)

        // Through a model that is not in a bundle with the source version, so the store's own model must be used.
        let destination = LoadedModel(model: try StaffFixture.version("Staff 2").model,
                                      file: URL(fileURLWithPath: "/tmp/Staff2.json"), format: .json)
        let report = try Store.migrate(at: path, to: destination, options: .init(backup: false))
        #expect(report.steps.map(\.from) == ["the model cached in the store [\"1\"]"])
        #expect(try Self.plist(path)[StoreMetadata.cachedModelKey] == nil)
        let reopened = try Store.open(at: path, model: nil)
        #expect(reopened.modelSource == .coreDataCache)
        #expect(VersionHasher.entityHashes(of: reopened.model) == VersionHasher.entityHashes(of: destination.model))
        #expect(try reopened.verify().isEmpty)
    }

    /// Opening a JSON-only store with a newer model migrates it in place, as for any store.
    @Test func aStoreWithOnlyTheJSONModelMigratesOnOpen() throws {
        let path = try StaffFixture.makeVersion1Store()
        try Self.makeJSONOnly(path, model: try StaffFixture.version("Staff").model)
        let store = try Store.open(at: path, loaded: try StaffFixture.version("Staff 3"),
                                   options: .init(migrator: LightweightMigrator(), backup: false))
        #expect(store.warnings.count == 1)
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*) FROM Z_MODELCACHE") == [["1"]])
        #expect(try Self.plist(path)[StoreMetadata.cachedModelKey] == nil)
    }

    /// With both, the model matching the store's version hashes wins, the cache first: an app that saved the store
    /// rewrote the cache but kept the (now stale) JSON key.
    @Test func withBothTheModelMatchingTheStoreIsUsed() throws {
        let version1 = try StaffFixture.version("Staff")
        let version2 = try StaffFixture.version("Staff 2")

        let staleJSON = try StaffFixture.makeVersion1Store()
        try DatabaseQueue(path: staleJSON).write { db in
            var metadata = try StoreMetadata.decode(uuid: "", plist: try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            try metadata.keepJSONModel(version2.model)
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try metadata.encodedPlist()])
        }
        let fromCache = try Store.open(at: staleJSON, model: nil, options: .init(readOnly: true))
        #expect(fromCache.modelSource == .coreDataCache)
        #expect(VersionHasher.entityHashes(of: fromCache.model) == VersionHasher.entityHashes(of: version1.model))

        let staleCache = try StaffFixture.makeVersion1Store()
        try DatabaseQueue(path: staleCache).write { db in
            var metadata = try StoreMetadata.decode(uuid: "", plist: try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            try metadata.keepJSONModel(version1.model)
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try metadata.encodedPlist()])
            try db.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = ?",
                           arguments: [try ModelCacheEncoder.encode(version2.model, predicates: PredicateArchiver()).data])
        }
        let fromJSON = try Store.open(at: staleCache, model: nil, options: .init(readOnly: true))
        #expect(fromJSON.modelSource == .cdstoreCache && fromJSON.model == version1.model)
    }

    // MARK: Models the cache cannot hold

    /// A model with a predicate construct the archiver does not write is kept as JSON, as before, with a warning.
    @Test func aModelTheCacheCannotHoldIsKeptAsJSON() throws {
        var model = ManagedObjectModel(entities: [Entity(name: "Box", attributes: [Attribute(name: "weight", type: .integer64)])])
        var derived = Attribute(name: "bigItems", type: .integer64, isOptional: true)
        derived.derivationExpression = "SUBQUERY(items, $i, $i.weight > 1).@count"
        derived.isReadOnly = true
        model.entities[0].attributes.append(derived)
        let store = try Self.newStore(LoadedModel(model: model, file: URL(fileURLWithPath: "/tmp/Box.json"), format: .json))
        #expect(store.warnings.map(\.message) == [
            "the model cannot be written as Core Data's model cache (entity 'Box', property 'bigItems': the derivation "
                + "expression cannot be archived: 'SUBQUERY(items, $i, $i.weight > 1)' is not archived (only constants, SELF, "
                + "key paths, variables, aggregates and functions are)); it is kept in the metadata as cdstore's JSON model "
                + "instead",
        ])
        #expect(try StaffFixture.rows(store.path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'") == [["0"]])
        #expect(try Self.plist(store.path)[StoreMetadata.cachedModelKey] != nil)
        let reopened = try Store.open(at: store.path, model: nil)
        #expect(reopened.modelSource == .cdstoreCache && reopened.model == model)
    }
}
