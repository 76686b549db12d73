import CDStoreEngine

extension CDStore {
    /// Checks the store as Core Data reads it and returns what is wrong; an empty array means the store is sound.
    ///
    /// ```swift
    /// let problems = try store.verify().filter { $0.severity == .problem }
    /// if problems.contains(where: { $0.kind == .maxPrimaryKey }) { _ = try store.repair() }
    /// ```
    ///
    /// Checked: the metadata's version hashes against the model, the `Z_PRIMARYKEY` rows, the tables and
    /// columns of the layout, every row's `Z_ENT`, `Z_MAX` against the largest `Z_PK` of each table, foreign keys
    /// and join tables pointing at existing objects of the right entity, both sides of one-to-one relationships,
    /// and the files of external binary data. What Core Data itself leaves in stores (old entity names after a
    /// rename, history and CloudKit tables, `Z_MAX = -1`) is not reported. A `VerifyProblem.Severity.problem`
    /// is something Core Data cannot use or would fail on next — a `Z_MAX` below the largest key among them,
    /// since Core Data's next insert would take a key in use; ``repair()`` fixes that one.
    ///
    /// This is the `cdstore verify` command's check.
    ///
    /// - Throws: ``CDStoreError`` when the store cannot be read.
    public func verify() throws -> [VerifyProblem] {
        try CDStoreError.wrapping { try store.verify() }
    }

    /// Fixes the store's purely mechanical bookkeeping in one transaction, and returns the problems it fixed, each
    /// message saying what changed (empty when there was nothing to fix).
    ///
    /// ```swift
    /// for repaired in try store.repair() { print(repaired) }
    /// // maxPrimaryKey: Employee: Z_MAX 3 → 7, the largest Z_PK in ZEMPLOYEE
    /// ```
    ///
    /// Only what has exactly one right value, derived from the rows, is repaired: a `Z_PRIMARYKEY.Z_MAX` below the
    /// largest `Z_PK` of its table is raised to it, as Core Data's own inserts keep it. The other problems
    /// ``verify()`` reports — dangling references, one-to-ones whose sides disagree, stray `Z_ENT`s, missing
    /// tables, columns or `Z_PRIMARYKEY` rows, other hashes in the metadata, missing external data — each need a
    /// decision about data (delete the row, or restore the object? which side is right?) and are left alone.
    ///
    /// This is `cdstore verify --repair`.
    ///
    /// - Throws: ``CDStoreError`` with code ``CDStoreError/Code/readOnly`` for a store opened read-only,
    ///   ``CDStoreError/Code/noModel`` for one read with a model inferred from its tables, or what SQLite reports;
    ///   nothing is changed then.
    public func repair() throws -> [VerifyProblem] {
        try CDStoreError.wrapping { try store.repair() }
    }
}
