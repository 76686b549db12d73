import CDStoreIO
import CDStorePredicate
import CDStoreJSON
import CDStoreModel
import CDStoreEngine
import Foundation

extension CDStore {
    /// What opening a store may do besides opening it. The default, `[]`, opens an existing store for reading and
    /// writing and changes nothing else: it neither creates nor migrates.
    ///
    /// ```swift
    /// try CDStore(path: path, model: "App.xcdatamodeld", options: [.create, .migrate])
    /// ```
    public struct Options: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Open without writing anything: no write, no migration, no creation. Also what a file that cannot be
        /// written gets.
        ///
        /// Core Data equivalent: `NSReadOnlyPersistentStoreOption`.
        public static let readOnly = Options(rawValue: 1 << 0)
        /// Create the store, laid out for the model, when the file does not exist.
        public static let create = Options(rawValue: 1 << 1)
        /// Migrate a store saved with another version of the model to this one (lightweight migration with an
        /// inferred mapping), backing it up first unless ``Configuration/backupBeforeMigrating`` is false.
        ///
        /// Core Data equivalent: `NSMigratePersistentStoresAutomaticallyOption` with
        /// `NSInferMappingModelAutomaticallyOption`.
        public static let migrate = Options(rawValue: 1 << 2)
        /// Read without changing a byte of the store, its `-wal` or its `-shm` (SQLite's `immutable=1`), for
        /// evidence copies and read-only media. Implies ``readOnly``; one connection, no reader pool.
        public static let immutable = Options(rawValue: 1 << 3)
    }

    /// The model to open a store with: a file, a model already loaded, or (passing nil) the store's own.
    ///
    /// A string literal is a path: `CDStore(path: p, model: "Schemas/Company.json")`.
    public enum Model: Sendable, ExpressibleByStringLiteral {
        /// A model file or bundle (`.xcdatamodeld`, `.xcdatamodel`, `.momd`, `.mom` or cdstore's `.json`);
        /// `version` picks a version of an `.xcdatamodeld` or `.momd` other than its current one. SwiftData sources
        /// need their reader: `.file(ModelFile(contentsOf:readers: .swiftData))`, or `swiftData(_:version:schema:)`
        /// in `CDStoreSwiftData`.
        case path(String, version: String? = nil)
        /// A model built in code.
        case model(ManagedObjectModel)
        /// A model read already, with what its file says (its format and version): a store created with it is
        /// laid out as that kind of model needs (a SwiftData model's history tables, say).
        case file(ModelFile)

        /// A path, from a string literal.
        public init(stringLiteral path: String) {
            self = .path(path)
        }

        func load() throws -> LoadedModel {
            switch self {
            case .path(let path, let version): try ModelLoader.load(path, version: version)
            case .model(let model): LoadedModel(model: model, file: URL(fileURLWithPath: "model.json"), format: .json)
            case .file(let file): file.loaded
            }
        }
    }

    /// Settings of an open store that are not about what opening may do.
    public struct Configuration: Sendable {
        /// How long a connection waits for another one (another process, or this store's writer) that holds the
        /// store's lock before failing with ``CDStoreError/Code/busy``, in seconds; 0 fails at once.
        public var busyTimeout: TimeInterval = 5
        /// The most read-only connections a WAL store opens for reads running at the same time; 0 reads on the
        /// writer's connection, one at a time. Connections are opened as needed and kept.
        public var maximumReaderCount = 4
        /// The UUID of a store ``Options/create`` makes (random when nil).
        public var uuid: String?
        /// Copy the store to `STORE.backup-<timestamp>` before ``Options/migrate`` changes it.
        public var backupBeforeMigrating = true
        /// Whether a Binary value whose external-data file is missing reads as nil rather than failing (Core
        /// Data's error 134185).
        public var readsMissingExternalDataAsNull = true

        /// The defaults: a 5 s busy timeout, 4 readers, a backup before migrating.
        public init(busyTimeout: TimeInterval = 5, maximumReaderCount: Int = 4,
                    uuid: String? = nil, backupBeforeMigrating: Bool = true, readsMissingExternalDataAsNull: Bool = true) {
            self.busyTimeout = busyTimeout
            self.maximumReaderCount = maximumReaderCount
            self.uuid = uuid
            self.backupBeforeMigrating = backupBeforeMigrating
            self.readsMissingExternalDataAsNull = readsMissingExternalDataAsNull
        }
    }
}
