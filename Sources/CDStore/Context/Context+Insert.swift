import CDStoreIO
import CDStoreJSON
import CDStoreEngine
import Foundation

/// Where the records of an insert come from (``CDStore/Context/insert(_:into:options:)``).
public enum RecordsInput: Sendable {
    /// A JSON (one object or an array), NDJSON or CSV file, read as a stream in bounded chunks (so it may be a
    /// pipe: `/dev/stdin`); `format` nil picks it by the extension (`.ndjson`/`.jsonl`, `.csv`, else JSON), and
    /// `root` is the key path of the records inside a JSON document (`["response", "venues"]`).
    case file(URL, format: RecordInput.Format? = nil, root: [String] = [])
    /// Text in one of those formats.
    case text(String, format: RecordInput.Format, root: [String] = [])
    /// One record of `KEY=VALUE` texts, each value typed by its attribute (`age=34`, `hiredAt=2024-05-01`).
    case assignments([String])
}

extension CDStore.Context {
    /// Inserts the records `input` gives as new objects of `entity`, read one at a time as they are stored, and says
    /// how many were stored (and skipped, with ``InsertOptions/skipInvalid``, and which input keys were ignored).
    ///
    /// ```swift
    /// try store.write { ctx in
    ///     try ctx.insert(.file(URL(fileURLWithPath: "people.ndjson")), into: "Person")
    ///     try ctx.insert(.assignments(["firstName=Ann", "age=34"]), into: "Person")
    /// }
    /// ```
    ///
    /// Records are read as `cdstore insert` reads them: values by the attribute's type, nested objects,
    /// `{"_ref": {…}}` and object IDs for relationships, `"_entity"` for a sub-entity. A failure names the record
    /// and its line; nothing is written unless everything is (or with ``InsertOptions/skipInvalid``, every valid
    /// record).
    ///
    /// Core Data equivalent: an import loop inserting objects, then `save()` — or `NSBatchInsertRequest`, validated.
    @discardableResult
    public func insert(_ input: RecordsInput, into entity: String, options: InsertOptions = .init()) throws -> InsertSummary {
        try perform(writing: true) {
            var source: any RecordSource
            var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            switch input {
            case .file(let url, let format, let root):
                source = RecordInput.reader(try ByteStream(path: url.path),
                                            format: format ?? RecordInput.format(forFile: url.path) ?? .json, root: root)
                if url.path != "/dev/stdin" { folder = url.deletingLastPathComponent() }
            case .text(let text, let format, let root):
                source = RecordInput.reader(ByteStream(text), format: format, root: root)
            case .assignments(let texts):
                source = SequenceRecordSource([try RecordInput.record(fromAssignments: texts)])
            }
            return try store.insert(from: &source, into: entity, options: try options.settings(store.model, baseDirectory: folder))
        }
    }
}
