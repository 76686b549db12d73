import Foundation

/// A value as it arrives from JSON, NDJSON, CSV or a `KEY=VALUE` argument, before the model gives it a type.
///
/// CSV fields and `KEY=VALUE` arguments arrive as ``string(_:)``; JSON keeps its own types. Integers that
/// fit in 64 bits stay exact (``integer(_:)``).
public enum InputValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([InputValue])
    case object([(String, InputValue)])

    public static func == (lhs: InputValue, rhs: InputValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)): a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A short description of the value for error messages (`"abc"`, `12`, `an array`).
    public var summary: String {
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

/// One record to insert: its fields in input order, and where it came from.
public struct InputRecord: Sendable {
    /// The fields, in input order.
    public var fields: [(String, InputValue)]
    /// The input line it started on (NDJSON, CSV, JSON when known).
    public var line: Int?
    /// The entity named by a `"_entity"` field, if any.
    public var entityName: String?

    /// Creates a record.
    public init(fields: [(String, InputValue)], line: Int? = nil, entityName: String? = nil) {
        self.fields = fields
        self.line = line
        self.entityName = entityName
    }
}
