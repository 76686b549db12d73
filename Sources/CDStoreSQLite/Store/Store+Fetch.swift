import CDStoreModel
import CDStorePredicate
import GRDB

extension Store {
    /// The objects `request` selects, in its order.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)`.
    public func fetch(_ request: ObjectFetchRequest) throws -> [FetchedObject] {
        try read { db in try fetchObjects(request, db: db) }
    }

    /// Calls `body` with each object `request` selects, a batch at a time, without holding them all in memory.
    public func forEach(_ request: ObjectFetchRequest, _ body: (FetchedObject) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try read { db in try fetchObjects(request, db: db, batch: body) }
        }
    }

    /// Fetches within an open read: rows are read in batches of 256, relationship values are added per batch,
    /// and each batch goes to `batch` (or into the returned array when there is none).
    @discardableResult
    func fetchObjects(_ request: ObjectFetchRequest, db: Database,
                      batch: ((FetchedObject) throws -> Void)? = nil) throws -> [FetchedObject] {
        let query = try QueryBuilder(store: self, request: request)
        let select = query.selectStatement()
        let loader = RelationshipLoader(store: self, db: db, output: request.relationships,
                                        includes: RelationshipLoader.IncludeTree.parse(request.includes))
        let rows = try Row.fetchAll(db.cachedStatement(sql: select.sql), arguments: StatementArguments(select.arguments))
        var all: [FetchedObject] = []
        for start in stride(from: 0, to: rows.count, by: 256) {
            var chunk = rows[start..<min(start + 256, rows.count)].map { row -> FetchedObject in
                var object = query.object(from: row)
                object.objectID = ObjectID(storeUUID: metadata.uuid, entity: object.entity, primaryKey: object.primaryKey)
                return object
            }
            try loader.attach(to: &chunk, requested: query.entity)
            if let batch { try chunk.forEach(batch) } else { all += chunk }
        }
        return all
    }

    /// How many objects `request` selects (its limit and offset apply).
    ///
    /// Core Data equivalent: `NSManagedObjectContext.count(for:)`.
    public func count(_ request: ObjectFetchRequest) throws -> Int {
        let query = try QueryBuilder(store: self, request: request)
        let count = query.countStatement()
        return try read { db in
            try Int.fetchOne(db.cachedStatement(sql: count.sql), arguments: StatementArguments(count.arguments)) ?? 0
        }
    }

    /// Deletes the objects `request` selects, in one transaction, and returns how many were deleted.
    ///
    /// Core Data equivalent: fetching the objects, `NSManagedObjectContext.delete(_:)` on each, then `save()`.
    @discardableResult
    public func delete(_ request: ObjectFetchRequest) throws -> Int {
        let query = try QueryBuilder(store: self, request: request)
        let keys = query.primaryKeyStatement()
        return try write { db in
            let primaryKeys = try Int64.fetchAll(db.cachedStatement(sql: keys.sql), arguments: StatementArguments(keys.arguments))
            for chunk in stride(from: 0, to: primaryKeys.count, by: 500) {
                let slice = Array(primaryKeys[chunk..<min(chunk + 500, primaryKeys.count)])
                let placeholders = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                try db.execute(sql: "DELETE FROM \(query.table) WHERE Z_PK IN (\(placeholders))",
                               arguments: StatementArguments(slice))
            }
            return primaryKeys.count
        }
    }
}
