import CDStoreJSON
import Foundation
internal import GRDB

/// The transaction a thread is running for a store, so that the store's calls made inside it join it.
///
/// It lives in a task-local value, which falls back to thread-local storage outside Swift concurrency: a call
/// made on another thread (or task) does not see it and opens its own transaction, as it must.
final class AmbientTransaction: @unchecked Sendable {
    /// The store whose connection runs the transaction.
    unowned let store: Store
    /// The connection, used only on the thread that runs the transaction.
    let db: Database
    /// Whether the transaction may write.
    let writing: Bool
    /// False once the transaction has ended: cursors made inside it refuse to step afterwards.
    private(set) var isOpen = true

    init(store: Store, db: Database, writing: Bool) {
        self.store = store
        self.db = db
        self.writing = writing
    }

    /// Cursors made in the transaction, released when it closes.
    private var cursors: [Weak] = []

    private struct Weak {
        weak var cursor: ObjectCursor?
    }

    func adopt(_ cursor: ObjectCursor) {
        cursors.removeAll { $0.cursor == nil }
        cursors.append(Weak(cursor: cursor))
    }

    /// Ends the transaction for its cursors; runs on the connection's thread, before the transaction commits.
    func close() {
        isOpen = false
        for weak in cursors { weak.cursor?.release() }
        cursors = []
    }

    @TaskLocal static var current: AmbientTransaction?
}

extension Store {
    /// Runs `body` in one read transaction: every call on this store that `body` makes on this thread (fetches,
    /// counts, projections, cursors) reads the same snapshot of the store.
    ///
    /// Inside ``inWriteTransaction(_:)`` it runs in that transaction, seeing its changes.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.performAndWait(_:)` on a context that only reads.
    package func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        if AmbientTransaction.current?.store === self { return try body() }
        return try translatingErrors(writing: false) {
            try database.read { db in try run(body, db: db, writing: false) }
        }
    }

    /// Runs `body` in one write transaction: every call on this store that `body` makes on this thread joins it,
    /// and everything is committed together when `body` returns, or rolled back when it throws.
    ///
    /// Each call inside runs in a savepoint of its own: a call that fails undoes its own changes, so that `body`
    /// may catch its error and go on. Nested calls of this method are savepoints too. Another thread that writes
    /// to the store meanwhile waits for the transaction to end (the store has one writer at a time).
    ///
    /// Core Data equivalent: `NSManagedObjectContext.performAndWait(_:)` followed by `save()`.
    package func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        try write { db in
            if let current = AmbientTransaction.current, current.store === self, current.writing { return try body() }
            return try run(body, db: db, writing: true)
        }
    }

    /// Whether this thread is inside ``inReadTransaction(_:)`` or ``inWriteTransaction(_:)`` of this store.
    package var isInTransaction: Bool { AmbientTransaction.current?.store === self }

    /// Whether this thread is inside ``inWriteTransaction(_:)`` of this store.
    package var isInWriteTransaction: Bool {
        guard let current = AmbientTransaction.current else { return false }
        return current.store === self && current.writing
    }

    private func run<T>(_ body: () throws -> T, db: Database, writing: Bool) throws -> T {
        let transaction = AmbientTransaction(store: self, db: db, writing: writing)
        defer { transaction.close() }
        return try AmbientTransaction.$current.withValue(transaction) { try body() }
    }

    /// The connection of the transaction this thread runs on this store, if any; a write inside a read
    /// transaction is refused.
    func joinedTransaction(writing: Bool) throws -> Database? {
        guard let current = AmbientTransaction.current, current.store === self else { return nil }
        if writing && !current.writing {
            throw StoreError(.readOnly, "cannot write inside a read transaction")
        }
        return current.db
    }

    /// The transaction this thread runs on this store, for cursors that must not outlive it.
    func requireTransaction(for what: String) throws -> AmbientTransaction {
        guard let current = AmbientTransaction.current, current.store === self else {
            throw StoreError(.invalidInput, "\(what) needs a transaction: make it inside inReadTransaction or inWriteTransaction")
        }
        return current
    }

    /// Whether the store keeps its journal in a write-ahead log (`-wal`), where readers on other connections
    /// read a snapshot while a writer writes.
    package func usesWriteAheadLog() throws -> Bool {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" }
    }

    /// Another read-only connection to the same store file, with this store's model and layout: for reading on
    /// another thread while this connection writes. Nothing is checked or migrated again.
    ///
    /// Readers on other connections see what writers have committed when their read transaction begins; in a
    /// rollback-journal store (not WAL) a writer's commit waits for them, up to the busy timeout.
    package func makeReadOnlyConnection() throws -> Store {
        guard !path.isEmpty, path != ":memory:", privateCopy == nil else {
            throw StoreError(.cannotOpen, "an in-memory or immutable store has a single connection")
        }
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: Self.configuration(readOnly: true, busyTimeout: busyTimeout))
        } catch {
            throw StoreError(.cannotOpen, "cannot open another connection to \(path) (\(Self.describe(error)))")
        }
        return Store(path: path, model: model, layout: layout, metadata: metadata, database: database,
                     wasCreated: false, isReadOnly: true, modelSource: modelSource, busyTimeout: busyTimeout,
                     readsMissingExternalDataAsNull: readsMissingExternalDataAsNull)
    }
}
