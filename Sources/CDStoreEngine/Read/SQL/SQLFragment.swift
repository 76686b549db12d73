import CDStoreJSON
package import GRDB

/// A piece of SQL with its bound values. User text only ever travels in ``arguments``; ``sql`` is built from
/// the model's table and column names and fixed keywords.
package struct SQLFragment: Sendable, Equatable {
    /// SQL text with `?` placeholders.
    package var sql: String
    /// The values bound to the placeholders, in order.
    package var arguments: [DatabaseValue]

    /// Creates a fragment.
    package init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// Both fragments joined by `separator`.
    static func join(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), parts.flatMap(\.arguments))
    }
}
