import CDStoreEngine
import CDStoreJSON
import CDStorePredicate
internal import GRDB
internal import GRDBSQLite

/// The SQL a store diff reads one side of an entity with: `Z_PK`, the key values, then (``fields``) the compared
/// attributes' columns, in key order.
///
/// The request's sort descriptors are the key paths, so that ``QueryBuilder`` resolves them as `fetch --sort`
/// does (a to-one path as a correlated subquery) and compiles the predicate; its sort expressions are selected
/// and the rows ordered by those result columns, then by `Z_PK`.
enum DiffQuery {
    static func select(_ store: Store, _ side: EntityPlan.Side, predicate: PredicateNode? = nil, primaryKeys: [Int64]? = nil,
                       fields: Bool) throws -> SQLFragment {
        let request = ObjectFetchRequest(entity: side.entity.name, predicate: predicate, sort: side.key.map { SortDescriptor($0.path) },
                                         includesSubentities: false, relationships: .none, primaryKeys: primaryKeys)
        let query = try QueryBuilder(store: store, request: request)
        let keys = query.order.dropLast().map { $0.hasSuffix(" ASC") ? String($0.dropLast(4)) : $0 }
        let columns = ["t.Z_PK"] + keys + (fields ? side.attributes.map { "t." + side.layout.attributeColumns[$0.name]! } : [])
        let order = keys.indices.map { String($0 + 2) } + ["t.Z_PK"]
        return SQLFragment("SELECT \(columns.joined(separator: ", ")) FROM \(query.table) t WHERE \(query.condition.sql) "
                           + "ORDER BY \(order.joined(separator: ", "))", query.orderArguments + query.condition.arguments)
    }

    /// Steps `statement` to its next row; false after the last.
    static func step(_ statement: Statement, _ db: Database) throws -> Bool {
        let code = sqlite3_step(statement.sqliteStatement)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else {
            throw StoreError(.sqlite, "SQLite error \(code): " + String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return true
    }
}
