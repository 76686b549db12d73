import CDStoreJSON
import CDStoreModel
import Foundation
package import GRDB

/// A Core Data SQLite store opened with a model: the entry point for reading and writing objects.
///
/// ```swift
/// let model = try ModelLoader.load("Schemas/Company.json")
/// let store = try Store.open(at: "Company.sqlite", loaded: model)
/// try store.insert([InputRecord(fields: [("name", .string("Acme"))])], into: "Company")
/// ```
///
/// The store layer under the `CDStore` library (`import CDStore`), which most code should use: it adds
/// transactions across calls, typed objects, `Codable` records and one error type.
///
/// Core Data equivalent: an `NSPersistentStoreCoordinator` with one `NSSQLiteStoreType` store.
///
/// ## Topics
/// - Opening: ``open(at:loaded:options:)``, ``open(at:model:options:)``, ``Options``
/// - Reading: ``fetch(_:)``, ``count(_:)``, ``info()``, ``verify()``
/// - Writing: ``insert(_:into:options:)``, ``delete(_:dryRun:)``, ``importGraph(_:)``, ``setRelationship(_:of:to:)``
/// - Transactions across calls: ``inReadTransaction(_:)``, ``inWriteTransaction(_:)``, ``makeCursor(_:)``,
///   ``makeReadOnlyConnection()``
/// - Stopping a running command: ``interrupt()``
/// - Persistent history: ``hasPersistentHistory``, ``forEachHistoryTransaction(_:_:)``, ``forEachHistoryChange(_:_:)``
///   (writes into a store with history add to it: docs/decisions/0009-persistent-history-writes.md)
package final class Store: Sendable {
    /// How to open a store.
    package struct Options: Sendable {
        /// Open without writing anything (also chosen when the file is not writable).
        package var readOnly = false
        /// Create the store when the file does not exist (otherwise that is an error).
        package var createIfMissing = true
        /// The UUID of a newly created store (random when nil).
        package var uuid: String? = nil
        /// What migrates a store saved with another version of the model (`CDStoreMigration`'s lightweight
        /// migration with an inferred or found mapping); when nil, such a store is refused (134100) with the list
        /// of differences. Read-only opens never migrate: with a migrator, they read the store with the version
        /// of the given bundle it was saved with.
        package var migrator: (any StoreMigrating)?
        /// Back up the store before migrating it.
        package var backup = true
        /// How long to wait for another connection (another process) that holds the store's lock, in seconds,
        /// before failing with ``StoreError/Code/busy``; 0 fails at once.
        package var busyTimeout: TimeInterval = Store.defaultBusyTimeout
        /// Read without changing a byte of the store, its `-wal` or its `-shm` (SQLite's `immutable=1`; a store
        /// whose `-wal` holds data is read from a private copy so that the data is seen). For evidence copies and
        /// read-only media. Implies ``readOnly``; never creates or migrates.
        package var immutable = false
        /// Whether a Binary value whose external-data file is missing reads as NULL (see
        /// ``Store/readsMissingExternalDataAsNull``).
        package var readsMissingExternalDataAsNull = true
        package init(readOnly: Bool = false, createIfMissing: Bool = true, uuid: String? = nil, migrator: (any StoreMigrating)? = nil,
                    backup: Bool = true, busyTimeout: TimeInterval = Store.defaultBusyTimeout, immutable: Bool = false,
                    readsMissingExternalDataAsNull: Bool = true) {
            self.immutable = immutable
            self.readsMissingExternalDataAsNull = readsMissingExternalDataAsNull
            self.readOnly = readOnly
            self.createIfMissing = createIfMissing
            self.uuid = uuid
            self.migrator = migrator
            self.backup = backup
            self.busyTimeout = busyTimeout
        }
    }

    /// Where a store's model came from.
    package enum ModelSource: String, Sendable {
        /// The caller gave it (`--model`).
        case given
        /// The JSON model cdstore keeps in the metadata of stores it made.
        case cdstoreCache
        /// The model Core Data caches in the store (`Z_MODELCACHE`).
        case coreDataCache
        /// Read back from the store's tables (``TableModelInference``) because the store carries no model and none
        /// was given: enough to read, not to write.
        case inferredFromTables
    }

    /// The store file.
    package let path: String
    /// The model the store is read and written with.
    package let model: ManagedObjectModel
    /// Tables, columns and entity numbers of the model in this store.
    package let layout: StoreLayout
    /// The store's metadata as it was when opened.
    package let metadata: StoreMetadata
    /// Whether this call created the store file.
    package let wasCreated: Bool
    /// Whether the store was opened read-only.
    package let isReadOnly: Bool
    /// Where the model came from.
    package let modelSource: ModelSource
    /// Things worth knowing that did not stop the store from opening (a stale model cache, a NULL metadata plist).
    package let warnings: [StoreWarning]

    /// Values read since the store was opened (or since ``MissingExternalData/reset()``) whose external-data file
    /// is missing; nil for an in-memory store, which has no `_EXTERNAL_DATA` folder.
    package let missingExternalData: MissingExternalData?
    /// Whether a Binary value whose external-data file is missing reads as NULL (counted in
    /// ``missingExternalData``) rather than failing with Core Data's error 134185. True by default: a store copied
    /// without its support folder still reads; `--strict` sets it to false.
    package let readsMissingExternalDataAsNull: Bool

    let database: DatabaseQueue
    let validation: AttributeValidation
    /// The model's derived attributes, computed at the end of each write where Core Data's triggers do not.
    let derivedValues: DerivedValues?
    /// The private copy an immutable open reads from, removed with the store (see ``Options/immutable``).
    let privateCopy: PrivateStoreCopy?
    /// Whether the store was opened with ``Options/immutable``.
    let isImmutable: Bool
    /// How long this store waits for another process's lock, in seconds.
    let busyTimeout: TimeInterval
    /// The journal mode switches of a store this process created (``beginFirstWriteJournal(_:)``).
    let journal: JournalState

    init(path: String, model: ManagedObjectModel, layout: StoreLayout, metadata: StoreMetadata, database: DatabaseQueue,
         wasCreated: Bool, isReadOnly: Bool, modelSource: ModelSource, warnings: [StoreWarning] = [],
         busyTimeout: TimeInterval, readsMissingExternalDataAsNull: Bool = true, isImmutable: Bool = false,
         privateCopy: PrivateStoreCopy? = nil) {
        self.path = path
        self.model = model
        self.layout = layout
        self.metadata = metadata
        self.database = database
        self.wasCreated = wasCreated
        self.isReadOnly = isReadOnly
        self.modelSource = modelSource
        self.warnings = warnings
        self.busyTimeout = busyTimeout
        self.readsMissingExternalDataAsNull = readsMissingExternalDataAsNull
        self.isImmutable = isImmutable
        self.privateCopy = privateCopy
        self.validation = AttributeValidation(model: model)
        self.derivedValues = DerivedValues(model: model, layout: layout)
        let missingExternalData = path.isEmpty || path == ":memory:" ? nil
            : MissingExternalData(directory: ExternalDataLocation(storeFile: URL(fileURLWithPath: path)).directory)
        self.missingExternalData = missingExternalData
        journal = JournalState(firstWritePending: wasCreated && !isReadOnly && missingExternalData != nil
                                   && BulkLoadSettings.journalsFirstWrite)
    }

    /// Where Core Data keeps Binary values stored outside the database for this store; it counts missing files
    /// into ``missingExternalData`` unless ``readsMissingExternalDataAsNull`` is false.
    package var externalDataLocation: ExternalDataLocation? {
        guard let missingExternalData else { return nil }
        var location = ExternalDataLocation(externalDataDirectory: missingExternalData.directory)
        if readsMissingExternalDataAsNull { location.missingFiles = missingExternalData }
        return location
    }

    /// Writers wait this long (seconds) for each other by default, as scripts run side by side expect.
    package static let defaultBusyTimeout: TimeInterval = 5

    package static func configuration(readOnly: Bool, busyTimeout: TimeInterval = Store.defaultBusyTimeout) -> GRDB.Configuration {
        var configuration = GRDB.Configuration()
        configuration.readonly = readOnly
        // SQLite's busy handler retries while another connection holds a lock: readers of a rollback-journal store
        // while a write commits, writers behind another writer.
        configuration.busyMode = busyTimeout > 0 ? .timeout(busyTimeout) : .immediateError
        configuration.label = "cdstore"
        configuration.prepareDatabase { db in SQLFunctions.register(on: db) }
        return configuration
    }

    /// Runs `body` in one write transaction: everything it does is committed together or not at all.
    ///
    /// The transaction begins IMMEDIATE: it takes the write lock first (waiting up to the busy timeout for
    /// another writer), so two writers never both read and then deadlock trying to upgrade, and every key handed
    /// out from `Z_MAX` inside it is this writer's alone. Inside ``inWriteTransaction(_:)`` it joins that
    /// transaction as a savepoint instead, so that a failed call undoes its own changes and nothing else.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard modelSource != .inferredFromTables else {
            throw StoreError(.modelInferred, "the store carries no model, and the one inferred from its tables is "
                             + "enough to read it but not to write: give the model the store was saved with").about(.model)
        }
        guard !isReadOnly else { throw StoreError(.readOnly, "the store is open read-only") }
        if let joined = try joinedTransaction(writing: true) {
            return try translatingErrors(writing: true) {
                var result: T?
                try joined.inSavepoint {
                    result = try body(joined)
                    return .commit
                }
                return result!
            }
        }
        return try translatingErrors(writing: true) {
            try database.writeWithoutTransaction { db in
                settlePendingJournal(db)
                let journaled = beginFirstWriteJournal(db)
                defer { if journaled { settleJournal(db) } }
                var result: T?
                try db.inTransaction(.immediate) {
                    // Stores with persistent history get it kept (a no-op lookup for the others).
                    let history = try HistoryRecorder.begin(self, db: db)
                    try derivedValues?.begin(db)
                    result = try body(db)
                    try derivedValues?.refresh(db)
                    try history?.finish(db)
                    return .commit
                }
                return result!
            }
        }
    }

    /// Runs `body` with read access (inside ``inReadTransaction(_:)`` or ``inWriteTransaction(_:)``, in that
    /// transaction).
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let joined = try joinedTransaction(writing: false) {
            return try translatingErrors(writing: false) { try body(joined) }
        }
        return try translatingErrors(writing: false) { try database.read(body) }
    }

    /// Runs `body`, turning SQLite's errors into ``StoreError``s.
    func translatingErrors<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw busyError(writing: writing)
        } catch let error as DatabaseError where writing && error.resultCode == .SQLITE_FULL {
            // SQLite rolls the transaction back; the store is as it was.
            throw StoreError(.diskFull, "the disk is full (SQLite error 13); nothing was written")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            throw StoreError(.interrupted, writing ? "interrupted; nothing was written" : "interrupted")
        } catch let error as DatabaseError {
            throw StoreError.sqlite(error)
        }
    }
}
