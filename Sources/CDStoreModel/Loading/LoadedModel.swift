import Foundation

/// The forms a model can be read from.
package enum ModelFormat: String, Sendable {
    /// An Xcode model (`.xcdatamodeld`, `.xcdatamodel` or its `contents` file).
    case xcode
    /// cdstore's JSON model.
    case json
    /// A compiled model (`.momd`, `.mom`).
    case compiled
    /// SwiftData `@Model` classes in Swift source files (a `.swift` file or a folder of them).
    case swiftSource
    /// The model cached inside a store.
    case storeCache
    /// A model read from a store's tables, for a store that carries none (no model was given either).
    case inferredFromTables
}

/// Where in its file each entity and property was declared, for error messages.
package struct ModelSourceMap: Sendable, Equatable {
    /// A line and column in the model file (1-based); `file` when the model has several (a folder of Swift sources).
    package struct Location: Sendable, Equatable {
        package var line: Int
        package var column: Int
        package var file: String?
        package init(line: Int, column: Int, file: String? = nil) {
            self.line = line
            self.column = column
            self.file = file
        }
    }
    /// Locations keyed by entity name.
    package var entities: [String: Location] = [:]
    /// Locations keyed by "Entity.property".
    package var properties: [String: Location] = [:]

    package init() {}

    /// The location of `entity`, or of its `property` when one is given and known.
    package func location(entity: String, property: String? = nil) -> Location? {
        if let property, let found = properties["\(entity).\(property)"] { return found }
        return entities[entity]
    }
}

/// A model together with where it came from: the result of ``ModelLoader/load(_:version:schema:swiftReader:)``.
package struct LoadedModel: Sendable {
    /// The model.
    package var model: ManagedObjectModel
    /// The file that was read (the `contents` file of an Xcode model version).
    package var file: URL
    /// The form it was read from.
    package var format: ModelFormat
    /// The version's name for a versioned bundle (e.g. "Model 2"), else nil.
    package var versionName: String?
    /// The names of all versions of the bundle it came from (just one for an unversioned model).
    package var availableVersions: [String]
    /// Things that were skipped or guessed while reading, one sentence each with the file and line.
    package var warnings: [String]
    /// Where each entity and property is declared.
    package var sourceMap: ModelSourceMap
    /// For a compiled model or a store's cached model: each entity's property names in the order of the
    /// archive's property dictionary (`NSProperties`; a model cache lists inherited properties too). Empty for
    /// XML and JSON models. Pass it to the store layout as `StoreLayout.Options(propertyOrder:)`.
    package var propertyOrder: [String: [String]] = [:]
    /// For SwiftData sources: the stages of the `SchemaMigrationPlan` that orders ``availableVersions`` (a
    /// migration between two of them goes through these stages, and is refused where one is custom).
    package var migrationStages: [SchemaMigrationStage] = []
    /// For SwiftData sources: the reader that read them, which reads their other versions too.
    package var swiftReader: (any SwiftSourceReading)?

    /// Creates a loaded model.
    package init(model: ManagedObjectModel, file: URL, format: ModelFormat, versionName: String? = nil,
                availableVersions: [String] = [], warnings: [String] = [], sourceMap: ModelSourceMap = .init()) {
        self.model = model
        self.file = file
        self.format = format
        self.versionName = versionName
        self.availableVersions = availableVersions
        self.warnings = warnings
        self.sourceMap = sourceMap
    }
}
