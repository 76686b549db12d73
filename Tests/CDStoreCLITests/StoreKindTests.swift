import CDStoreTestSupport
import Foundation
import Testing

/// `info` names what a store is: Core Data or SwiftData, CloudKit mirroring, persistent history; such stores open,
/// list, export and verify like any other.
@Suite("Store kinds")
struct StoreKindTests {
    static let swiftData = "stores/Karim-ezzedine__CartKit__CartKitSwiftData_v1/CartKitSwiftData_v1.sqlite"

    static func kind(_ store: String) throws -> [String: Any] {
        let info = try CLIRunner.run(["info", "--store", store, "--format", "json"])
        #expect(info.status == 0, "\(info.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        return json?["kind"] as? [String: Any] ?? [:]
    }

    static func kindLine(_ store: String) throws -> String? {
        try CLIRunner.run(["info", "--store", store]).stdout.split(separator: "\n").first { $0.hasPrefix("kind ") }
            .map { String($0) }
    }

    /// Only the SwiftData store of the corpus reads as SwiftData (its cached model names no classes and has a
    /// `default` configuration); only it records history.
    @Test(arguments: try Corpus.manifestItems(kind: "store").compactMap { $0["path"] as? String })
    func corpusStoresAreCoreDataOrSwiftData(path: String) throws {
        let store = try Corpus.copyStore(Corpus.root.appendingPathComponent(path)).path
        let isSwiftData = path == Self.swiftData
        let kind = try Self.kind(store)
        #expect(kind["framework"] as? String == (isSwiftData ? "SwiftData" : "Core Data"), "\(path)")
        #expect(kind["persistentHistory"] as? Bool == isSwiftData && kind["cloudKitMirroring"] as? Bool == false, "\(path)")
    }

    @Test func theSwiftDataStoreOpensListsExportsAndVerifies() throws {
        let store = try Corpus.copyStore(Corpus.root.appendingPathComponent(Self.swiftData)).path
        #expect(try Self.kindLine(store) == "kind              SwiftData, persistent history on")
        let info = try CLIRunner.run(["info", "--store", store])
        #expect(info.stdout.split(separator: "\n").suffix(3) == [
            "16001  CHANGE (persistent history): 1 rows", "16002  TRANSACTION (persistent history): 1 rows",
            "16003  TRANSACTIONSTRING (persistent history): 2 rows",
        ])
        let export = try CLIRunner.run(["export", "CartModel", "--format", "ndjson", "--store", store])
        #expect(export.status == 0 && export.stdout.split(separator: "\n").count == 1, "\(export.stderr)")
        let verify = try CLIRunner.run(["verify", "--store", store])
        #expect(verify.status == 0 && verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
    }

    /// A store cdstore creates from `@Model` sources is a SwiftData store, as SwiftData's own are: its cached
    /// model has the `default` configuration SwiftData puts every entity in.
    @Test func aStoreMadeFromSwiftDataSourcesReadsAsSwiftData() throws {
        let folder = try temporaryDirectory()
        try Data("@Model final class Item { var name: String = \"\"; init() {} }\n".utf8)
            .write(to: folder.appendingPathComponent("Item.swift"))
        let store = folder.appendingPathComponent("Items.sqlite").path
        let created = try CLIRunner.run(["count", "Item", "--store", store, "--model", folder.path])
        #expect(created.status == 0 && created.stdout == "0\n", "\(created.stderr)")
        #expect(try Self.kindLine(store) == "kind              SwiftData, persistent history on")
    }

    /// A Core Data store that NSPersistentCloudKitContainer mirrors: history entities 16001–16003, its own
    /// `NSCK…` entities from 16004 and their `ANSCK…` tables.
    static func cloudKitStore(withoutModel: Bool) throws -> String {
        let store = try Corpus.copyStore(Corpus.stores.appendingPathComponent(
            "contentful__contentful-persistence.swift__Test/Test.sqlite")).path
        _ = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            entities = ['CHANGE', 'TRANSACTION', 'TRANSACTIONSTRING', 'NSCKRecordMetadata', 'NSCKMirroredRelationship',
                        'NSCKExportOperation', 'NSCKRecordZoneMetadata']
            for number, name in enumerate(entities, start=16001):
                db.execute('insert into Z_PRIMARYKEY values (?, ?, 0, 1)', (number, name))
                db.execute('create table A%s (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)' % name.upper())
                db.execute('insert into A%s values (1, ?, 1, NULL)' % name.upper(), (number,))
            db.execute("insert into ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME) values (1, 2, 1, 'Ann')")
            db.execute('update Z_PRIMARYKEY set Z_MAX = 1 where Z_ENT = 2')
            if sys.argv[2] == '1':
                db.execute('delete from Z_MODELCACHE')
            db.commit()
            """, [store, withoutModel ? "1" : "0"])
        return store
    }

    @Test(arguments: [false, true])
    func aCloudKitMirroredStoreOpensListsExportsAndVerifies(withoutModel: Bool) throws {
        let store = try Self.cloudKitStore(withoutModel: withoutModel)
        #expect(try Self.kindLine(store) == "kind              Core Data + CloudKit mirroring, persistent history on")
        let info = try CLIRunner.run(["info", "--store", store])
        #expect(info.stdout.split(separator: "\n").suffix(7) == [
            "16001  CHANGE (persistent history): 1 rows", "16002  TRANSACTION (persistent history): 1 rows",
            "16003  TRANSACTIONSTRING (persistent history): 1 rows", "16004  NSCKRecordMetadata (CloudKit mirroring): 1 rows",
            "16005  NSCKMirroredRelationship (CloudKit mirroring): 1 rows", "16006  NSCKExportOperation (CloudKit mirroring): 1 rows",
            "16007  NSCKRecordZoneMetadata (CloudKit mirroring): 1 rows",
        ])
        let export = try CLIRunner.run(["export", "--format", "ndjson", "--store", store])
        let lines = export.stdout.split(separator: "\n")
        #expect(export.status == 0 && lines.count == 1 && lines.first?.contains("Ann") == true, "\(export.stderr)")
        let verify = try CLIRunner.run(["verify", "--store", store])
        #expect(verify.status == 0 && verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
    }
}
