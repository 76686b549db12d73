/// A JSON value with the line and column where it starts, and numbers kept as written: what a reader of
/// hand-edited files (cdstore's JSON model) needs to point at the exact place of a problem.
///
/// ```swift
/// var reader = JSONReader(ByteStream(text), options: .strict)
/// let root = try reader.readNode()
/// try reader.expectEnd()
/// ```
package struct JSONNode: Sendable {
    /// The value itself.
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        /// A number, as written.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order.
        case object([(key: String, value: JSONNode)])
    }

    package var kind: Kind
    /// The 1-based line of the value's first byte.
    package var line: Int
    /// The 1-based byte column of the value's first byte.
    package var column: Int

    package init(_ kind: Kind, at location: JSONLocation) {
        self.kind = kind
        line = location.line
        column = location.column
    }

    /// The name of the JSON type, for messages ("a string", "an object", "the number 1.5").
    package var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
