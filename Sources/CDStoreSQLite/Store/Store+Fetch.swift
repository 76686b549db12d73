import CDStoreModel
import CDStorePredicate
import GRDB

extension Store {
    /// The objects `request` selects, in its order.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)`.
    public func fetch(_ request: ObjectFetchRequest) throws -> [FetchedObject] {
        let query = try QueryBuilder(store: self, request: request)
        let select = query.selectStatement()
        return try read { db in
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: select.sql), arguments: StatementArguments(select.arguments))
            var objects: [FetchedObject] = []
            while let row = try cursor.next() {
                objects.append(query.object(from: row))
            }
            return objects
        }
    }

    /// Calls `body` with each object `request` selects, without holding them all in memory.
    public func forEach(_ request: ObjectFetchRequest, _ body: (FetchedObject) throws -> Void) throws {
        let query = try QueryBuilder(store: self, request: request)
        let select = query.selectStatement()
        try read { db in
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: select.sql), arguments: StatementArguments(select.arguments))
            while let row = try cursor.next() {
                try body(query.object(from: row))
            }
        }
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
