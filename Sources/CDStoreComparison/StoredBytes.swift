import CDStoreEngine
import CDStoreJSON
import Foundation
internal import GRDB
internal import GRDBSQLite

/// Stored values as self-delimiting bytes: a tag (SQLite's storage class), then the value.
///
/// A store diff reads millions of rows; turning every value into an ``ObjectValue`` only to find it equal would
/// cost more than reading it. Rows are kept as these bytes instead, so that equal rows compare with one `memcmp`,
/// and only the fields of rows whose bytes differ are decoded (``DiffValues``). The same bytes order keys as
/// SQLite's `ORDER BY` does (``compare(_:_:)``), which the merge join relies on.
///
/// | tag | value |
/// |---|---|
/// | 0 | NULL |
/// | 1 | INTEGER: 8 bytes, little-endian |
/// | 2 | REAL: the Double's 8 bytes, little-endian |
/// | 3 | TEXT: a 4-byte length, then the UTF-8 bytes |
/// | 4 | BLOB: a 4-byte length, then the bytes |
/// | 5 | a to-one: a 4-byte length, then the related object's identity |
/// | 6 | a to-many: a 4-byte count, then each identity with its 4-byte length |
enum StoredBytes {
    static let null: UInt8 = 0, integer: UInt8 = 1, real: UInt8 = 2, text: UInt8 = 3, blob: UInt8 = 4
    static let toOne: UInt8 = 5, toMany: UInt8 = 6

    // MARK: - Writing

    /// Appends column `index` of the current row of `statement`, exactly as SQLite stores it.
    static func appendColumn(_ statement: OpaquePointer, _ index: Int32, to out: inout [UInt8]) {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            appendInteger(sqlite3_column_int64(statement, index), to: &out)
        case SQLITE_FLOAT:
            out.append(real)
            appendWord(sqlite3_column_double(statement, index).bitPattern, to: &out)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            out.append(text)
            appendLength(count, to: &out)
            if let bytes = sqlite3_column_text(statement, index) { out.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            out.append(blob)
            appendLength(count, to: &out)
            if let bytes = sqlite3_column_blob(statement, index) {
                out.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
            }
        default:
            out.append(null)
        }
    }

    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        out.append(integer)
        appendWord(UInt64(bitPattern: value), to: &out)
    }

    static func appendLength(_ count: Int, to out: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian) { out.append(contentsOf: $0) }
    }

    /// A length-prefixed piece of bytes (an identity inside a relationship value).
    static func appendPiece(_ piece: [UInt8], to out: inout [UInt8]) {
        appendLength(piece.count, to: &out)
        out.append(contentsOf: piece)
    }

    private static func appendWord(_ value: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    // MARK: - Reading

    static func length(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
        return value
    }

    /// Where the value starting at `offset` ends.
    static func end(of bytes: [UInt8], at offset: Int) -> Int {
        switch bytes[offset] {
        case integer, real: return offset + 9
        case text, blob, toOne: return offset + 5 + length(bytes, at: offset + 1)
        case toMany:
            var position = offset + 5
            for _ in 0..<length(bytes, at: offset + 1) { position += 4 + length(bytes, at: position) }
            return position
        default: return offset + 1
        }
    }

    /// The ranges of the consecutive values in `bytes`.
    static func ranges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count {
            let end = end(of: bytes, at: offset)
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }

    /// The stored value (tags 0–4) at `offset`.
    static func databaseValue(_ bytes: [UInt8], at offset: Int) -> DatabaseValue {
        switch bytes[offset] {
        case integer: return Int64(bitPattern: word(bytes, at: offset + 1)).databaseValue
        case real: return Double(bitPattern: word(bytes, at: offset + 1)).databaseValue
        case text:
            let count = length(bytes, at: offset + 1)
            return String(decoding: bytes[(offset + 5)..<(offset + 5 + count)], as: UTF8.self).databaseValue
        case blob:
            let count = length(bytes, at: offset + 1)
            return Data(bytes[(offset + 5)..<(offset + 5 + count)]).databaseValue
        default: return .null
        }
    }

    /// The length-prefixed pieces of a relationship value at `offset`: none (NULL), one (tag 5), or each of a
    /// to-many (tag 6).
    static func pieces(_ bytes: [UInt8], at offset: Int) -> [[UInt8]] {
        switch bytes[offset] {
        case toOne: return [Array(bytes[(offset + 5)..<(offset + 5 + length(bytes, at: offset + 1))])]
        case toMany:
            var pieces: [[UInt8]] = []
            var position = offset + 5
            for _ in 0..<length(bytes, at: offset + 1) {
                let count = length(bytes, at: position)
                pieces.append(Array(bytes[(position + 4)..<(position + 4 + count)]))
                position += 4 + count
            }
            return pieces
        default: return []
        }
    }

    // MARK: - Ordering

    /// Orders identities (``DiffIdentities``) by their key values, then by entity, so that the objects of a to-many
    /// relationship show in key order.
    static func identityPrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let order = compare(a, b, from: 4 + length(a, at: 0), to: 4 + length(b, at: 0))
        return order != 0 ? order < 0 : a.lexicographicallyPrecedes(b)
    }

    /// Compares two sequences of stored values as SQLite's `ORDER BY` orders rows by them (ascending, BINARY
    /// collation): NULL first, then numbers by value (INTEGER and REAL alike), then TEXT and BLOB byte by byte.
    /// `from` and `to` skip bytes at the start of `a` and `b`.
    static func compare(_ a: [UInt8], _ b: [UInt8], from start: Int = 0, to other: Int = 0) -> Int {
        var i = start, j = other
        while i < a.count && j < b.count {
            let order = compareValue(a, i, b, j)
            if order != 0 { return order }
            i = end(of: a, at: i)
            j = end(of: b, at: j)
        }
        return i < a.count ? 1 : j < b.count ? -1 : 0
    }

    private static func storageRank(_ tag: UInt8) -> Int {
        switch tag {
        case null: 0
        case integer, real: 1
        case text: 2
        default: 3
        }
    }

    private static func compareValue(_ a: [UInt8], _ i: Int, _ b: [UInt8], _ j: Int) -> Int {
        let (rankA, rankB) = (storageRank(a[i]), storageRank(b[j]))
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch rankA {
        case 0:
            return 0
        case 1:
            if a[i] == integer && b[j] == integer {
                let (x, y) = (Int64(bitPattern: word(a, at: i + 1)), Int64(bitPattern: word(b, at: j + 1)))
                return x < y ? -1 : x > y ? 1 : 0
            }
            let x = a[i] == integer ? Double(Int64(bitPattern: word(a, at: i + 1))) : Double(bitPattern: word(a, at: i + 1))
            let y = b[j] == integer ? Double(Int64(bitPattern: word(b, at: j + 1))) : Double(bitPattern: word(b, at: j + 1))
            return x < y ? -1 : x > y ? 1 : 0
        default:
            let (countA, countB) = (length(a, at: i + 1), length(b, at: j + 1))
            for k in 0..<min(countA, countB) where a[i + 5 + k] != b[j + 5 + k] {
                return a[i + 5 + k] < b[j + 5 + k] ? -1 : 1
            }
            return countA < countB ? -1 : countA > countB ? 1 : 0
        }
    }
}
