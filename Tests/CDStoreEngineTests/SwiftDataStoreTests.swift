import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Stores created from SwiftData `@Model` sources have what the stores SwiftData wrote from the same sources
/// have: tables, columns, indexes (persistent history included) and the model-describing metadata.
@Suite struct SwiftDataStoreTests {
    static let swiftData = Corpus.root.appendingPathComponent("swiftdata")

    func schema(_ path: String) throws -> [String] {
        let db = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try db.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY sql")
        }
    }

    func metadata(_ path: String) throws -> [String: Any] {
        let db = try DatabaseQueue(path: path)
        let data = try db.read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") } ?? Data()
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }

    func check(sources: String, version: String?, realStore: String) throws {
        let loaded = try ModelLoader.load(Self.swiftData.appendingPathComponent(sources).path, version: version, swiftReader: SwiftModelReader.reader)
        let path = try temporaryDirectory().appendingPathComponent("New.sqlite").path
        _ = try Store.open(at: path, loaded: loaded)
        let real = try Corpus.copyStore(Self.swiftData.appendingPathComponent(realStore))
        #expect(try schema(path) == schema(real.path))
        let ours = try metadata(path), theirs = try metadata(real.path)
        for key in ["NSStoreModelVersionHashes", "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest",
                    "NSStoreModelVersionChecksumKey", "NSStoreModelVersionHashesVersion"] {
            #expect((ours[key] as? NSObject) == (theirs[key] as? NSObject), "\(key)")
        }
    }

    @Test func cartKitStoreLayout() throws {
        try check(sources: "Karim-ezzedine__CartKit__CartKitSwiftData_v1/Models", version: nil,
                  realStore: "Karim-ezzedine__CartKit__CartKitSwiftData_v1/LegacySwiftData/CartKitSwiftData_v1.sqlite")
    }

    @Test func freezeRayStoreLayouts() throws {
        for version in ["1.0.0", "2.0.0"] {
            let file = version.replacingOccurrences(of: ".", with: "_")
            try check(sources: "TrinsicVentures__FreezeRay__FreezeRayTestApp", version: version,
                      realStore: "TrinsicVentures__FreezeRay__FreezeRayTestApp/FreezeRay/Fixtures/\(version)/App-\(file).sqlite")
        }
    }

    /// A composite's elements are columns of the entity's table, named from the element alone; a name already
    /// taken by the entity's own attribute gets a numeric suffix.
    @Test func compositeElementsAreFlattenedIntoColumns() throws {
        let source = """
            struct Address: Codable { var street: String; var city: String?; var id: Int }
            enum Folder: Codable { case systemAll, user }
            @Model class Person { var id: Int; var home: Address?; var folder: Folder? }
            """
        let loaded = try SwiftModelReader.read([("M.swift", source)], origin: URL(fileURLWithPath: "M.swift"))
        let layout = StoreLayout(model: loaded.model)
        let person = try #require(layout.entity(named: "Person"))
        #expect(person.attributeColumns == ["id": "ZID", "home.id": "ZID1", "home.city": "ZCITY",
                                            "home.street": "ZSTREET", "folder.systemAll": "ZSYSTEMALL",
                                            "folder.user": "ZUSER"])
        #expect(layout.table(named: "ZPERSON")?.createSQL == "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, "
                + "Z_ENT INTEGER, Z_OPT INTEGER, ZID INTEGER, ZID1 INTEGER, ZCITY VARCHAR, ZSTREET VARCHAR, "
                + "ZSYSTEMALL VARCHAR, ZUSER VARCHAR )")
    }
}
