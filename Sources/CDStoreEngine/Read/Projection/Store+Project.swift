import CDStoreJSON
internal import GRDB

extension Store {
    /// The results of a dictionary fetch: per object, or per group with ``ProjectionRequest/groupBy``, each a list
    /// of result keys and typed values in the order of ``ProjectionRequest/properties``. Everything is computed by
    /// one SQL query.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)` of a request with `.dictionaryResultType`.
    package func project(_ request: ProjectionRequest) throws -> [[(String, ObjectValue)]] {
        var results: [[(String, ObjectValue)]] = []
        try forEachProjected(request) { results.append($0) }
        return results
    }

    /// Calls `body` with each result of ``project(_:)`` as SQLite produces it, holding one row at a time.
    package func forEachProjected(_ request: ProjectionRequest, _ body: ([(String, ObjectValue)]) throws -> Void) throws {
        let query = try ProjectionQuery(store: self, request: request)
        try withoutActuallyEscaping(body) { body in
            try read { db in
                ProjectionFunctions.register(on: db)
                let statement = try db.makeStatement(sql: query.statement.sql)
                try statement.setExactArguments(query.statement.arguments)
                let rows = try Row.fetchCursor(statement)
                while let row = try rows.next() { try body(query.decode(row, statement: statement.sqliteStatement)) }
            }
        }
    }

    /// The SQL statement (with its bound values) ``project(_:)`` runs for `request`, checked against the model.
    func projectionStatement(_ request: ProjectionRequest) throws -> SQLFragment {
        try ProjectionQuery(store: self, request: request).statement
    }
}
