/// A JSON value as cdstore reads it from records: objects keep their keys in input order (and duplicates), and
/// integers that fit in 64 bits stay exact.
///
/// CDStoreEngine calls it `InputValue`, the value of a record field before the model gives it a type; CSV
/// fields and `KEY=VALUE` arguments arrive as ``string(_:)``.
///
/// ```swift
/// let value = try JSONReader.parse(#"{"id": 9007199254740993, "name": "Ann"}"#)
/// // .object([("id", .integer(9007199254740993)), ("name", .string("Ann"))])
/// ```
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number (a fraction, an exponent, or an integer too large for 64 bits).
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in input order; a key may appear twice.
    case object([(String, JSONValue)])

    /// Structural equality; object members compare in order, and NaN equals NaN so that values round-trip.
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A short description of the value for error messages (`'abc'`, `12`, `an array`).
    package var summary: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .double(let d): String(d)
        case .string(let s): "'" + (s.count > 40 ? String(s.prefix(40)) + "…" : s) + "'"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
