import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine
@testable import CDStoreMigration

/// A store made from one `VersionedSchema` of SwiftData sources migrated to a later one, as SwiftData runs the
/// `SchemaMigrationPlan`: version by version through lightweight stages, refused where a custom stage would run
/// the app's own code.
@Suite struct SwiftDataMigrationTests {
    static func source(customStage: Bool) -> String {
        let last = customStage
            ? "MigrationStage.custom(fromVersion: V2.self, toVersion: V3.self, willMigrate: nil, didMigrate: nil)"
            : "MigrationStage.lightweight(fromVersion: V2.self, toVersion: V3.self)"
        return """
            enum V1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Person.self] }
                @Model final class Person { var name: String; var nickname: String?; init() {} }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Person.self] }
                @Model final class Person { var name: String; init() {} }
            }
            enum V3: VersionedSchema {
                static var versionIdentifier = Schema.Version(3, 0, 0)
                static var models: [any PersistentModel.Type] { [Person.self] }
                @Model final class Person { var name: String; var nickname: String?; var age: Int?; init() {} }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self] }
                static var stages: [MigrationStage] { [toV2, toV3] }
                static let toV2 = MigrationStage.lightweight(fromVersion: V1.self, toVersion: V2.self)
                static let toV3 = \(last)
            }
            """
    }

    /// The sources in a folder, and a store of version `V1` holding Ann (nickname "A").
    static func setUp(customStage: Bool) throws -> (sources: String, file: String, store: String) {
        let folder = try temporaryDirectory()
        let sources = folder.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let file = sources.appendingPathComponent("Models.swift")
        try Data(source(customStage: customStage).utf8).write(to: file)
        let store = folder.appendingPathComponent("App.store").path
        let v1 = try Store.open(at: store, loaded: try ModelLoader.load(sources.path, version: "V1", swiftReader: SwiftModelReader.reader))
        try v1.insert([InputRecord(fields: [("name", .string("Ann")), ("nickname", .string("A"))])], into: "Person")
        return (sources.path, file.path, store)
    }

    func nicknames(_ store: String, _ model: LoadedModel) throws -> [ObjectValue] {
        let opened = try Store.open(at: store, loaded: model, options: .init(readOnly: true, createIfMissing: false))
        return try opened.fetch(ObjectFetchRequest(entity: "Person")).map { $0.values.first { $0.0 == "nickname" }?.1 ?? .null }
    }

    /// Stage by stage, as SwiftData runs them: V2 drops `nickname`, so V3 gets it back empty (a direct V1 → V3
    /// mapping, which only adds `age`, would have kept "A").
    @Test func lightweightStagesRunOneAfterTheOther() throws {
        let (sources, _, store) = try Self.setUp(customStage: false)
        let latest = try ModelLoader.load(sources, swiftReader: SwiftModelReader.reader)
        let report = try Store.migrate(at: store, to: latest, options: .init(backup: false))
        #expect(report.steps.map { "\($0.from) → \($0.to)" } == ["\"V1\" → \"V2\"", "\"V2\" → \"V3\""])
        #expect(try nicknames(store, latest) == [.null])
    }

    @Test func aCustomStageOnTheWayIsRefusedByName() throws {
        let (sources, file, store) = try Self.setUp(customStage: true)
        // Up to V2 the plan is lightweight.
        let v2 = try ModelLoader.load(sources, version: "V2", swiftReader: SwiftModelReader.reader)
        #expect(try Store.migrate(at: store, to: v2, options: .init(backup: false)).steps.count == 1)
        let message = "the store was saved with \"V2\"; migrating it to \"V3\" goes through the custom stage 'toV3' "
            + "(\(file):20:23) from V2 to V3, which runs the app's own code: cdstore runs only lightweight stages "
            + "(as it runs no custom migration policy); let the app migrate the store, or make the stage lightweight"
        #expect {
            try Store.migrate(at: store, to: try ModelLoader.load(sources, swiftReader: SwiftModelReader.reader), options: .init(backup: false))
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .modelMismatch && error.message == message
        }
        // Refused before anything changed: the store still reads as V2.
        #expect(try nicknames(store, v2).isEmpty == false)
        let fresh = try Self.setUp(customStage: true)
        #expect {
            try Store.migrate(at: fresh.store, to: try ModelLoader.load(fresh.sources, swiftReader: SwiftModelReader.reader), options: .init(backup: false))
        } throws: { error in
            (error as? StoreError)?.code == .modelMismatch
        }
    }
}
