import CDStoreEngine

extension CDStore.Context {
    /// Runs `body`, stopping each query it makes through this context once `limit` has passed since the call
    /// began: that query throws ``CDStoreError/Code/interrupted`` ("stopped at the time limit of 1000 ms"). The
    /// transaction goes on — a read keeps reading the same snapshot — so `body`'s caller may catch the error and
    /// show what it has. Nested calls keep the nearer deadline. A server bounds each page's queries with it.
    ///
    /// ```swift
    /// let count: Int? = try store.read { ctx in
    ///     do { return try ctx.withTimeLimit(.seconds(1)) { try ctx.count("Event") } }
    ///     catch let error as CDStoreError where error.code == .interrupted { return nil }
    /// }
    /// ```
    ///
    /// Unlike ``CDStore/interrupt()``, which stops every statement running on the store's connections, the limit
    /// concerns this context's queries only. The corresponding SQLite function is `sqlite3_progress_handler`.
    public func withTimeLimit<T>(_ limit: Duration, _ body: () throws -> T) throws -> T {
        let (seconds, attoseconds) = limit.components
        let milliseconds = Int(clamping: min(max(seconds, 0), 1 << 40)) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        let start = ContinuousClock.now
        do {
            return try perform { try store.withTimeLimit(milliseconds: milliseconds, body) }
        } catch let error as CDStoreError where error.code == .interrupted && ContinuousClock.now - start >= limit {
            throw CDStoreError(.interrupted, "stopped at the time limit of \(milliseconds) ms")
        }
    }
}
