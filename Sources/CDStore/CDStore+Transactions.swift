import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine

extension CDStore {
    /// Runs `body` in one read transaction and returns what it returns: everything `body` reads through its
    /// context comes from one snapshot of the store.
    ///
    /// ```swift
    /// let (count, first) = try store.read { ctx in
    ///     (try ctx.count("Employee"), try ctx.fetchOne("Employee", matching: Criteria.all.sorted(by: ["lastName"])))
    /// }
    /// ```
    ///
    /// Reads of a WAL store run on a connection of their own, at the same time as other reads and as the write
    /// in progress (whose changes they do not see until it commits). Inside a ``write(_:)`` on the same thread,
    /// a read joins the write's transaction and sees its changes.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.performAndWait(_:)` on a context that only fetches.
    public func read<T>(_ body: (Context) throws -> T) throws -> T {
        // Nested in a read or write of this store on this thread: join it (a second pooled connection would
        // read another snapshot, and could wait for the very connection this thread holds).
        if let active = ActiveTransaction.current, active.owner == ObjectIdentifier(self) {
            return try run(body, on: active.connection, writing: false)
        }
        if let readers { return try CDStoreError.wrapping { try readers.withReader { try run(body, on: $0, writing: false) } } }
        return try run(body, on: store, writing: false)
    }

    /// Runs `body` in one write transaction and returns what it returns: everything `body` changes through its
    /// context is committed together when it returns, or rolled back — the store left as it was — when it
    /// throws.
    ///
    /// ```swift
    /// let annID = try store.write { ctx in
    ///     let dept = try ctx.insert("Department", ["name": "R&D"])
    ///     return try ctx.insert("Employee", ["employeeNumber": 7, "firstName": "Ann", "lastName": "Moreau",
    ///                                        "department": dept])
    /// }
    /// ```
    ///
    /// Writes take turns: a write waits for the one in progress (in this process, or in another one up to
    /// ``Configuration/busyTimeout``). Each context call runs in a savepoint, so a call that fails changes
    /// nothing and `body` may catch its error and go on. A `write` inside a `write` on the same thread is a
    /// savepoint of the outer one.
    ///
    /// The result may be ignored: a write is made for its changes, and a one-line `body` returns whatever its
    /// last call returns (an inserted object's ID, a delete's counts) whether or not the caller wants it.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.performAndWait(_:)` ending with `save()`.
    @discardableResult
    public func write<T>(_ body: (Context) throws -> T) throws -> T {
        if let active = ActiveTransaction.current, active.owner == ObjectIdentifier(self), !active.writing {
            throw CDStoreError(.readOnly, "cannot write inside a read transaction: use write { ctx in … } outside it")
        }
        return try run(body, on: store, writing: true)
    }

    private func run<T>(_ body: (Context) throws -> T, on connection: Store, writing: Bool) throws -> T {
        let context = Context(store: connection, owner: self, canWrite: writing)
        defer { context.close() }
        let active = ActiveTransaction(owner: ObjectIdentifier(self), connection: connection, writing: writing)
        do {
            return try ActiveTransaction.$current.withValue(active) {
                if writing {
                    return try connection.inWriteTransaction { try body(context) }
                }
                return try connection.inReadTransaction { try body(context) }
            }
        } catch {
            throw CDStoreError.converting(error)
        }
    }
}

/// The `read` or `write` this thread (or task) is running, so that one nested in it joins it.
struct ActiveTransaction: Sendable {
    let owner: ObjectIdentifier
    let connection: Store
    let writing: Bool

    @TaskLocal static var current: ActiveTransaction?
}
