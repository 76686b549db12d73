import CDStoreJSON
import Foundation
internal import GRDB
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
    /// Sets `values` as the statement's arguments (checked by GRDB), then binds again every string that holds a
    /// NUL, with its byte length. Run the statement afterwards without arguments (`execute()`,
    /// `Row.fetchCursor(statement)`), which keeps these bindings.
    func setExactArguments(_ values: [DatabaseValue]) throws {
        try setArguments(StatementArguments(values))
        for (offset, value) in values.enumerated() {
            if case .string(let text) = value.storage, text.utf8.contains(0) {
                ExactText.bind(text, to: sqliteStatement, at: Int32(offset + 1))
            }
        }
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
