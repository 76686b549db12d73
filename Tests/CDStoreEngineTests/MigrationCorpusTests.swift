import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine
@testable import CDStoreMigration

/// Real multi-version models of the corpus: fill an old version with generated objects, migrate to a later
/// version, verify the store and compare object counts entity by entity.
@Suite("Migration: corpus models")
struct MigrationCorpusTests {
    struct Case: CustomStringConvertible, Sendable {
        var bundle: String
        var from: String
        var to: String
        var description: String { "\(bundle): \(from) → \(to)" }
    }

    static let cases: [Case] = [
        Case(bundle: "bignerdranch__CoreDataStack__Sample", from: "TestModel", to: "TestModel 2"),
        Case(bundle: "mwkirk__MWKCoreData__MWKCoreDataTests", from: "MWKCoreDataTests", to: "MWKCoreDataTests2"),
        Case(bundle: "JohanDegraeve__xdripswift__xdrip", from: "xdrip v12", to: "xdrip v13"),
        Case(bundle: "JohanDegraeve__xdripswift__xdrip", from: "xdrip v12", to: "xdrip v16"),
        Case(bundle: "LoopKit__LoopKit__Model", from: "Model", to: "Modelv4"),
        Case(bundle: "artsy__energy__ArtsyPartner", from: "ArtsyPartner", to: "ArtsyPartner 2"),
        Case(bundle: "artsy__energy__ArtsyPartner", from: "ArtsyFolio v2.5", to: "ArtsyFolio v2.7.0"),
    ]

    /// A value for an attribute of `type`, distinct per `index`.
    static func value(_ attribute: Attribute, _ index: Int) -> InputValue? {
        switch attribute.type {
        case .integer16, .integer32, .integer64: .integer(Int64(index))
        case .double, .float, .decimal: .double(Double(index) + 0.5)
        case .string: .string("\(attribute.name)-\(index)")
        case .boolean: .bool(index % 2 == 0)
        case .date: .string("2024-05-0\(index)")
        case .binary: .string(Data([UInt8(index), 1, 2]).base64EncodedString())
        case .uuid: .string(UUID().uuidString)
        case .uri: .string("https://example.com/\(index)")
        default: nil
        }
    }

    /// Inserts three objects into every concrete entity that accepts objects without relationships; returns the
    /// object count per entity.
    static func fill(_ store: Store) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for entity in store.model.entities where !entity.isAbstract {
            let records = (1...3).map { index in
                InputRecord(fields: store.model.attributes(of: entity).filter { !$0.isTransient && !$0.isDerived }
                    .compactMap { attribute in value(attribute, index).map { (attribute.name, $0) } }, entityName: entity.name)
            }
            if (try? store.insert(records, into: entity.name)) != nil { counts[entity.name] = 3 }
        }
        return counts
    }

    @Test(arguments: cases)
    func migratesWithGeneratedData(_ testCase: Case) throws {
        let bundle = Corpus.models.appendingPathComponent(testCase.bundle + ".xcdatamodeld").path
        let source = try ModelLoader.load(bundle, version: testCase.from)
        let destination = try ModelLoader.load(bundle, version: testCase.to)
        let path = try temporaryDirectory().appendingPathComponent("Corpus.sqlite").path
        let counts = try Self.fill(try Store.open(at: path, loaded: source))
        #expect(!counts.isEmpty, "no entity accepted generated objects")
        let report = try Store.migrate(at: path, to: destination, options: .init(backup: false))
        #expect(!report.steps.isEmpty)
        let store = try Store.open(at: path, loaded: destination)
        #expect(store.warnings.isEmpty)
        #expect(try store.verify().isEmpty)
        // Every object of an entity that still exists (by name or renaming identifier) survived.
        let matcher = ModelMatcher(source: source.model, destination: destination.model)
        var checked = 0
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) {
            guard let old = source.model.entity(named: name),
                  let new = report.steps.count == 1 ? matcher.destinationEntity(for: old) : destination.model.entity(named: name) else { continue }
            let migrated = try store.count(ObjectFetchRequest(entity: new.name, includesSubentities: false))
            #expect(migrated == count, "\(name) → \(new.name)")
            checked += 1
        }
        #expect(checked > 0)
        // The tables and indexes are those of a new store of the destination version.
        let fresh = try temporaryDirectory().appendingPathComponent("Fresh.sqlite").path
        _ = try Store.open(at: fresh, loaded: destination)
        let schema = { (p: String) in
            try StaffFixture.rows(p, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'Z_PRIMARYKEY' ORDER BY type, name")
        }
        #expect(try schema(path) == schema(fresh))
    }

    /// MWKCoreDataTests3 splits Employee.name into non-optional firstName/lastName without defaults: the app needs
    /// a mapping model; inferred migration of a store with employees is refused and changes nothing.
    @Test func mwkVersion3IsRefusedWithTheReason() throws {
        let bundle = Corpus.models.appendingPathComponent("mwkirk__MWKCoreData__MWKCoreDataTests.xcdatamodeld").path
        let path = try temporaryDirectory().appendingPathComponent("MWK.sqlite").path
        let counts = try Self.fill(try Store.open(at: path, loaded: try ModelLoader.load(bundle, version: "MWKCoreDataTests")))
        #expect(counts["Employee"] == 3)
        let before = try StaffFixture.settledBytes(path)
        let error = #expect(throws: StoreError.self) {
            try Store.migrate(at: path, to: try ModelLoader.load(bundle, version: "MWKCoreDataTests3"))
        }
        #expect(error?.code == .modelMismatch)
        #expect(error?.description == #"cannot migrate the store from "MWKCoreDataTests2" to "MWKCoreDataTests3" (Core Data error "#
                + "134190): entity 'Employee', attribute 'firstName' becomes non-optional without a default value and 3 rows are "
                + "NULL; entity 'Employee', attribute 'lastName' becomes non-optional without a default value and 3 rows are NULL; "
                + "the store is unchanged")
        #expect(StaffFixture.bytes(path) == before)
        #expect(try StaffFixture.backups(path).isEmpty)
    }

    /// Stores Core Data wrote with an old version, migrated to a later one: every row of every entity that is
    /// still there survives, the UUID is kept, the store verifies.
    @Test(arguments: [
        ("artsy__energy__oss_stubbed_data/oss_stubbed_data.sqlite", "artsy__energy__ArtsyPartner", "ArtsyFolio v2.7.0"),
        ("artsy__energy__Migrations/ArtsyPartner_1.4.sqlite", "artsy__energy__ArtsyPartner", "ArtsyFolio v1.5"),
        ("mwkirk__MWKCoreData__Stores/MWKCoreDataTests.sqlite", "mwkirk__MWKCoreData__MWKCoreDataTests", "MWKCoreDataTests2"),
        ("bignerdranch__CoreDataStack__TestModel/TestModel.sqlite", "bignerdranch__CoreDataStack__Sample", "TestModel 2"),
    ])
    func realStoreMigrates(_ store: String, _ bundle: String, _ version: String) throws {
        let path = try Corpus.copyStore(Corpus.stores.appendingPathComponent(store)).path
        let destination = try ModelLoader.load(Corpus.models.appendingPathComponent(bundle + ".xcdatamodeld").path, version: version)
        let before = try Store.open(at: path, loaded: destination, options: .init(readOnly: true, migrator: LightweightMigrator()))
        // One warning, naming the version the store was saved with (an earlier one than `version`).
        #expect(before.warnings.count == 1)
        #expect(before.warnings.allSatisfy {
            $0.code == .readWithOlderVersion
                && $0.message.wholeMatch(of: /the store was saved with "[^"]+", not with the model given; read with that version, without migrating/) != nil
        }, "\(before.warnings)")
        var counts: [String: Int] = [:]
        for entity in before.model.entities where !entity.isAbstract {
            counts[entity.name] = try before.count(ObjectFetchRequest(entity: entity.name, includesSubentities: false))
        }
        let uuid = before.metadata.uuid
        try Store.migrate(at: path, to: destination, options: .init(backup: false))
        let after = try Store.open(at: path, loaded: destination)
        #expect(after.metadata.uuid == uuid)
        #expect(try after.verify().isEmpty)
        for (name, count) in counts where destination.model.entity(named: name).map({ !$0.isAbstract }) ?? false {
            #expect(try after.count(ObjectFetchRequest(entity: name, includesSubentities: false)) == count, "\(name)")
        }
        // The migrated store caches the destination model, as Core Data's migration leaves it.
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*) FROM Z_MODELCACHE") == [["1"]])
        let cached = try #require(try DatabaseQueue(path: path).read { db in
            try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
        })
        #expect(VersionHasher.entityHashes(of: try ModelCacheDecoder.decode(cached).model)
                == VersionHasher.entityHashes(of: destination.model))
    }
}
