import CDStoreJSON
import CDStorePredicate
internal import GRDB

/// `name BEGINSWITH 'A'`, `ENDSWITH` and `CONTAINS` without options, compiled to SQLite's own `GLOB` instead of a
/// call into Swift (``SQLFunctions/stringCompare``) per row, which made such counts half as slow again as the SQL.
///
/// Without options the operators compare UTF-8 bytes (``PredicateStringMatching``), and so does `GLOB` on text:
/// the two agree whenever the needle is ASCII. ASCII bytes of stored text read as themselves both in SQLite and in
/// Swift's repair of invalid UTF-8, and nothing else reads as ASCII in either, so even invalid text gives the same
/// answer. A BLOB in a string column is text to `GLOB` but only valid UTF-8 to the function, and `GLOB` stops at a
/// NUL inside text: both keep the function.
enum StringGlob {
    static func fragment(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: Operand,
                         _ right: Operand) -> SQLFragment? {
        guard op == .beginsWith || op == .endsWith || op == .contains, !options.isStringFolding,
              let attribute = left.attribute, attribute.type == .string || attribute.type == .uri,
              left.arguments.isEmpty, isColumn(left.sql), right.sql == "?", right.arguments.count == 1,
              case .string(let needle) = right.arguments[0].storage,
              needle.utf8.allSatisfy({ $0 != 0 && $0 < 0x80 }) else { return nil }
        var escaped = ""
        for character in needle.unicodeScalars {
            switch character {
            case "*", "?", "[": escaped += "[\(character)]"
            default: escaped.unicodeScalars.append(character)
            }
        }
        let pattern = switch op {
        case .beginsWith: escaped + "*"
        case .endsWith: "*" + escaped
        default: "*" + escaped + "*"
        }
        let column = left.sql
        // GLOB reads text as a C string, up to its first NUL; text holding a NUL (found by `instr`, which reads
        // every byte) keeps the function, which sees the whole string as it is read back.
        return SQLFragment("(CASE WHEN typeof(\(column)) = 'blob' OR instr(\(column), char(0)) > 0 THEN \(SQLFunctions.stringCompare)('\(op.rawValue)', "
                           + "\(options.rawValue), \(column), ?) ELSE \(column) GLOB ? END)",
                           [needle.databaseValue, pattern.databaseValue])
    }

    /// `t.ZNAME`: a plain column, cheap to name twice (a to-one key path's subquery is not).
    private static func isColumn(_ sql: String) -> Bool {
        let parts = sql.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39)
                || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
        }
    }
}
