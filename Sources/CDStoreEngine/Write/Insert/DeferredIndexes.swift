internal import GRDB

/// The plain (not UNIQUE) indexes of tables that are empty when a bulk insert starts, dropped for the load and
/// built again from the finished rows, inside the insert's transaction.
///
/// Maintaining an index row by row moves through its B-tree once per row; `CREATE INDEX` over the finished table
/// sorts once, about half the time for a graph load with plain indexes (ADR 0013). UNIQUE indexes stay: SQLite checks them on every row,
/// and the insert's uniqueness lookups read them.
///
/// Anything that could read a table through one of its plain indexes (a `_ref` lookup, a relationship update that
/// finds rows by foreign key, a merge key no UNIQUE index covers, validation) first calls ``restore(for:db:)`` or
/// ``restore(db:)``, so a query never scans a table whose index is missing, and the store ends with exactly the
/// indexes it had. A failed insert rolls the drop back with everything else.
final class DeferredIndexes {
    private struct Index {
        let table: String
        let sql: String
    }

    /// The dropped indexes, in the store's schema order; empty once restored.
    private var dropped: [Index]
    /// Tables whose indexes are dropped.
    private(set) var tables: Set<String>
    /// The column sets of the UNIQUE indexes of those tables, which stay.
    private let uniqueColumns: [String: [Set<String>]]

    /// Drops the plain indexes of those of `tables` that hold no row.
    init(tables: Set<String>, db: Database) throws {
        var empty: Set<String> = []
        for table in tables.sorted() where try Self.isEmpty(table, db: db) { empty.insert(table) }
        var dropped: [Index] = []
        var unique: [String: [Set<String>]] = [:]
        let indexes = try Row.fetchAll(db, sql: """
            SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid
            """)
        for index in indexes {
            let name: String = index["name"], table: String = index["tbl_name"], sql: String = index["sql"]
            guard empty.contains(table) else { continue }
            if sql.uppercased().hasPrefix("CREATE UNIQUE") {
                let columns = try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
                unique[table, default: []].append(Set(columns.compactMap { $0["name"] as String? }))
            } else {
                // A statement still reading the table (a caller's open cursor) locks its schema: keep that index.
                guard (try? db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")) != nil else { continue }
                dropped.append(Index(table: table, sql: sql))
            }
        }
        self.dropped = dropped
        self.tables = Set(dropped.map(\.table))
        uniqueColumns = unique
    }

    /// Whether a query on `table` that constrains every column in `columns` with `=` is served by an index
    /// that stays (a UNIQUE one), so it may run while the plain indexes are dropped.
    func isCovered(_ table: String, columns: Set<String>) -> Bool {
        !tables.contains(table) || uniqueColumns[table, default: []].contains { $0.isSubset(of: columns) }
    }

    /// Builds every dropped index again, when `table` is one of those whose indexes are dropped.
    func restore(for table: String, db: Database) throws {
        if tables.contains(table) { try restore(db: db) }
    }

    /// Builds every dropped index again (once).
    func restore(db: Database) throws {
        guard !dropped.isEmpty else { return }
        let indexes = dropped
        dropped = []
        tables = []
        for index in indexes { try db.execute(sql: index.sql) }
    }

    private static func isEmpty(_ table: String, db: Database) throws -> Bool {
        try db.hasTable(table) && !(try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table.quotedDatabaseIdentifier))") ?? false)
    }
}
