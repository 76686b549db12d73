import CDStoreEngine

extension CDStore.Context {
    /// The objects of `entity` (and of its sub-entities) that `criteria` select, in its order and window.
    ///
    /// ```swift
    /// let rows = try ctx.fetch("Employee", matching: try Criteria("age >= %@ AND department.name == %@", 30, "R&D")
    ///     .sorted(by: ["-salary", "lastName"]).limit(50))
    /// ```
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)` of an `NSFetchRequest` with `predicate`,
    /// `sortDescriptors`, `fetchLimit`, `fetchOffset`, `includesSubentities` and `relationshipKeyPathsForPrefetching`.
    public func fetch(_ entity: String, matching criteria: Criteria = .all) throws -> [StoredObject] {
        try fetch(criteria.request(for: entity))
    }

    /// The objects a store-layer request selects.
    func fetch(_ request: ObjectFetchRequest) throws -> [StoredObject] {
        try perform {
            var factory = StoredObjectFactory(model: store.model)
            let uuid = store.metadata.uuid
            var objects: [StoredObject] = []
            let cursor = try store.makeCursor(request)
            while let fetched = try cursor.next() { objects.append(factory.make(fetched, storeUUID: uuid)) }
            return objects
        }
    }

    /// The first object `criteria` select, in their order; nil when none does.
    public func fetchOne(_ entity: String, matching criteria: Criteria = .all) throws -> StoredObject? {
        try fetch(criteria.limit(1).request(for: entity)).first
    }

    /// The object with this ID, or nil when the store has none (it was deleted, or the ID is another store's).
    ///
    /// Core Data equivalent: `NSManagedObjectContext.existingObject(with:)`.
    public func object(_ id: ObjectID) throws -> StoredObject? {
        guard id.storeUUID == store.metadata.uuid else { return nil }
        return try fetch(ObjectFetchRequest(entity: id.entity, includesSubentities: false, primaryKeys: [id.primaryKey])).first
    }

    /// The number of objects `criteria` select (their window applies).
    ///
    /// Core Data equivalent: `NSManagedObjectContext.count(for:)`.
    public func count(_ entity: String, matching criteria: Criteria = .all) throws -> Int {
        try perform { try store.count(criteria.request(for: entity)) }
    }

    /// The objects `criteria` select one at a time, read in batches as the cursor is stepped, so that memory holds
    /// one batch whatever the number of objects. Step it before the closure returns.
    ///
    /// ```swift
    /// let cursor = try ctx.cursor("Employee", matching: Criteria.all.sorted(by: ["employeeNumber"]))
    /// while let employee = try cursor.next() { total += employee.get("salary", as: Double.self) ?? 0 }
    /// ```
    ///
    /// Core Data equivalent: a fetch with `fetchBatchSize`.
    public func cursor(_ entity: String, matching criteria: Criteria = .all) throws -> StoredObjectCursor {
        try perform { StoredObjectCursor(cursor: try store.makeCursor(criteria.request(for: entity)), context: self) }
    }
}

/// The objects of a fetch, read from the store a batch at a time as they are asked for.
///
/// Made by ``CDStore/Context/cursor(_:matching:)``; valid inside its transaction only.
public final class StoredObjectCursor {
    private let cursor: ObjectCursor
    private let context: CDStore.Context
    private var factory: StoredObjectFactory

    init(cursor: ObjectCursor, context: CDStore.Context) {
        self.cursor = cursor
        self.context = context
        factory = StoredObjectFactory(model: context.model)
    }

    /// The next object, or nil after the last one.
    public func next() throws -> StoredObject? {
        try context.perform {
            guard let fetched = try cursor.next() else { return nil }
            return factory.make(fetched, storeUUID: context.store.metadata.uuid)
        }
    }

    /// Calls `body` with each remaining object.
    public func forEach(_ body: (StoredObject) throws -> Void) throws {
        while let object = try next() { try body(object) }
    }
}
