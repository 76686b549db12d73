/// A JSON value with the line and column where it starts, and numbers kept as written: what a reader of
/// hand-edited files (cdstore's JSON model) needs to point at the exact place of a problem.
///
/// ```swift
/// var reader = JSONReader(ByteStream(text), options: .strict)
/// let root = try reader.readNode()
/// try reader.expectEnd()
/// ```
public struct JSONNode: Sendable {
    /// The value itself.
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        /// A number, as written.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order.
        case object([(key: String, value: JSONNode)])
    }

    public var kind: Kind
    /// The 1-based line of the value's first byte.
    public var line: Int
    /// The 1-based byte column of the value's first byte.
    public var column: Int

    public init(_ kind: Kind, at location: JSONLocation) {
        self.kind = kind
        line = location.line
        column = location.column
    }

    /// The name of the JSON type, for messages ("a string", "an object", "the number 1.5").
    public var typeDescription: String {
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
