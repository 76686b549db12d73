import SwiftData

enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self] }
    @Model final class Note {
        var text: String = ""
        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self, Tag.self] }
    @Model final class Note {
        #Unique<Note>([\.text, \.created])
        #Index<Note>([\.created], [\.text, \.created])
        var text: String = ""
        var created: Date?
        @Attribute(origin!lName: "labels") var tags: [Tag]? = []
        init() {}
    }
    @Model final class Tag {
        var nam[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[e: String = ""
        var notes: [Note]? = []
        init() {}
    }
}

enum Plan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [v1to2] }
    static let v1to2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)
}
