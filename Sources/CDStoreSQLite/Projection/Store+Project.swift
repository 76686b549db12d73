import GRDB

extension Store {
    /// The results of a dictionary fetch: per object, or per group with ``ProjectionRequest/groupBy``, each a list
    /// of result keys and typed values in the order of ``ProjectionRequest/properties``. Everything is computed by
    /// one SQL query.
    ///
    /// Core Data equivalent: `NSManagedObjectContext.fetch(_:)` of a request with `.dictionaryResultType`.
    public func project(_ request: ProjectionRequest) throws -> [[(String, ObjectValue)]] {
        let query = try ProjectionQuery(store: self, request: request)
        return try read { db in
            ProjectionFunctions.register(on: db)
            let rows = try Row.fetchAll(db.makeStatement(sql: query.statement.sql),
                                        arguments: StatementArguments(query.statement.arguments))
            return rows.map(query.decode)
        }
    }

    /// The SQL statement (with its bound values) ``project(_:)`` runs for `request`, checked against the model.
    public func projectionStatement(_ request: ProjectionRequest) throws -> SQLFragment {
        try ProjectionQuery(store: self, request: request).statement
    }
}
