import CDStoreJSON
internal import GRDB
import Foundation
internal import GRDBSQLite

/// A scalar SQL function whose text arguments and text result keep their byte length.
///
/// GRDB's `DatabaseFunction` reads text arguments with `String(cString:)` and returns text with length -1, so
/// `uppercase:(str)` in an update, or a `[c]` comparison, cut a string at its first NUL. Errors are reported as
/// GRDB reports them, so that callers see the same messages.
enum ExactFunction {
    typealias Body = ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?

    fileprivate final class Box {
        let body: Body
        init(_ body: @escaping Body) { self.body = body }
    }

    /// Registers `name` with `argumentCount` arguments on `db`, deterministic (GRDB's `pure: true`).
    static func register(on db: Database, _ name: String, argumentCount: Int32, _ body: @escaping Body) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let box = Unmanaged<Box>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                let arguments = (0..<Int(count)).map { ExactFunction.argument(values![$0]!) }
                do {
                    ExactFunction.result(try box.body(arguments)?.databaseValue ?? .null, context)
                } catch let error as DatabaseError {
                    if let message = error.message { sqlite3_result_error(context, message, -1) }
                    sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { box in Unmanaged<Box>.fromOpaque(box!).release() })
        // Only a misuse (a bad name or argument count) fails, which tests catch at once.
        assert(code == SQLITE_OK, "cannot register SQL function \(name): \(code)")
    }

    /// An argument; TEXT with every byte (invalid UTF-8 repaired with U+FFFD, as GRDB does).
    fileprivate static func argument(_ value: OpaquePointer) -> DatabaseValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return sqlite3_value_int64(value).databaseValue
        case SQLITE_FLOAT: return sqlite3_value_double(value).databaseValue
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return "".databaseValue }
            let count = Int(sqlite3_value_bytes(value))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self).databaseValue
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard let bytes = sqlite3_value_blob(value) else { return Data().databaseValue }
            return Data(bytes: bytes, count: count).databaseValue
        default: return .null
        }
    }

    fileprivate static func result(_ value: DatabaseValue, _ context: OpaquePointer?) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch value.storage {
        case .null: sqlite3_result_null(context)
        case .int64(let i): sqlite3_result_int64(context, i)
        case .double(let d): sqlite3_result_double(context, d)
        case .string(var text):
            text.withUTF8 { bytes in
                let base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                sqlite3_result_text64(context, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                      UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
            }
        case .blob(let data):
            data.withUnsafeBytes { bytes in
                sqlite3_result_blob64(context, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, UInt64(bytes.count), transient)
            }
        }
    }
}
