import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine

extension CDStore.Context {
    /// Sets attributes of the objects `criteria` filter (sub-entities or not; order and window do not apply) to
    /// `values`, and to `assignments` (values or expressions computed per object), validating every new value
    /// first, and returns how many objects changed. With `dryRun` everything is computed and validated the same
    /// way and nothing is written: the count is how many would change (it runs inside ``CDStore/read(_:)`` too).
    ///
    /// ```swift
    /// try ctx.update("Employee", matching: .equal("department.name", "Sales"), set: ["isActive": false])
    /// let raise = try UpdateAssignment(parsing: "salary:=salary * 1.05")
    /// let would = try store.read { ctx in
    ///     try ctx.update("Employee", matching: .equal("department.name", "Sales"), assignments: [raise], dryRun: true)
    /// }
    /// ```
    ///
    /// Each changed object's `Z_OPT` is incremented, as Core Data does on save. An attribute is set once: in both
    /// `values` and `assignments`, or twice in `assignments`, it is ``CDStoreError/Code/invalidInput``.
    /// Relationships cannot be set this way: update one object by its ID, ``update(_:set:)``.
    ///
    /// Core Data equivalent: `NSBatchUpdateRequest` with `propertiesToUpdate` and `includesSubentities` —
    /// validated, unlike a batch update.
    @discardableResult
    public func update(_ entity: String, matching criteria: Criteria, set values: [String: (any ObjectValueConvertible)?] = [:],
                       assignments: [UpdateAssignment] = [], dryRun: Bool = false) throws -> Int {
        let request = UpdateRequest(entity: entity, predicate: criteria.predicate,
                                    assignments: Self.assignments(values) + assignments,
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
