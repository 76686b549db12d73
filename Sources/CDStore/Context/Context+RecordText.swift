import CDStoreIO
import CDStoreJSON
import CDStoreSQLite
import Foundation

extension CDStore.Context {
    /// Where the records of an insert come from when a command line gives them: a file (standard input is the
    /// file `/dev/stdin`, read as a stream), text, or one record of `KEY=VALUE` texts.
    package enum RecordText {
        /// A JSON, NDJSON or CSV file, and for JSON the key path of the records inside the document.
        case file(URL, format: RecordInput.Format, root: [String])
        /// Text in a record format (JSON: one object or an array; NDJSON), with the key path of the records
        /// inside a JSON document.
        case text(String, format: RecordInput.Format, root: [String])
        /// One record of `KEY=VALUE` texts, each value typed by its attribute.
        case assignments([String])
    }

    /// Inserts the records `input` gives as new objects of `entity`, read one at a time as they are stored: what
    /// ``insert(fromFile:format:into:options:)`` does, for the forms a command line takes besides a file, and
    /// with the JSON mapping and unknown-key policy of `options` (``InsertOptions`` holds them as `package`).
    @discardableResult
    package func insert(_ input: RecordText, into entity: String, options: InsertOptions) throws -> InsertSummary {
        try perform(writing: true) {
            var source: any RecordSource
            switch input {
            case .file(let url, let format, let root):
                source = RecordInput.reader(try ByteStream(path: url.path), format: format, root: root)
            case .text(let text, let format, let root):
                source = RecordInput.reader(ByteStream(text), format: format, root: root)
            case .assignments(let texts):
                source = SequenceRecordSource([try RecordInput.record(fromAssignments: texts)])
            }
            return try store.insert(from: &source, into: entity, options: options)
        }
    }

    /// The format a file's extension names (`.ndjson`/`.jsonl`, `.csv`, `.json`), nil for another extension.
    package static func recordFormat(forFile path: String) -> RecordInput.Format? {
        RecordInput.format(forFile: path)
    }
}
