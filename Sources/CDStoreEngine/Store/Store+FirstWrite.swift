import Foundation
internal import GRDB

/// The first write transaction into a store this process created runs with a rollback journal, and the store is
/// switched back to WAL (as Core Data keeps it) as soon as that transaction ends.
///
/// Through WAL, every page a bulk load writes is written twice: into the WAL as the transaction spills and commits,
/// then into the database at the checkpoint. With a rollback journal, pages that did not exist when the transaction
/// began need no journal: a load into a new store writes each of them once (measured in ADR 0013).
///
/// A failed transaction rolls back from the journal, and so does the next open after a crash (a hot journal), so
/// the store is left as created. The finished file holds the same pages as one written through WAL; only the
/// header's change counter differs. The switch needs the only connection to the file: when another process has
/// the new store open, the write simply stays in WAL. Readers that open the store meanwhile wait for the commit
/// (busy timeout) rather than read the empty store beside it.
extension Store {
    /// The journal switches' state. It is read and changed only inside the closures the store's `DatabaseQueue`
    /// runs, one at a time on its queue, so no two threads see it at once: that is why it may be `@unchecked
    /// Sendable` while ``Store`` itself holds only immutable values.
    final class JournalState: @unchecked Sendable {
        /// Whether the next outermost write transaction is the first into a store this process created, to run
        /// with a rollback journal.
        var firstWritePending: Bool
        /// Whether the store still waits to be switched back to WAL (``settleJournal(_:)``).
        var walPending = false

        init(firstWritePending: Bool) {
            self.firstWritePending = firstWritePending
        }
    }

    /// Switches to a rollback journal before the first write transaction of a store this process created, once;
    /// true when it did (the caller then calls ``settleJournal(_:)`` after the transaction).
    func beginFirstWriteJournal(_ db: Database) -> Bool {
        guard journal.firstWritePending else { return false }
        journal.firstWritePending = false
        return (try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE"))?.lowercased() == "delete"
    }

    /// Puts the store back in WAL after its first write transaction (committed or rolled back).
    func settleJournal(_ db: Database) {
        if (try? String.fetchOne(db, sql: "PRAGMA journal_mode = WAL"))?.lowercased() != "wal" {
            // Someone else holds the file: the next write tries again.
            journal.walPending = true
        }
    }

    /// Retries the switch back to WAL that ``settleJournal(_:)`` could not make.
    func settlePendingJournal(_ db: Database) {
        guard journal.walPending else { return }
        journal.walPending = false
        settleJournal(db)
    }
}

extension Store {
    /// Rolls back the transaction a crashed process left in a rollback journal beside the store, so that a
    /// read-only open can read it: SQLite refuses to read a store with a hot journal on a read-only connection
    /// ("attempt to write a readonly database"), and a process killed during a new store's first write (in a
    /// rollback journal, above) leaves one. Opening read-write and reading the schema makes SQLite roll it back; a
    /// journal that is not hot (another process's transaction in progress) is left alone. Best effort: when the
    /// file cannot be written, the read-only open reports SQLite's error.
    static func rollBackHotJournal(at path: String, busyTimeout: TimeInterval) {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path + "-journal"))?[.size] as? Int, size > 0,
              FileManager.default.isWritableFile(atPath: path) else { return }
        guard let database = try? DatabaseQueue(path: path, configuration: configuration(readOnly: false, busyTimeout: busyTimeout))
        else { return }
        _ = try? database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
    }
}
