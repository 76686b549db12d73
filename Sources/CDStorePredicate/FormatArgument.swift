import Foundation

/// A positional argument for a `%` specifier, bound at parse time.
///
/// Typed cases come from code; ``text(_:)`` is an untyped string as given on a command line (`--arg 42`),
/// and the specifier decides what it means:
///
/// | specifier | accepts | becomes |
/// |---|---|---|
/// | `%K` | `.keyPath`, `.text`, `.string` | a key path (split at dots) |
/// | `%@` | anything but `.keyPath` | a constant; `.text("42")` stays the *string* "42" (the SQL layer coerces it by the attribute type) |
/// | `%d %i %u %x %X %o %D %U %O` (+ length modifiers) | `.int`, `.bool`, a `.text`/`.string` that is an integer | `.int` |
/// | `%f %e %g %a` (and capitals) | `.double`, `.int`, a `.text`/`.string` that is a number | `.double` |
/// | `%c %C` | `.int` (a code point) or one-character text | a one-character string |
/// | `%s %S` | `.text`, `.string` | a string |
package enum FormatArgument: Equatable, Sendable {
    /// An untyped command-line string, interpreted by its specifier (see the table above).
    case text(String)
    /// A string value.
    case string(String)
    /// An integer value.
    case int(Int64)
    /// A floating-point value.
    case double(Double)
    /// A boolean value (1 or 0 for numeric specifiers).
    case bool(Bool)
    /// A date value.
    case date(Date)
    /// Nil (`NSNull`).
    case null
    /// A collection, e.g. for `IN %@` or `BETWEEN %@`.
    case array([PredicateValue])
    /// Any constant value.
    case value(PredicateValue)
    /// A key path for `%K`, dotted (`department.name`).
    case keyPath(String)
}

extension FormatArgument {
    /// The key path a `%K` argument names; `column` is where the specifier is, for errors.
    func boundKeyPath(_ spec: FormatSpecifier, column: Int) throws(CDPredicateError) -> PredicateKeyPath {
        switch self {
        case .keyPath(let s), .text(let s), .string(let s):
            guard !s.isEmpty, !s.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
            else { break }
            return PredicateKeyPath(s)
        default: break
        }
        throw CDPredicateError(.argumentMismatch, "\(spec.spelling) needs a key path, got \(summary)", column: column)
    }

    /// Converts the argument for `spec`; `column` is where the specifier is, for errors.
    func bind(to spec: FormatSpecifier, column: Int) throws(CDPredicateError) -> ExpressionNode {
        func mismatch(_ wanted: String) -> CDPredicateError {
            CDPredicateError(.argumentMismatch, "\(spec.spelling) needs \(wanted), got \(summary)", column: column)
        }
        switch spec.conversion {
        case "K": return .keyPath(try boundKeyPath(spec, column: column))
        case "@":
            switch self {
            case .text(let s), .string(let s): return .constant(.string(s))
            case .int(let i): return .constant(.int(i))
            case .double(let d): return .constant(.double(d))
            case .bool(let b): return .constant(.bool(b))
            case .date(let d): return .constant(.date(d))
            case .null: return .constant(.null)
            case .array(let a): return .constant(.array(a))
            case .value(let v): return .constant(v)
            case .keyPath: throw mismatch("a value (use %K for a key path)")
            }
        case "d", "D", "i", "u", "U", "o", "O", "x", "X":
            switch self {
            case .int(let i): return .constant(.int(i))
            case .bool(let b): return .constant(.int(b ? 1 : 0))
            case .value(.int(let i)): return .constant(.int(i))
            case .text(let s), .string(let s):
                guard let i = Int64(s.trimmingCharacters(in: .whitespaces)) else { throw mismatch("an integer") }
                return .constant(.int(i))
            default: throw mismatch("an integer")
            }
        case "f", "F", "e", "E", "g", "G", "a", "A":
            switch self {
            case .double(let d), .value(.double(let d)): return .constant(.double(d))
            case .int(let i), .value(.int(let i)): return .constant(.double(Double(i)))
            case .text(let s), .string(let s):
                guard let d = Double(s.trimmingCharacters(in: .whitespaces)) else { throw mismatch("a number") }
                return .constant(.double(d))
            default: throw mismatch("a number")
            }
        case "c", "C":
            switch self {
            case .int(let i):
                guard let u = UInt32(exactly: i), let scalar = Unicode.Scalar(u) else { throw mismatch("a character") }
                return .constant(.string(String(scalar)))
            case .text(let s) where s.count == 1, .string(let s) where s.count == 1:
                return .constant(.string(s))
            default: throw mismatch("a character")
            }
        default: // "s", "S"
            switch self {
            case .text(let s), .string(let s): return .constant(.string(s))
            default: throw mismatch("a string")
            }
        }
    }

    /// A short description for error messages, e.g. `text "abc"`.
    var summary: String {
        switch self {
        case .text(let s): return "text \"\(s)\""
        case .string(let s): return "string \"\(s)\""
        case .int(let i): return "integer \(i)"
        case .double(let d): return "number \(d)"
        case .bool(let b): return "boolean \(b)"
        case .date(let d): return "date \(d)"
        case .null: return "null"
        case .array(let a): return "array of \(a.count)"
        case .value(let v): return "value \(v)"
        case .keyPath(let k): return "key path \(k)"
        }
    }
}
