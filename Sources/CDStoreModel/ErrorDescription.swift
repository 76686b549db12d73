/// The one way every layer's errors say where and what went wrong: the place (a model file's `file:line:column`,
/// or a data file with its record and line), the subject (`entity 'E', attribute 'a'`), the input's name (the
/// library's label, or a command line's option), then the message, joined by `: `.
///
/// `StoreError`, ``ModelError``, the record readers' errors and `CDStoreError` each fill one in from their fields,
/// so that an error reads the same whichever layer threw it and whichever type carries it.
package struct ErrorDescription {
    /// The file the error is in: a model file (shown `file:line:column`) or, with ``fileIsData``, a data file
    /// (shown `file: record 2 (line 3)`).
    package var file: String?
    /// Whether ``file`` is a data file of records rather than a model file.
    package var fileIsData = false
    /// The input record (1-based).
    package var record: Int?
    /// The line, in ``file`` or in the input.
    package var line: Int?
    /// The column, in a model file.
    package var column: Int?
    /// The entity concerned.
    package var entity: String?
    /// The property concerned.
    package var property: String?
    /// How the property is named: `attribute`, `relationship`, or `property` when the error does not know which.
    package var propertyKind = "attribute"
    /// Whether a property without an entity is named on its own (`'payload': …`), as the library's errors do.
    package var namesPropertyAlone = false
    /// What names the input: the library's label or a command line's option; nil to leave it out.
    package var inputName: String?
    /// What went wrong.
    package var message: String

    /// A description of `message` with nothing else known yet.
    package init(_ message: String) {
        self.message = message
    }

    /// The one line: place, subject, input name and message.
    package var text: String {
        var parts: [String] = []
        let recordPlace: String? = if let record {
            "record \(record)" + (line.map { " (line \($0))" } ?? "")
        } else {
            line.map { "line \($0)" }
        }
        if let file, fileIsData {
            parts.append(file)
            if let recordPlace { parts.append(recordPlace) }
        } else if let file {
            parts.append(file + (line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? ""))
        } else if let recordPlace {
            parts.append(recordPlace)
        }
        if let entity {
            parts.append("entity '\(entity)'" + (property.map { ", \(propertyKind) '\($0)'" } ?? ""))
        } else if let property, namesPropertyAlone {
            parts.append("'\(property)'")
        }
        if let inputName { parts.append(inputName) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
