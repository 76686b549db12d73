import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import Testing

/// Which schema of SwiftData sources makes the model (`schema`: a literal's declaration or a `VersionedSchema`),
/// the migration plan's stages as the model carries them, and enums SwiftData cannot store.
@Suite struct SwiftSchemaChoiceTests {
    static let versioned = """
        enum V1: VersionedSchema {
            static var versionIdentifier = Schema.Version(1, 0, 0)
            static var models: [any PersistentModel.Type] { [Person.self] }
            @Model final class Person { var name: String; init() {} }
        }
        enum V2: VersionedSchema {
            static var versionIdentifier = Schema.Version(2, 0, 0)
            static var models: [any PersistentModel.Type] { [Person.self] }
            @Model final class Person { var name: String; var age: Int?; init() {} }
        }
        enum V3: VersionedSchema {
            static var versionIdentifier = Schema.Version(3, 0, 0)
            static var models: [any PersistentModel.Type] { [Person.self] }
            @Model final class Person { var name: String; var age: Int?; var nickname: String?; init() {} }
        }
        enum Plan: SchemaMigrationPlan {
            static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
            static var stages: [MigrationStage] {
                [.lightweight(fromVersion: V1.self, toVersion: V2.self), fillNicknames]
            }
            static let fillNicknames = MigrationStage.custom(fromVersion: V2.self, toVersion: V3.self,
                                                             willMigrate: nil, didMigrate: { _ in })
        }
        """

    static let literals = """
        @Model final class Note { var text: String; init() {} }
        @Model final class Tag { var name: String; init() {} }
        let mainContainer = try ModelContainer(for: Note.self, Tag.self)
        func widgetSchema() -> Schema { Schema([Tag.self]) }
        """

    func read(_ text: String, version: String? = nil, schema: String? = nil) throws -> LoadedModel {
        try SwiftModelReader.read([("Model.swift", text)], origin: URL(fileURLWithPath: "Model.swift"),
                                  version: version, schema: schema)
    }

    @Test func aSchemaIsALiteralsDeclarationOrAVersionedSchema() throws {
        #expect(try read(Self.literals, schema: "widgetSchema").model.entities.map(\.name) == ["Tag"])
        #expect(try read(Self.literals, schema: "mainContainer").model.entities.map(\.name) == ["Note", "Tag"])
        let v2 = try read(Self.versioned, schema: "V2")
        #expect(v2.versionName == "V2" && v2.model.versionIdentifiers == ["2.0.0"])
        #expect(v2.model.entity(named: "Person")?.attributes.map(\.name) == ["name", "age"])
        // The same version named twice is fine; two different ones are not.
        #expect(try read(Self.versioned, version: "2.0.0", schema: "V2").versionName == "V2")
        #expect {
            try read(Self.versioned, version: "1.0.0", schema: "V2")
        } throws: { error in
            (error as? ModelError)?.description
                == "the schema 'V2' is version '2.0.0', not '1.0.0': give the schema or the version, not both"
        }
    }

    @Test func anUnknownSchemaListsTheNamesFound() {
        let cases: [(String, String)] = [
            (Self.literals, "no Schema or ModelContainer literal is in a declaration named 'other' and no "
             + "VersionedSchema is named so; the sources have 'mainContainer' (a ModelContainer literal), "
             + "'widgetSchema' (a Schema literal)"),
            (Self.versioned, "no Schema or ModelContainer literal is in a declaration named 'other' and no "
             + "VersionedSchema is named so; the sources have 'V1' (VersionedSchema 1.0.0), 'V2' (VersionedSchema "
             + "2.0.0), 'V3' (VersionedSchema 3.0.0)"),
            ("@Model class A { var x: Int }", "no Schema or ModelContainer literal is in a declaration named "
             + "'other' and no VersionedSchema is named so; the sources have neither (every @Model class makes the "
             + "model)"),
        ]
        for (source, message) in cases {
            #expect {
                try read(source, schema: "other")
            } throws: { error in
                guard let error = error as? ModelError else { return false }
                return error.code == .unknownVersion && error.description == message
            }
        }
    }

    @Test func onlySwiftSourcesHaveSchemas() throws {
        let model = Fixtures.model.path
        #expect {
            try ModelLoader.load(model, schema: "Main", swiftReader: SwiftModelReader.reader)
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .unknownVersion && error.message
                == "schema 'Main': only SwiftData sources (.swift files) have schemas to choose from"
        }
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("Model.swift")
        try Data(Self.literals.utf8).write(to: file)
        #expect(try ModelLoader.load(folder.path, schema: "widgetSchema", swiftReader: SwiftModelReader.reader).model.entities.map(\.name) == ["Tag"])
        #expect(try ModelLoader.loadVersions(file.path, schema: "widgetSchema", swiftReader: SwiftModelReader.reader).current.model.entities.count == 1)
    }

    @Test func theMigrationPlansStagesComeWithTheModel() throws {
        let loaded = try read(Self.versioned)
        #expect(loaded.availableVersions == ["V1", "V2", "V3"])
        #expect(loaded.migrationStages == [
            SchemaMigrationStage(from: "V1", to: "V2", isLightweight: true, name: nil, location: "Model.swift:19:10"),
            SchemaMigrationStage(from: "V2", to: "V3", isLightweight: false, name: "fillNicknames",
                                 location: "Model.swift:21:32"),
        ])
        #expect(loaded.migrationStages[1].described == "the custom stage 'fillNicknames' (Model.swift:21:32)")
    }

    /// SwiftData keeps an enum in a composite's columns (its raw value, or one per case): an associated value has
    /// no column. Inside a collection, archived whole, such an enum is a Codable value like any other.
    @Test func enumsWithAssociatedValuesAreRefusedAsAttributes() throws {
        let source = """
            enum Shape: Codable { case circle(radius: Double), square(side: Double) }
            @Model class Drawing { var shape: Shape }
            """
        #expect {
            try read(source)
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .unsupportedSwiftType && error.description
                == "Model.swift:2:28: entity 'Drawing', property 'shape': 'shape' has type 'Shape', which cdstore "
                + "cannot map to columns: its case 'circle' has associated values, which SwiftData flattens into the "
                + "record in a layout no real store has shown cdstore; store it encoded as Data, or as a Codable struct"
        }
        let archived = try read("""
            enum Shape: Codable { case circle(radius: Double), square(side: Double) }
            @Model class Drawing { var shapes: [Shape] = [] }
            """)
        #expect(archived.model.entity(named: "Drawing")?.attribute(named: "shapes")?.type == .transformable)
    }
}
