import GRDB

/// A piece of SQL with its bound values. User text only ever travels in ``arguments``; ``sql`` is built from
/// the model's table and column names and fixed keywords.
public struct SQLFragment: Sendable, Equatable {
    /// SQL text with `?` placeholders.
    public var sql: String
    /// The values bound to the placeholders, in order.
    public var arguments: [DatabaseValue]

    /// Creates a fragment.
    public init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Both fragments joined by `separator`.
    public static func join(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), parts.flatMap(\.arguments))
    }
}
