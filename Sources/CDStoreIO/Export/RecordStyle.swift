import CDStoreEngine
import CDStoreJSON
/// How ``Store/writeRecords(_:style:to:)`` frames the records it streams: the syntax of one record and the
/// bytes around and between records. The framing is the caller's (a JSON array, a graph document, NDJSON, a
/// CSV file after its header); the records are the store's.
package struct RecordStyle: Sendable {
    /// The syntax of one record.
    package enum Syntax: Sendable, Equatable {
        /// A JSON object: `_id`, `_entity` when ``nameEntity`` is set, then attributes and relationships.
        case json
        /// A CSV line of the values of these columns, in order (a column the object lacks is an empty field).
        case csv(columns: [String])
    }

    /// The syntax of one record.
    package var syntax: Syntax
    /// JSON: write `"_entity"` after `"_id"`.
    package var nameEntity: Bool
    /// Written before the first record.
    package var first: String
    /// Written before every record after the first.
    package var separator: String
    /// Written after every record.
    package var terminator: String

    /// A style; by default records follow each other with nothing between them.
    package init(syntax: Syntax, nameEntity: Bool = false, first: String = "", separator: String = "",
                terminator: String = "") {
        self.syntax = syntax
        self.nameEntity = nameEntity
        self.first = first
        self.separator = separator
        self.terminator = terminator
    }
}
