import CDStoreJSON
import CDStoreModel
import CDStorePredicate
internal import GRDB

extension Store {
    /// The objects `request` selects, in its order.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)`.
    package func fetch(_ request: ObjectFetchRequest) throws -> [FetchedObject] {
        try read { db in try fetchObjects(request, db: db) }
    }

    /// Calls `body` with each object `request` selects, a batch at a time, without holding them all in memory.
    package func forEach(_ request: ObjectFetchRequest, _ body: (FetchedObject) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try read { db in _ = try fetchObjects(request, db: db, batch: body) }
        }
    }

    /// Fetches within an open read: rows come from a cursor in batches of 256, relationship values are added
    /// per batch, and each batch goes to `batch` (or into the returned array when there is none). With `batch`,
    /// memory holds one batch whatever the number of rows.
    @discardableResult
    func fetchObjects(_ request: ObjectFetchRequest, db: Database,
                      batch: ((FetchedObject) throws -> Void)? = nil) throws -> [FetchedObject] {
        let cursor = try ObjectCursor(store: self, request: request, db: db, transaction: nil)
        var all: [FetchedObject] = []
        while let object = try cursor.next() {
            if let batch { try batch(object) } else { all.append(object) }
        }
        return all
    }

    /// A cursor over the objects `request` selects, read a batch at a time as it is stepped, for use inside
    /// ``inReadTransaction(_:)`` or ``inWriteTransaction(_:)``: it fails once that transaction has ended.
    ///
    /// ```swift
    /// try store.inReadTransaction {
    ///     let cursor = try store.makeCursor(ObjectFetchRequest(entity: "Employee"))
    ///     while let employee = try cursor.next() { print(employee.primaryKey) }
    /// }
    /// ```
    package func makeCursor(_ request: ObjectFetchRequest) throws -> ObjectCursor {
        let transaction = try requireTransaction(for: "a cursor")
        return try translatingErrors(writing: false) {
            try ObjectCursor(store: self, request: request, db: transaction.db, transaction: transaction)
        }
    }

    /// How many objects `request` selects (its limit and offset apply).
    ///
    /// Core Data equivalent: `NSManagedObjectContext.count(for:)`.
    package func count(_ request: ObjectFetchRequest) throws -> Int {
        let query = try QueryBuilder(store: self, request: request)
        let count = query.countStatement()
        return try read { db in
            let statement = try db.cachedStatement(sql: count.sql)
            try statement.setExactArguments(count.arguments)
            return try Int.fetchOne(statement) ?? 0
        }
    }

    /// Deletes the objects `request` selects, applying every relationship's delete rule, in one transaction, and
    /// returns what was deleted per entity. With `dryRun` nothing changes: the result says what would be deleted.
    ///
    /// Core Data equivalent: fetching the objects, `NSManagedObjectContext.delete(_:)` on each, then `save()`.
    @discardableResult
    package func delete(_ request: ObjectFetchRequest, dryRun: Bool = false) throws -> DeleteResult {
        let query = try QueryBuilder(store: self, request: request)
        let keys = query.objectKeyStatement()
        let body = { (db: Database) throws -> DeleteResult in
            let statement = try db.cachedStatement(sql: keys.sql)
            try statement.setExactArguments(keys.arguments)
            let roots = try Row.fetchAll(statement)
                .map { ObjectRef(pk: $0[0], entityNumber: $0[1]) }
            var plan = try DeletePlan(deleting: roots, store: self, db: db)
            let result = DeleteResult(requested: roots.count, byEntity: plan.countsByEntity)
            guard !dryRun else { return result }
            let changed = try plan.execute()
            try GraphValidation(store: self, db: db).validate(changed)
            try self.bumpOptimisticLockVersions(changed, db: db)
            return result
        }
        return dryRun ? try read(body) : try write(body)
    }
}

/// What a delete removed (or, for a dry run, would remove).
public struct DeleteResult: Sendable, Equatable {
    /// Objects the request selected.
    public var requested: Int
    /// Objects removed per entity, the selected ones and those their Cascade rules reached, in entity order.
    public var byEntity: [(String, Int)]

    /// All objects removed.
    public var total: Int { byEntity.reduce(0) { $0 + $1.1 } }

    public static func == (lhs: DeleteResult, rhs: DeleteResult) -> Bool {
        lhs.requested == rhs.requested && lhs.byEntity.map(\.0) == rhs.byEntity.map(\.0) && lhs.byEntity.map(\.1) == rhs.byEntity.map(\.1)
    }
}
