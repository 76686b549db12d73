import CDStoreJSON

/// A value as it arrives from JSON, NDJSON, CSV or a `KEY=VALUE` argument, before the model gives it a type.
///
/// CSV fields and `KEY=VALUE` arguments arrive as ``JSONValue/string(_:)``; JSON keeps its own types. Integers that
/// fit in 64 bits stay exact (``JSONValue/integer(_:)``).
package typealias InputValue = JSONValue

/// One record to insert: its fields in input order, and where it came from.
package struct InputRecord: Sendable {
    /// The fields, in input order.
    package var fields: [(String, InputValue)]
    /// The input line it started on (NDJSON, CSV, JSON when known).
    package var line: Int?
    /// The entity named by a `"_entity"` field, if any.
    package var entityName: String?

    /// Creates a record.
    package init(fields: [(String, InputValue)], line: Int? = nil, entityName: String? = nil) {
        self.fields = fields
        self.line = line
        self.entityName = entityName
    }
}
