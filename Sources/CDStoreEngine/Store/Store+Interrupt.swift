import CDStoreJSON
internal import GRDB

extension Store {
    /// Stops the SQL statement running on this store's connection, from any thread.
    ///
    /// The statement fails with ``StoreError/Code/interrupted``; a write's transaction rolls back, so the store is
    /// left as it was before the call that was interrupted. Calling it while nothing runs does nothing. The REPL
    /// calls it when Ctrl-C is pressed during a command.
    ///
    /// ```swift
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 1) { store.interrupt() }
    /// try store.count(request)   // throws StoreError(.interrupted, …) if still running after a second
    /// ```
    ///
    /// The corresponding SQLite function is `sqlite3_interrupt`.
    package func interrupt() {
        database.interrupt()
    }
}
