import CDStoreTestSupport
import Foundation
import Testing

/// SwiftData `@Model` sources as the model of every command, and composite attributes in records: inserted as
/// nested objects, fetched as one, compared and sorted by element (`home.city`), flattened in CSV.
@Suite struct SwiftDataCLITests {
    static let source = """
        import SwiftData

        struct Address: Codable {
            var street: String
            var city: String?
        }

        @Model final class Person {
            @Attribute(.unique) var name: String
            var home: Address?
            var pets: [Pet] = []
            init(name: String) { self.name = name }
        }

        @Model final class Pet {
            var name: String
            var owner: Person?
            init(name: String) { self.name = name }
        }
        """

    static func sandbox() throws -> Sandbox {
        let folder = try temporaryDirectory().appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: folder.appendingPathComponent("Person.swift"))
        return try Sandbox(model: folder.path)
    }

    static let people = """
        {"name":"Ann","home":{"street":"1 Rue de Rivoli","city":"Paris"}}
        {"name":"Bo","home":{"street":"2 Main St","city":"Austin"}}
        {"name":"Cy","home":null}
        {"name":"Di","home.street":"3 Quay","home.city":"Cork"}
        """

    @Test func compositesInsertFetchFilterSortAndFlatten() throws {
        let box = try Self.sandbox()
        try box.ok(["insert", "Person", "--nl"], stdin: Self.people)
        let fetched = try box.ok(["fetch", "Person", "--where", "home.city != nil", "--sort", "home.city",
                                  "--format", "ndjson"])
        #expect(fetched == """
            {"_id":"x-coredata://<store-uuid>/Person/p2","name":"Bo","home":{"street":"2 Main St","city":"Austin"},"pets":[]}
            {"_id":"x-coredata://<store-uuid>/Person/p4","name":"Di","home":{"street":"3 Quay","city":"Cork"},"pets":[]}
            {"_id":"x-coredata://<store-uuid>/Person/p1","name":"Ann","home":{"street":"1 Rue de Rivoli","city":"Paris"},"pets":[]}

            """)
        let csv = """
            _id,name,home.street,home.city,pets
            x-coredata://<store-uuid>/Person/p1,Ann,1 Rue de Rivoli,Paris,[]
            x-coredata://<store-uuid>/Person/p2,Bo,2 Main St,Austin,[]
            x-coredata://<store-uuid>/Person/p3,Cy,,,[]
            x-coredata://<store-uuid>/Person/p4,Di,3 Quay,Cork,[]

            """
        #expect(try box.ok(["export", "Person", "--format", "csv"]) == csv)
        // The streamed export and the general printer give the same bytes.
        let general = try CLIRunner.run(["export", "Person", "--format", "csv", "--store", box.store, "--model", box.model],
                                        environment: ["CDSTORE_NO_STREAMING": "1"])
        #expect(Sandbox.anonymized(general.stdout) == csv)
        #expect(try box.ok(["project", "Person", "--properties", "home.city,name", "--format", "csv"])
                == "home.city,name\nParis,Ann\nAustin,Bo\n,Cy\nCork,Di\n")
        try box.ok(["update", "Person", "--where", "name == 'Cy'", "--set", "home.city=Oslo"])
        #expect(try box.ok(["fetch", "Person", "--where", "name == 'Cy'", "--format", "ndjson"]) == """
            {"_id":"x-coredata://<store-uuid>/Person/p3","name":"Cy","home":{"street":null,"city":"Oslo"},"pets":[]}

            """)
        let whole = try box.run(["fetch", "Person", "--where", "home == nil"])
        #expect(whole.status == 1)
        #expect(whole.stderr == "error: entity 'Person': --where: 'home' is a composite attribute, stored as its "
                + "elements: use one of them (home.street, home.city)\n")
        let unknown = try box.run(["insert", "Person", "--json", #"{"name":"Ed","home":{"town":"Rome"}}"#])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("composite attribute 'home' has no element 'town'"))
    }

    /// A VersionedSchema per version: a composite added and one removed migrate as Core Data's lightweight
    /// migration does (new element columns NULL, old ones dropped).
    @Test func compositesAddedAndRemovedMigrate() throws {
        let folder = try temporaryDirectory()
        let model = Data("""
            struct Address: Codable { var street: String; var city: String? }
            enum V1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Person.self] }
                @Model final class Person { var name: String; var home: Address?; init() {} }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Person.self] }
                @Model final class Person { var name: String; var work: Address?; init() {} }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
            }
            """.utf8)
        let path = folder.appendingPathComponent("Models.swift")
        try model.write(to: path)
        let store = folder.appendingPathComponent("s.sqlite").path
        let insert = try CLIRunner.run(["insert", "Person", "--store", store, "--model", path.path, "--model-version",
                                        "1.0.0", "--json", #"{"name":"Ann","home":{"street":"1 Main","city":"Paris"}}"#])
        #expect(insert.status == 0, "\(insert.stderr)")
        let migrate = try CLIRunner.run(["migrate", "--store", store, "--model", path.path, "--no-backup"])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.contains("attribute added: Person.work (Composite, optional)"))
        #expect(migrate.stdout.contains("attribute removed: Person.home"))
        let fetched = try CLIRunner.run(["fetch", "Person", "--store", store, "--model", path.path, "--format", "ndjson"])
        #expect(Sandbox.anonymized(fetched.stdout)
                == #"{"_id":"x-coredata://<store-uuid>/Person/p1","name":"Ann","work":null}"# + "\n")
    }

    @Test func modelCommandsReadTheSources() throws {
        let box = try Self.sandbox()
        let hashes = try CLIRunner.run(["model", "hashes", box.model])
        #expect(hashes.status == 0 && hashes.stderr == "")
        #expect(hashes.stdout.split(separator: "\n").map { $0.split(separator: " ").first ?? "" } == ["Person", "Pet"])
    }

    @Test func aSourceThatDoesNotParseIsABadModel() throws {
        let folder = try temporaryDirectory()
        try Data("@Model class A {\n    var x: Int =\n}\n".utf8).write(to: folder.appendingPathComponent("A.swift"))
        let result = try CLIRunner.run(["model", "hashes", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("A.swift:2:17: expected an expression in a property declaration"))
    }
}
