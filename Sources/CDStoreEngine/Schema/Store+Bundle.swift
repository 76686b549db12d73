import CDStoreJSON
internal import GRDB

extension Store {
    /// Makes the store ready to ship inside an app bundle: the WAL checkpointed into the main file, rollback
    /// journaling (`DELETE`, so the store is one file, as a bundled seed store must be), and `VACUUM`, so the
    /// file holds only live pages and its bytes depend only on its content.
    ///
    /// Core Data equivalent: adding the store with `NSSQLitePragmasOption: ["journal_mode": "DELETE"]` and
    /// copying the single file into the bundle (Apple's QA1809).
    package func prepareForBundling() throws {
        guard !isReadOnly else { throw StoreError(.readOnly, "the store is open read-only") }
        do {
            try database.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "VACUUM")
            }
        } catch let error as DatabaseError {
            throw StoreError.sqlite(error)
        }
    }

    /// Closes the connection, so that the files can be moved or checked byte for byte.
    package func close() throws {
        try database.close()
    }
}
