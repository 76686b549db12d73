// One import gives the whole library: models, predicates, and the store layer underneath.
import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import CDStoreEngine
import CDStoreMigration
import CDStoreIO
import Foundation

/// A Core Data SQLite store, opened for reading and writing from Swift: the library's entry point.
///
/// ```swift
/// import CDStore
///
/// let store = try CDStore(path: "Company.sqlite", model: "Schemas/Company.json", options: [.create])
/// let deptID = try store.write { ctx in try ctx.insert("Department", ["name": "R&D"]) }
/// try store.write { ctx in
///     try ctx.insert("Employee", ["employeeNumber": 1, "firstName": "Ann", "lastName": "Moreau", "age": 34,
///                                 "department": deptID])
/// }
/// let names = try store.read { ctx in
///     try ctx.fetch("Employee", matching: Criteria.greaterThanOrEqual("age", 30).sorted(by: ["lastName"]))
///         .map { $0.get("firstName", as: String.self) }
/// }
/// ```
///
/// Every ``read(_:)`` and ``write(_:)`` is one transaction: a read sees one snapshot of the store; a write is
/// committed when its closure returns and rolled back when it throws.
///
/// **Threads.** A `CDStore` may be shared by any number of threads and tasks. Writes take turns on one
/// connection. Reads of a WAL store (Core Data's default journal) run at the same time on a pool of read-only
/// connections (up to ``Configuration/maximumReaderCount``) and never wait for a write; reads of a
/// rollback-journal store take turns with writes on the one connection. Do not start a `write` on one thread
/// from inside a `read` or `write` running on another thread that waits for it: that deadlocks, as it would
/// with any serial queue. Inside a closure, use only its context (`ctx`): contexts and cursors do not leave
/// their transaction.
///
/// Core Data equivalent: an `NSPersistentContainer` with one SQLite store, where each `read`/`write` is a
/// `performAndWait` on a context.
///
/// ## Topics
///
/// ### Opening
/// - ``init(path:model:options:configuration:)``
/// - ``Options``
/// - ``Model``
/// - ``Configuration``
///
/// ### Transactions
/// - ``read(_:)``
/// - ``write(_:)``
/// - ``Context``
///
/// ### About the store
/// - ``model``
/// - ``path``
/// - ``storeUUID``
/// - ``wasCreated``
/// - ``warnings``
public final class CDStore: Sendable {
    /// The store file.
    public let path: String
    /// The model objects are read and written with.
    public var model: ManagedObjectModel { writer.model }
    /// The store's UUID (`Z_METADATA.Z_UUID`), the authority of its object IDs.
    public var storeUUID: String { writer.metadata.uuid }
    /// Whether opening created the store file (``Options/create``).
    public var wasCreated: Bool { writer.wasCreated }
    /// Whether the store is open read-only.
    public var isReadOnly: Bool { writer.isReadOnly }
    /// Things worth knowing that did not stop the store from opening or reading: a migration done, an older model
    /// version read with, a stale model cache, a model inferred from the tables, and Binary values whose
    /// external-data files were missing and read as nil (``Configuration/readsMissingExternalDataAsNull``).
    public var warnings: [CDStoreWarning] {
        writer.warnings.map(CDStoreWarning.init)
            + (writer.missingExternalData?.warning.map { [CDStoreWarning(.missingExternalData, $0)] } ?? [])
    }
    /// Whether reads run on a pool of connections of their own (true for a WAL store opened from a file).
    package var usesReaderPool: Bool { readers != nil }

    /// The store layer's connection that writes (and, without a reader pool, reads).
    package let store: Store
    private var writer: Store { store }
    let readers: ReaderPool?

    /// Opens the store at `path`.
    ///
    /// With ``Options/create`` a missing file becomes a new store laid out for `model` (which is then required: without
    /// one the error is ``CDStoreError/Code/cannotOpen`` about `CDStoreError.Input.model`); without it a missing
    /// file is ``CDStoreError/Code/cannotOpen``. A store saved with another version of the
    /// model is migrated (lightweight, with a backup copy) only with ``Options/migrate``; otherwise it is refused
    /// with ``CDStoreError/Code/modelMismatch`` (134100) naming the differences — or, opened ``Options/readOnly``,
    /// read with the version of `model`'s bundle it was saved with. With no `model` the store's own is used: the
    /// model cdstore keeps in stores it made, or Core Data's `Z_MODELCACHE` (``CDStoreError/Code/noModel``,
    /// 134130, when there is neither).
    ///
    /// Core Data equivalent: `NSPersistentStoreCoordinator.addPersistentStore(ofType:configurationName:at:options:)`
    /// with `NSMigratePersistentStoresAutomaticallyOption`/`NSInferMappingModelAutomaticallyOption` for `.migrate`
    /// and `NSReadOnlyPersistentStoreOption` for `.readOnly`.
    public init(path: String, model: Model? = nil, options: Options = [], configuration: Configuration = .init()) throws {
        self.path = path
        let loaded = try CDStoreError.wrapping { try model?.load() }
        let readOnly = options.contains(.readOnly) || options.contains(.immutable)
        let storeOptions = Store.Options(readOnly: readOnly, createIfMissing: options.contains(.create) && !readOnly,
                                         uuid: configuration.uuid,
                                         migrator: options.contains(.migrate) ? LightweightMigrator() : nil,
                                         backup: configuration.backupBeforeMigrating, busyTimeout: configuration.busyTimeout,
                                         immutable: options.contains(.immutable),
                                         readsMissingExternalDataAsNull: configuration.readsMissingExternalDataAsNull)
        let opened = try CDStoreError.wrapping { try Store.open(at: path, loaded: loaded, options: storeOptions) }
        store = opened
        let pooled = !options.contains(.immutable) && configuration.maximumReaderCount > 0
            && (try? opened.usesWriteAheadLog()) == true
        readers = pooled ? ReaderPool(primary: opened, capacity: configuration.maximumReaderCount) : nil
    }
}
