import CDStoreEngine

extension CDStore {
    /// Stops the SQL statements running on this store's connections, from any thread: the call running them
    /// throws ``CDStoreError/Code/interrupted``, and a write's transaction rolls back, so the store is left as it
    /// was before it. Calling it while nothing runs does nothing.
    ///
    /// ```swift
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 1) { store.interrupt() }
    /// let n = try store.read { ctx in try ctx.count("Event", matching: .all) }   // interrupted after a second
    /// ```
    ///
    /// The corresponding SQLite function is `sqlite3_interrupt`.
    public func interrupt() {
        store.interrupt()
        readers?.interruptLentReaders()
    }
}
