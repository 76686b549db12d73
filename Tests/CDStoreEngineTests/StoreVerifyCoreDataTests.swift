import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine
@testable import CDStoreMigration

/// `verify` follows Core Data: the stores Core Data wrote verify with the model that wrote them, a renamed
/// entity's old name in `Z_PRIMARYKEY` is not a problem, and missing external-data files are.
@Suite("Verifying as Core Data reads")
struct StoreVerifyCoreDataTests {
    struct Pair: Sendable, CustomStringConvertible {
        var store: String
        var modelVersion: String?
        var description: String { store }
    }

    /// The manifest's stores; throws (failing the test that takes them) when the corpus is missing.
    static func pairs() throws -> [Pair] {
        try Corpus.manifestItems(kind: "store").compactMap { item in
            (item["path"] as? String).map { Pair(store: $0, modelVersion: item["matches_model_version"] as? String) }
        }
    }

    /// What the corpus stores hold that is not Core Data's doing: rows another tool added to Artsy's 1.3 and 2.0
    /// fixtures without raising Z_MAX (a problem: Core Data's next Artwork insert would fail), and in 1.3 an
    /// Artwork whose artist (Z_PK 1) the store does not have.
    static let knownFindings: [String: [String]] = [
        "ArtsyPartner_1.3.sqlite": [
            "maxPrimaryKey: Artwork: Z_MAX is 0 but a row has Z_PK 1: Core Data's next insert into ZARTWORK would take a key in use (a repair raises Z_MAX to it)",
            "danglingReference: Artwork.artist: 1 objects point at missing Artist objects",
        ],
        "ArtsyPartner_2.0.sqlite": [
            "maxPrimaryKey: Artwork: Z_MAX is 0 but a row has Z_PK 1: Core Data's next insert into ZARTWORK would take a key in use (a repair raises Z_MAX to it)",
        ],
    ]

    /// Every corpus store with the model version that wrote it (NOTE.md, manifest), or its own model cache.
    @Test(arguments: try pairs())
    func everyCorpusStoreVerifiesWithItsModel(pair: Pair) throws {
        let copy = try Corpus.copyStore(Corpus.root.appendingPathComponent(pair.store)).path
        let loaded = try pair.modelVersion.map { version -> LoadedModel in
            let url = Corpus.root.appendingPathComponent(version)
            return try ModelLoader.load(url.deletingLastPathComponent().path, version: url.deletingPathExtension().lastPathComponent)
        }
        let store = try Store.open(at: copy, loaded: loaded, options: .init(readOnly: true))
        let name = URL(fileURLWithPath: pair.store).lastPathComponent
        #expect(try store.verify().map(\.description) == Self.knownFindings[name] ?? [], "\(name)")
    }

    /// A store written with the Organization model whose `Tag` became `Label`, and whose `Z_PRIMARYKEY` still says
    /// `Tag` as Core Data leaves it; `renaming` decides whether `Label` names its old name.
    func renamedStore(renaming: Bool) throws -> (path: String, model: LoadedModel) {
        let original = try ModelLoader.load(Corpus.schemas.appendingPathComponent("Organization.xcdatamodeld").path)
        var model = original.model
        let index = try #require(model.entities.firstIndex { $0.name == "Tag" })
        model.entities[index].name = "Label"
        model.entities[index].renamingIdentifier = renaming ? "Tag" : nil
        for e in model.entities.indices {
            for r in model.entities[e].relationships.indices where model.entities[e].relationships[r].destination == "Tag" {
                model.entities[e].relationships[r].destination = "Label"
            }
        }
        let renamed = LoadedModel(model: model, file: original.file, format: .json)
        let path = try temporaryDirectory().appendingPathComponent("Renamed.sqlite").path
        // With a renaming identifier, the store is written with the old model and migrated; without, it is
        // written with the new one (the rename happened before).
        let store = try Store.open(at: path, loaded: renaming ? original : renamed)
        let json = #"{"name": "Acme", "tags": [{"label": "a"}, {"label": "b"}]}"#
        guard case .object(let fields) = try JSONReader.parse(json) else { throw StoreError(.invalidInput, "fixture") }
        try store.insert([InputRecord(fields: fields)], into: "Organization")
        try store.close()
        if renaming { _ = try Store.migrate(at: path, to: renamed, options: .init(backup: false)) }
        try DatabaseQueue(path: path).write { try $0.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Tag' WHERE Z_NAME = 'Label'") }
        return (path, renamed)
    }

    @Test(arguments: [true, false])
    func aRenamedEntitysOldNameIsNotAProblem(renaming: Bool) throws {
        let (path, model) = try renamedStore(renaming: renaming)
        let store = try Store.open(at: path, loaded: model, options: .init(readOnly: true))
        #expect(try store.verify() == [])
        #expect(try store.count(ObjectFetchRequest(entity: "Label")) == 2)
        #expect(store.layout.entity(named: "Label")?.number
                == (try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") }))
    }

    /// A name in `Z_PRIMARYKEY` that is neither the entity's nor an old name the store's metadata accounts for is
    /// still reported.
    @Test func anUnexplainedNameIsStillReported() throws {
        let (path, model) = try renamedStore(renaming: false)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Address' WHERE Z_NAME = 'Tag'")
        }
        let problems = try Store.open(at: path, loaded: model, options: .init(readOnly: true)).verify()
        #expect(problems.map(\.description).contains("primaryKeys: Label: Z_PRIMARYKEY row 3 is named 'Address'"), "\(problems)")
    }

    @Test func extraMetadataKeysAreNotAProblem() throws {
        let (path, model) = try renamedStore(renaming: false)
        try DatabaseQueue(path: path).write { db in
            var metadata = try StoreMetadata.decode(uuid: "", plist: try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            metadata.plist?["migrationManagerClass"] = "ARMigrationManager"
            metadata.plist?["NSPersistenceMaximumFrameworkVersion"] = 1523
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try metadata.encodedPlist()])
        }
        #expect(try Store.open(at: path, loaded: model, options: .init(readOnly: true)).verify() == [])
    }

    /// One problem per external-data file a row names and the support folder lacks, naming entity, attribute
    /// and object; a file that is there, and values kept in the row, are fine.
    @Test func missingExternalDataFilesAreReported() throws {
        var thumbnail = Attribute(name: "thumbnail", type: .binary, isOptional: true)
        thumbnail.allowsExternalBinaryDataStorage = true
        let model = ManagedObjectModel(entities: [Entity(name: "Photo", attributes: [thumbnail])])
        let folder = try temporaryDirectory()
        let path = folder.appendingPathComponent("Photos.sqlite").path
        let store = try Store.open(at: path, model: model)
        let external = folder.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: external.appendingPathComponent("PRESENT"))
        func reference(_ name: String) -> Data { Data([0x02]) + Data(name.utf8) + Data([0x00]) }
        try DatabaseQueue(path: path).write { db in
            for (pk, value) in [(1, reference("PRESENT")), (2, reference("GONE-1")), (3, Data([0x01, 9, 9])), (4, reference("GONE-2"))] {
                try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZTHUMBNAIL) VALUES (?, 1, 1, ?)", arguments: [pk, value])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 4")
        }
        let uuid = store.metadata.uuid
        #expect(try store.verify().map(\.description) == [2, 4].map { pk in
            "externalData: Photo.thumbnail: object x-coredata://\(uuid)/Photo/p\(pk): external data file 'GONE-\(pk / 2)' "
                + "is missing from \(external.path) (Core Data error 134185)"
        })
    }
}
