import CDStoreModel
import Foundation
import GRDB

/// A Core Data SQLite store opened with a model: the entry point for reading and writing objects.
///
/// ```swift
/// let model = try ModelLoader.load("Schemas/Company.json")
/// let store = try Store.open(at: "Company.sqlite", model: model)
/// try store.insert([InputRecord(fields: [("name", .string("Acme"))])], into: "Company")
/// ```
///
/// Core Data equivalent: an `NSPersistentStoreCoordinator` with one `NSSQLiteStoreType` store.
///
/// ## Topics
/// - Opening: ``open(at:model:options:)``, ``Options``
/// - Reading: ``fetch(_:)``, ``count(_:)``
/// - Writing: ``insert(_:into:)``, ``delete(_:)``
public final class Store: @unchecked Sendable {
    /// How to open a store.
    public struct Options: Sendable {
        /// Open without writing anything (also chosen when the file is not writable).
        public var readOnly = false
        /// Create the store when the file does not exist (otherwise that is an error).
        public var createIfMissing = true
        /// The UUID of a newly created store (random when nil).
        public var uuid: String? = nil
        public init(readOnly: Bool = false, createIfMissing: Bool = true, uuid: String? = nil) {
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.uuid = uuid
        }
    }

    /// The store file.
    public let path: String
    /// The model the store is read and written with.
    public let model: ManagedObjectModel
    /// Tables, columns and entity numbers of the model.
    public let layout: StoreLayout
    /// The store's metadata as it was when opened.
    public private(set) var metadata: StoreMetadata
    /// Whether this call created the store file.
    public let wasCreated: Bool
    /// Whether the store was opened read-only.
    public let isReadOnly: Bool

    let database: DatabaseQueue
    let validation: AttributeValidation

    private init(path: String, model: ManagedObjectModel, metadata: StoreMetadata, database: DatabaseQueue,
                 wasCreated: Bool, isReadOnly: Bool) {
        self.path = path
        self.model = model
        self.layout = StoreLayout(model: model)
        self.metadata = metadata
        self.database = database
        self.wasCreated = wasCreated
        self.isReadOnly = isReadOnly
        self.validation = AttributeValidation(model: model)
    }

    /// Opens the store at `path`, creating it for `model` when the file does not exist.
    ///
    /// An existing store must have been saved with a model whose entity version hashes equal `model`'s
    /// (otherwise ``StoreError/Code/modelMismatch``, Core Data's error 134100). With no `model`, the model
    /// cdstore cached in the store is used (``StoreError/Code/noModel`` when there is none: 134130).
    public static func open(at path: String, model: ManagedObjectModel?, options: Options = .init()) throws -> Store {
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists {
            guard options.createIfMissing, !options.readOnly else {
                throw StoreError(.cannotOpen, "no store at \(path)")
            }
            guard let model else {
                throw StoreError(.noModel, "no store at \(path), and no model to create one with (give --model)")
            }
            return try create(at: path, model: model, uuid: options.uuid)
        }
        let readOnly = options.readOnly || !FileManager.default.isWritableFile(atPath: path)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration(readOnly: readOnly))
        } catch {
            throw StoreError(.cannotOpen, "cannot open \(path): \(error)")
        }
        let metadata = try readMetadata(database, path: path)
        let storeModel: ManagedObjectModel
        if let model {
            let differences = metadata.hashDifferences(from: model)
            guard differences.isEmpty else {
                throw StoreError(.modelMismatch, "the store was saved with a different model (Core Data error 134100); "
                                 + "entities that differ: \(differences.joined(separator: ", "))")
            }
            storeModel = model
        } else if let cached = metadata.cachedModel {
            storeModel = try JSONModelCodec.decode(cached, file: URL(fileURLWithPath: path)).model
        } else {
            throw StoreError(.noModel, "the store carries no model cdstore can read and none was given "
                             + "(Core Data error 134130); give --model")
        }
        return Store(path: path, model: storeModel, metadata: metadata, database: database, wasCreated: false,
                     isReadOnly: readOnly)
    }

    /// Creates a new, empty store laid out as Core Data lays out `model` (coredata-format.md §1.12).
    static func create(at path: String, model: ManagedObjectModel, uuid: String?) throws -> Store {
        let layout = StoreLayout(model: model)
        let metadata = try StoreMetadata.new(for: model, uuid: uuid ?? UUID().uuidString)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration(readOnly: false))
            try database.writeWithoutTransaction { db in
                // auto_vacuum only takes effect before the first table exists; WAL cannot change inside a transaction.
                try db.execute(sql: "PRAGMA auto_vacuum = 2")
                try db.execute(sql: "PRAGMA page_size = 4096")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.inTransaction {
                    try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
                    try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
                    for statement in layout.createStatements { try db.execute(sql: statement) }
                    for entity in layout.entities {
                        try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                       arguments: [entity.number, entity.name, entity.superNumber])
                    }
                    try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                   arguments: [metadata.uuid, try metadata.encodedPlist()])
                    return .commit
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "cannot create a store at \(path): \(error)")
        }
        return Store(path: path, model: model, metadata: metadata, database: database, wasCreated: true, isReadOnly: false)
    }

    private static func configuration(readOnly: Bool) -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.readonly = readOnly
        configuration.label = "cdstore"
        configuration.prepareDatabase { db in SQLFunctions.register(on: db) }
        return configuration
    }

    private static func readMetadata(_ database: DatabaseQueue, path: String) throws -> StoreMetadata {
        do {
            return try database.read { db in
                guard try db.tableExists("Z_METADATA"), try db.tableExists("Z_PRIMARYKEY") else {
                    throw StoreError(.cannotOpen, "\(path) is not a Core Data store (no Z_METADATA or Z_PRIMARYKEY table)")
                }
                guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1") else {
                    throw StoreError(.cannotOpen, "\(path) has an empty Z_METADATA table")
                }
                return try StoreMetadata.decode(uuid: row["Z_UUID"] ?? "", plist: row["Z_PLIST"])
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "cannot read \(path): \(error)")
        }
    }

    /// Runs `body` in one write transaction: everything it does is committed together or not at all.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError(.readOnly, "the store is open read-only") }
        do {
            return try database.write(body)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(.sqlite, error.description)
        }
    }

    /// Runs `body` with read access.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(.sqlite, error.description)
        }
    }
}
