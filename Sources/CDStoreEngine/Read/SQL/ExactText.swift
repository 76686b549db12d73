import CDStoreJSON
import Foundation
package import GRDB
internal import GRDBSQLite

/// Text in and out of SQLite with its byte length, so that a NUL character inside a string is kept.
///
/// GRDB binds a `String` with `sqlite3_bind_text(…, -1, …)` and reads one with `String(cString:)`: both end the
/// text at its first NUL. `"nul\u{0}byte"` (valid JSON, valid SQLite TEXT) was stored as `nul`. Every path that
/// writes or reads attribute values goes through these functions instead.
enum ExactText {
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `text` to the 1-based parameter `index` with its UTF-8 byte length.
    @discardableResult
    static func bind(_ text: String, to statement: SQLiteStatement, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // A non-nil pointer even for "", which SQLite would otherwise bind as NULL.
            let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            return sqlite3_bind_text64(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                       UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
        }
    }

    /// Binds `value` to the 1-based parameter `index`: text with its byte length, blobs as they are (an empty one
    /// as an empty blob, not NULL). SQLite copies text and blobs (`SQLITE_TRANSIENT`).
    static func bind(_ value: DatabaseValue, to statement: SQLiteStatement, at index: Int32) {
        switch value.storage {
        case .null: sqlite3_bind_null(statement, index)
        case .int64(let i): sqlite3_bind_int64(statement, index, i)
        case .double(let d): sqlite3_bind_double(statement, index, d)
        case .string(let s): bind(s, to: statement, at: index)
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob64(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                                        UInt64(bytes.count), transient)
            }
        }
    }

    /// The value of column `index` (0-based) of the current row of `statement`; TEXT is read with its byte length
    /// (invalid UTF-8 is repaired with U+FFFD, as GRDB does). Other storage classes are read by GRDB.
    static func value(_ statement: SQLiteStatement, at index: Int32) -> DatabaseValue {
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT else {
            return DatabaseValue(sqliteStatement: statement, index: index)
        }
        return string(statement, at: index).databaseValue
    }

    /// The TEXT of column `index` (0-based), every byte of it.
    static func string(_ statement: SQLiteStatement, at index: Int32) -> String {
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Statement {
    /// Sets `values` as the statement's arguments, each bound exactly (``ExactText/bind(_:to:at:)``). Run the
    /// statement afterwards without arguments (`execute()`, `Row.fetchCursor(statement)`), which keeps them.
    ///
    /// GRDB is told the statement is bound (`setUncheckedArguments` with no values) and the values are bound here:
    /// building a `StatementArguments` boxes every value, 15k instructions a call, paid once per object by updates,
    /// merges and `_ref` lookups (docs/decisions/0013-bulk-load-speed.md). A count that does not fit the statement
    /// goes to GRDB's `setArguments`, for its error.
    package func setExactArguments(_ values: [DatabaseValue]) throws {
        guard values.count == Int(sqlite3_bind_parameter_count(sqliteStatement)) else {
            try setArguments(StatementArguments(values))
            return
        }
        // A step that failed leaves its error for the next reset, which GRDB's would turn into a crash.
        sqlite3_reset(sqliteStatement)
        setUncheckedArguments(StatementArguments())
        for (offset, value) in values.enumerated() { ExactText.bind(value, to: sqliteStatement, at: Int32(offset + 1)) }
    }
}

extension Database {
    /// Runs `sql` with `values` bound exactly (``Statement/setExactArguments(_:)``).
    func executeExactly(sql: String, values: [DatabaseValue]) throws {
        let statement = try cachedStatement(sql: sql)
        try statement.setExactArguments(values)
        try statement.execute()
    }

    /// The rows of `sql` with `values` bound exactly, each row's columns read exactly (``ExactText/value(_:at:)``).
    func fetchExactRows(sql: String, values: [DatabaseValue]) throws -> [[DatabaseValue]] {
        let statement = try makeStatement(sql: sql)
        try statement.setExactArguments(values)
        let cursor = try Row.fetchCursor(statement)
        let handle = statement.sqliteStatement
        let count = sqlite3_column_count(handle)
        var rows: [[DatabaseValue]] = []
        while try cursor.next() != nil {
            rows.append((0..<count).map { ExactText.value(handle, at: $0) })
        }
        return rows
    }
}
