import CDStoreModel
import CDStoreEngine
import Foundation

/// A managed object model as read from a file, or from the model cached inside a store, with what the reading
/// found out: the form it was in, its version within a bundle, and what was skipped or guessed.
///
/// ```swift
/// let file = try ModelFile(contentsOf: "App.xcdatamodeld", version: "App 3")
/// for problem in file.problems() { print(problem) }
/// let store = try CDStore(path: "Seed.sqlite", model: .file(file), options: [.create])
/// ```
///
/// SwiftData `@Model` sources need the Swift source reader, which lives in `CDStoreSwiftData` so that programs
/// that never read Swift do not link its parser: pass `readers: .swiftData` from there.
///
/// Core Data equivalent: `NSManagedObjectModel(contentsOf:)`, plus what Xcode knows of the model file.
public struct ModelFile: Sendable {
    package let loaded: LoadedModel

    /// The model.
    public var model: ManagedObjectModel { loaded.model }
    /// The file that was read: the `contents` file of an Xcode model version, the `.mom`, the JSON file, the
    /// folder of Swift sources, or the store whose cached model this is.
    public var path: String { loaded.file.path }
    /// The form the model was read from.
    public var format: Format { Format(loaded.format) }
    /// The version's name in its bundle (`"App 3"`); nil for a model without versions.
    public var versionName: String? { loaded.versionName }
    /// What was skipped or guessed while reading, each with its file and line.
    public var warnings: [CDStoreWarning] { loaded.warnings.map { CDStoreWarning(.modelFileSkipped, $0, input: .model) } }

    /// The forms a model is read from.
    public enum Format: String, Sendable {
        /// An Xcode model: `.xcdatamodeld`, `.xcdatamodel` or its `contents` file.
        case xcode
        /// cdstore's JSON model (`Schemas/README.md`).
        case json
        /// A compiled model: `.momd` or `.mom`.
        case compiled
        /// SwiftData `@Model` sources: a `.swift` file or a folder of them.
        case swiftData
        /// The model a store carries: cdstore's, or Core Data's `Z_MODELCACHE`.
        case storeCache
        /// A model inferred from the tables of a store that carries none: enough to read, not to write.
        case inferredFromTables

        init(_ format: ModelFormat) {
            switch format {
            case .xcode: self = .xcode
            case .json: self = .json
            case .compiled: self = .compiled
            case .swiftSource: self = .swiftData
            case .storeCache: self = .storeCache
            case .inferredFromTables: self = .inferredFromTables
            }
        }
    }

    /// The optional model readers a program has. ``standard`` reads every form but SwiftData sources;
    /// `CDStoreSwiftData` adds `.swiftData`.
    public struct Readers: Sendable {
        package var swiftSources: (any SwiftSourceReading)?

        /// Readers of the given Swift source reader (`CDStoreSwiftData` makes one).
        package init(swiftSources: (any SwiftSourceReading)?) {
            self.swiftSources = swiftSources
        }

        /// Xcode, compiled, JSON and store-cached models; SwiftData sources are refused with
        /// ``CDStoreError/Code/swiftDataUnavailable``.
        public static let standard = Readers(swiftSources: nil)

        /// Whether these readers read SwiftData sources.
        public var readsSwiftData: Bool { swiftSources != nil }
    }

    package init(_ loaded: LoadedModel) {
        self.loaded = loaded
    }

    /// Reads the model at `path`: an `.xcdatamodeld` (its current version, or `version`), an `.xcdatamodel` or
    /// its `contents` file, a `.momd` or `.mom`, cdstore's JSON model, or SwiftData sources (with
    /// `readers: .swiftData`, where `version` picks a `VersionedSchema` and `schema` one of several schemas).
    ///
    /// - Throws: ``CDStoreError`` ``CDStoreError/Code/invalidModel`` with the file, line and column of what does not
    ///   read; ``CDStoreError/Code/cannotOpen`` when nothing is at `path`; ``CDStoreError/Code/swiftDataUnavailable``
    ///   for Swift sources without their reader.
    public init(contentsOf path: String, version: String? = nil, schema: String? = nil,
                readers: Readers = .standard) throws {
        loaded = try CDStoreError.wrapping {
            try ModelLoader.load(path, version: version, schema: schema, swiftReader: readers.swiftSources)
        }
    }

    /// The model the store at `path` carries (cdstore's, or Core Data's `Z_MODELCACHE`), or one inferred from its
    /// tables when it carries none. The store is only read; `immutable` reads it without changing a byte of it,
    /// its `-wal` or `-shm`.
    public init(cachedInStoreAt path: String, busyTimeout: TimeInterval = 5, immutable: Bool = false) throws {
        loaded = try CDStoreError.wrapping {
            try Store.cachedModel(at: path, busyTimeout: busyTimeout, immutable: immutable)
        }
    }

    /// Every version of the model at `path`, oldest first as a person sorts their names: each `.xcdatamodel` of an
    /// `.xcdatamodeld`, each `.mom` of a `.momd`, each `VersionedSchema` of SwiftData sources; any other model is
    /// its own only version. `current` names the version ``isCurrentVersion`` marks instead of the bundle's own.
    public static func versions(at path: String, current: String? = nil, schema: String? = nil,
                                readers: Readers = .standard) throws -> [ModelFile] {
        let versions = try CDStoreError.wrapping {
            try ModelLoader.loadVersions(path, current: current, schema: schema, swiftReader: readers.swiftSources)
        }
        return versions.versions.enumerated().map { index, loaded in
            var file = ModelFile(loaded)
            file.isCurrent = index == versions.currentIndex
            return file
        }
    }

    private var isCurrent = true

    /// Whether this is the version a bundle names current (the one ``init(contentsOf:version:schema:readers:)``
    /// reads by default); true for a model without versions.
    public var isCurrentVersion: Bool { isCurrent }
}
