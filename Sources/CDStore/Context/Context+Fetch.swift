import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreSQLite

extension CDStore.Context {
    /// The objects of `entity` (and of its sub-entities) that match a predicate, in order.
    ///
    /// ```swift
    /// let rows = try ctx.fetch("Employee", where: "age >= %@ AND department.name == %@", 30, "R&D",
    ///                          sort: ["-salary", "lastName"], limit: 50)
    /// ```
    ///
    /// - Parameters:
    ///   - entity: The entity's name.
    ///   - format: An `NSPredicate` format; nil selects every object. `%@` takes any argument, `%K` a key path
    ///     (a `String`), `%d` an integer, `%f` a number.
    ///   - arguments: The values of the format's `%` specifiers, in order, as Swift values.
    ///   - sort: Key paths, most significant first: `name`, `-name` (descending), `name:ci` (ignoring case),
    ///     `department.name` (a to-one's attribute). Ties keep primary-key order.
    ///   - limit: At most this many objects.
    ///   - offset: Skip this many objects first.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)` of an `NSFetchRequest` with `predicate`,
    /// `sortDescriptors`, `fetchLimit` and `fetchOffset`.
    public func fetch(_ entity: String, where format: String? = nil, _ arguments: any ObjectValueConvertible...,
                      sort: [String] = [], limit: Int? = nil, offset: Int? = nil) throws -> [StoredObject] {
        try fetch(request(entity, format, arguments, sort: sort, limit: limit, offset: offset))
    }

    /// The objects a store-layer request selects, for what the other methods do not say (sub-entities left out,
    /// prefetching).
    package func fetch(_ request: ObjectFetchRequest) throws -> [StoredObject] {
        try perform {
            var factory = StoredObjectFactory(model: store.model)
            let uuid = store.metadata.uuid
            var objects: [StoredObject] = []
            let cursor = try store.makeCursor(request)
            while let fetched = try cursor.next() { objects.append(factory.make(fetched, storeUUID: uuid)) }
            return objects
        }
    }

    /// The first object that matches, in order; nil when none does.
    public func fetchOne(_ entity: String, where format: String? = nil, _ arguments: any ObjectValueConvertible...,
                         sort: [String] = []) throws -> StoredObject? {
        try fetch(request(entity, format, arguments, sort: sort, limit: 1, offset: nil)).first
    }

    /// The object with this ID, or nil when the store has none (it was deleted, or the ID is another store's).
    ///
    /// Core Data equivalent: `NSManagedObjectContext.existingObject(with:)`.
    public func object(_ id: ObjectID) throws -> StoredObject? {
        guard id.storeUUID == store.metadata.uuid else { return nil }
        return try fetch(ObjectFetchRequest(entity: id.entity, includesSubentities: false, primaryKeys: [id.primaryKey])).first
    }

    /// The number of objects of `entity` that match a predicate.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.count(for:)`.
    public func count(_ entity: String, where format: String? = nil, _ arguments: any ObjectValueConvertible...) throws -> Int {
        let request = try request(entity, format, arguments, sort: [], limit: nil, offset: nil)
        return try perform { try store.count(request) }
    }

    /// The matching objects one at a time, read in batches as the cursor is stepped, so that memory holds one
    /// batch whatever the number of objects. Step it before the closure returns.
    ///
    /// ```swift
    /// let cursor = try ctx.cursor("Employee", sort: ["employeeNumber"])
    /// while let employee = try cursor.next() { total += employee.get("salary", as: Double.self) ?? 0 }
    /// ```
    ///
    /// Core Data equivalent: a fetch with `fetchBatchSize`.
    public func cursor(_ entity: String, where format: String? = nil, _ arguments: any ObjectValueConvertible...,
                       sort: [String] = [], limit: Int? = nil, offset: Int? = nil) throws -> StoredObjectCursor {
        try cursor(request(entity, format, arguments, sort: sort, limit: limit, offset: offset))
    }

    /// A cursor over the objects a store-layer request selects.
    package func cursor(_ request: ObjectFetchRequest) throws -> StoredObjectCursor {
        try perform { StoredObjectCursor(cursor: try store.makeCursor(request), context: self) }
    }

    /// The request for a predicate format, its arguments, sort keys and window.
    func request(_ entity: String, _ format: String?, _ arguments: [any ObjectValueConvertible], sort: [String],
                 limit: Int?, offset: Int?) throws -> ObjectFetchRequest {
        ObjectFetchRequest(entity: entity, predicate: try predicate(format, arguments),
                           sort: sort.map(SortDescriptor.init(parsing:)), limit: limit, offset: offset)
    }
}

/// The objects of a fetch, read from the store a batch at a time as they are asked for.
///
/// Made by ``CDStore/Context/cursor(_:where:_:sort:limit:offset:)``; valid inside its transaction only.
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
