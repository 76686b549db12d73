import CDStoreJSON
internal import GRDB

/// A piece of SQL with its bound values. User text only ever travels in ``arguments``; ``sql`` is built from
/// the model's table and column names and fixed keywords.
struct SQLFragment: Sendable, Equatable {
    /// SQL text with `?` placeholders.
    var sql: String
    /// The values bound to the placeholders, in order.
    var arguments: [DatabaseValue]

    /// Creates a fragment.
    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Both fragments joined by `separator`.
    static func join(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), parts.flatMap(\.arguments))
    }
}
