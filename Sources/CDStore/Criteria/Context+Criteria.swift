import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreSQLite

extension CDStore.Context {
    /// The objects of `entity` that `criteria` select, in its order and window.
    ///
    /// ```swift
    /// try ctx.fetch("Employee", matching: .ge("age", 30).and(.eq("department.name", "R&D")).sorted(by: "-salary"))
    /// ```
    public func fetch(_ entity: String, matching criteria: Criteria) throws -> [StoredObject] {
        try fetch(criteria.request(for: entity))
    }

    /// The objects `criteria` select, decoded as `T`.
    public func fetch<T: Decodable>(_ type: T.Type, from entity: String, matching criteria: Criteria) throws -> [T] {
        try fetch(criteria.request(for: entity)).map { try $0.decode(type) }
    }

    /// A cursor over the objects `criteria` select.
    public func cursor(_ entity: String, matching criteria: Criteria) throws -> StoredObjectCursor {
        try cursor(criteria.request(for: entity))
    }

    /// The number of objects `criteria` select (their window applies).
    public func count(_ entity: String, matching criteria: Criteria) throws -> Int {
        try perform { try store.count(criteria.request(for: entity)) }
    }

    /// Sets attributes of the objects `criteria` filter (their order and window do not apply).
    @discardableResult
    public func update(_ entity: String, matching criteria: Criteria, set values: [String: (any ObjectValueConvertible)?]) throws -> Int {
        try update(UpdateRequest(entity: entity, predicate: criteria.predicate, assignments: Self.assignments(values)))
    }

    /// Sets attributes of the objects `criteria` filter (sub-entities or not; order and window do not apply) to
    /// values or to expressions computed per object, validating every new value first, and returns how many
    /// objects changed. With `dryRun` everything is computed and validated the same way and nothing is written:
    /// the count is how many would change (it runs inside ``CDStore/read(_:)`` too).
    ///
    /// ```swift
    /// let raises = [try UpdateAssignment(parsing: "salary:=salary * 1.05")]
    /// let would = try store.read { ctx in
    ///     try ctx.update("Employee", matching: .eq("department.name", "Sales"), assignments: raises, dryRun: true)
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
