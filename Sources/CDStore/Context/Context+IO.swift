import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreIO
import CDStoreSQLite
import Foundation

extension CDStore.Context {
    /// Inserts the records of a JSON (one object or an array), NDJSON or CSV file as new objects of `entity`,
    /// read one at a time as they are stored, and says how many were stored (and skipped, with
    /// ``InsertOptions/skipInvalid``).
    ///
    /// `format` nil picks it by the file's extension (`.ndjson`/`.jsonl`, `.csv`, else JSON). Records are read
    /// as `cdstore insert` reads them: values by the attribute's type, nested objects, `{"_ref": {…}}` and
    /// object IDs for relationships, `"_entity"` for a sub-entity. A failure names the record and its line.
    ///
    /// Core Data equivalent: an import loop inserting objects, then `save()` — or `NSBatchInsertRequest`,
    /// validated.
    @discardableResult
    public func insert(fromFile url: URL, format: RecordInput.Format? = nil, into entity: String,
                       options: InsertOptions = .init()) throws -> InsertSummary {
        try perform(writing: true) {
            var source = RecordInput.reader(try ByteStream(path: url.path), format: format ?? RecordInput.format(forFile: url.path) ?? .json)
            return try store.insert(from: &source, into: entity, options: options)
        }
    }



    /// Reads a whole-graph export (a graph document or NDJSON lines naming their entity) into the store and
    /// returns the number of objects created; relationships are restored from the object IDs in it.
    ///
    /// The file is read as a stream, so it may be a pipe (`/dev/stdin`, as `cdstore import` reads standard
    /// input); `progress` is called as records are read (``InsertProgress``).
    @discardableResult
    public func importGraph(from url: URL, progress: (@Sendable (InsertProgress) -> Void)? = nil) throws -> Int {
        try perform(writing: true) {
            var source = try GraphInput.reader(try ByteStream(path: url.path))
            return try store.importGraph(from: &source, progress: progress)
        }
    }

    /// Writes every object (of `entities`, default all) to `url` as a graph document or NDJSON, from this
    /// transaction's snapshot, and returns how many were written. ``importGraph(from:progress:)`` reads it back.
    @discardableResult
    public func exportGraph(to url: URL, as shape: GraphExport.Shape = .document, entities: [String]? = nil) throws -> Int {
        try perform {
            let sink = try FileSink(path: url.path)
            let count = try GraphExport.write(store, as: shape, entities: entities, to: sink)
            try sink.close()
            return count
        }
    }
}

extension CDStore {
    /// Inserts the records of a JSON, NDJSON or CSV file, in a write transaction of its own; see
    /// ``Context/insert(fromFile:format:into:options:)``.
    @discardableResult
    public func insert(fromFile url: URL, format: RecordInput.Format? = nil, into entity: String,
                       options: InsertOptions = .init()) throws -> InsertSummary {
        try write { ctx in try ctx.insert(fromFile: url, format: format, into: entity, options: options) }
    }



    /// Reads a whole-graph export into the store, in a write transaction of its own; see
    /// ``Context/importGraph(from:progress:)``.
    @discardableResult
    public func importGraph(from url: URL, progress: (@Sendable (InsertProgress) -> Void)? = nil) throws -> Int {
        try write { ctx in try ctx.importGraph(from: url, progress: progress) }
    }

    /// Writes every object to `url` as a graph document or NDJSON, from one snapshot of the store.
    @discardableResult
    public func exportGraph(to url: URL, as shape: GraphExport.Shape = .document, entities: [String]? = nil) throws -> Int {
        try read { ctx in try ctx.exportGraph(to: url, as: shape, entities: entities) }
    }
}
