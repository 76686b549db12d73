import CDStore
import CDStoreSwiftData
import CDStoreTestSupport
import Foundation
import Testing

/// The library with a SwiftData model read from sources: a folder through `ModelFile(contentsOf:readers: .swiftData)`,
/// or `.swiftData(_:version:schema:)`, and composite values given and read as dictionaries. The reader is passed,
/// never installed: a plain `.path` to the same folder is ``CDStoreError/Code/swiftDataUnavailable``.
@Suite struct SwiftDataLibraryTests {

    static let source = """
        struct Address: Codable { var street: String; var city: String? }
        enum V1: VersionedSchema {
            static var versionIdentifier = Schema.Version(1, 0, 0)
            static var models: [any PersistentModel.Type] { [Person.self] }
            @Model final class Person { var name: String; init() {} }
        }
        enum V2: VersionedSchema {
            static var versionIdentifier = Schema.Version(2, 0, 0)
            static var models: [any PersistentModel.Type] { [Person.self] }
            @Model final class Person { var name: String; var home: Address?; init() {} }
        }
        """

    func folder() throws -> URL {
        let folder = try temporaryDirectory().appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.source.utf8).write(to: folder.appendingPathComponent("Models.swift"))
        return folder
    }

    @Test func aSourcesFolderIsAModel() throws {
        let models = try folder()
        let path = models.deletingLastPathComponent().appendingPathComponent("App.store").path
        // Without the reader passed, the folder is no model this program reads.
        let unavailable = #expect(throws: CDStoreError.self) { try CDStore(path: path, model: .path(models.path), options: [.create]) }
        #expect(unavailable?.code == .swiftDataUnavailable)
        #expect(!FileManager.default.fileExists(atPath: path))
        let file = try ModelFile(contentsOf: models.path, readers: .swiftData)
        #expect(file.format == .swiftData)
        let store = try CDStore(path: path, model: .file(file), options: [.create])
        let cities = try store.write { ctx in
            try ctx.insert("Person", ["name": "Ann", "home": ["street": "1 Rue de Rivoli", "city": "Paris"]])
            try ctx.insert("Person", ["name": "Bo", "home": nil])
            return try ctx.fetch("Person", matching: try Criteria("home.city == %@", "Paris")).map { person -> String? in
                let home: [String: String]? = person["home"]
                return home?["street"]
            }
        }
        #expect(cities == ["1 Rue de Rivoli"])
    }

    @Test func anOlderVersionIsChosenByIdentifier() throws {
        let models = try folder()
        let path = models.deletingLastPathComponent().appendingPathComponent("Old.store").path
        let store = try CDStore(path: path, model: try .swiftData(models.path, version: "1.0.0"), options: [.create])
        let noHome = #expect(throws: CDStoreError.self) {
            try store.write { ctx in try ctx.insert("Person", ["name": "Ann", "home": ["street": "x"]]) }
        }
        #expect(noHome?.code == .unknownName)   // version 1.0.0 has no `home`
        let version = #expect(throws: CDStoreError.self) { try CDStore.Model.swiftData(models.path, version: "9.9.9") }
        #expect(version?.code == .invalidModel)
    }

    /// `schema` names a `VersionedSchema` as well as a literal's declaration; an unknown one lists what there is.
    @Test func aSchemaIsChosenByName() throws {
        let models = try folder()
        let path = models.deletingLastPathComponent().appendingPathComponent("V1.store").path
        let store = try CDStore(path: path, model: try .swiftData(models.path, schema: "V1"), options: [.create])
        #expect {
            try store.write { ctx in try ctx.insert("Person", ["name": "Ann", "home": ["street": "x"]]) }
        } throws: { error in
            (error as? CDStoreError)?.property == "home"
        }
        #expect {
            try CDStore.Model.swiftData(models.path, schema: "V9")
        } throws: { error in
            guard let error = error as? CDStoreError else { return false }
            return error.code == .invalidModel && error.message == "no Schema or ModelContainer literal is in a "
                + "declaration named 'V9' and no VersionedSchema is named so; the sources have 'V1' (VersionedSchema "
                + "1.0.0), 'V2' (VersionedSchema 2.0.0)"
        }
    }
}
