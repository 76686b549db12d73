import CDStoreJSON
import Foundation
internal import GRDB
internal import GRDBSQLite

/// Binds and runs a prepared statement through SQLite's C interface, for the per-record paths of bulk writes.
///
/// Strings are bound with their UTF-8 byte length, so a NUL character inside a string is stored rather than
/// ending the text there, and no `StatementArguments` array is built per record.
struct RawStatement {
    let statement: Statement
    let db: Database

    init(_ sql: String, db: Database) throws {
        statement = try db.cachedStatement(sql: sql)
        self.db = db
    }

    var sqliteStatement: SQLiteStatement { statement.sqliteStatement }

    /// Binds `value` to the 1-based parameter `index` (``ExactText/bind(_:to:at:)``).
    func bind(_ value: DatabaseValue, at index: Int32) {
        ExactText.bind(value, to: statement.sqliteStatement, at: index)
    }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(statement.sqliteStatement, index, value)
    }

    /// Runs a statement that returns no rows (INSERT, UPDATE).
    func execute() throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw error(code) }
    }

    /// Runs a query and returns the first row's first two integer columns, if there is a row.
    func firstPair() throws -> (Int64, Int64)? {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return (sqlite3_column_int64(handle, 0), sqlite3_column_int64(handle, 1))
        case SQLITE_DONE: return nil
        case let code: throw error(code)
        }
    }

    /// Runs a query and returns every row's first two integer columns.
    func pairs() throws -> [(Int64, Int64)] {
        var rows: [(Int64, Int64)] = []
        try forEachRow { row in rows.append((sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1))) }
        return rows
    }

    /// Runs a query and calls `body` with the statement at each row, to read its columns (`sqlite3_column_…`).
    func forEachRow(_ body: (SQLiteStatement) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: try body(handle)
            case SQLITE_DONE: return
            case let code: throw error(code)
            }
        }
    }

    private func error(_ code: Int32) -> DatabaseError {
        let message = db.sqliteConnection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                             message: message ?? "SQLite error \(code)", sql: statement.sql)
    }
}
