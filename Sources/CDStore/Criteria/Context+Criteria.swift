import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine

extension CDStore.Context {
    /// Sets attributes of the objects `criteria` filter (sub-entities or not; their order and window do not apply),
    /// validating every new value first, and returns how many objects changed; with `dryRun`, how many would.
    ///
    /// ```swift
    /// try ctx.update("Employee", matching: .equal("department.name", "Sales"), set: ["isActive": false])
    /// ```
    ///
    /// Each changed object's `Z_OPT` is incremented, as Core Data does on save. Relationships cannot be set this
    /// way (update one object by its ID, ``update(_:set:)``); values computed per object take
    /// ``update(_:matching:assignments:dryRun:)``.
    @discardableResult
    public func update(_ entity: String, matching criteria: Criteria, set values: [String: (any ObjectValueConvertible)?],
                       dryRun: Bool = false) throws -> Int {
        try update(entity, matching: criteria, assignments: Self.assignments(values), dryRun: dryRun)
    }

    /// Sets attributes of the objects `criteria` filter (sub-entities or not; order and window do not apply) to
    /// values or to expressions computed per object, validating every new value first, and returns how many
    /// objects changed. With `dryRun` everything is computed and validated the same way and nothing is written:
    /// the count is how many would change (it runs inside ``CDStore/read(_:)`` too).
    ///
    /// ```swift
    /// let raises = [try UpdateAssignment(parsing: "salary:=salary * 1.05")]
    /// let would = try store.read { ctx in
    ///     try ctx.update("Employee", matching: .equal("department.name", "Sales"), assignments: raises, dryRun: true)
    /// }
    /// ```
    ///
    /// Core Data equivalent: `NSBatchUpdateRequest` with `propertiesToUpdate` and `includesSubentities` —
    /// validated, unlike a batch update.
    @discardableResult
    public func update(_ entity: String, matching criteria: Criteria, assignments: [UpdateAssignment],
                       dryRun: Bool = false) throws -> Int {
        let request = UpdateRequest(entity: entity, predicate: criteria.predicate, assignments: assignments,
                                    includesSubentities: criteria.includesSubentities)
        return try perform(writing: !dryRun) { try store.update(request, dryRun: dryRun) }
    }

    /// Deletes the objects `criteria` filter (sub-entities or not; their order and window do not apply),
    /// applying delete rules. With `dryRun` nothing is deleted and the result says what would be, per entity (it
    /// runs inside ``CDStore/read(_:)`` too).
    @discardableResult
    public func delete(_ entity: String, matching criteria: Criteria, dryRun: Bool = false) throws -> DeleteResult {
        let request = ObjectFetchRequest(entity: entity, predicate: criteria.predicate,
                                         includesSubentities: criteria.includesSubentities)
        return try perform(writing: !dryRun) { try store.delete(request, dryRun: dryRun) }
    }
}
