import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreIO
import CDStoreEngine
import Foundation

extension CDStore.Context {
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

    /// Writes every object (of `entities`, default every entity that can have objects of its own) as a graph
    /// document or NDJSON lines naming their entity, from this transaction's snapshot, handing the bytes to `write`
    /// as they are encoded; returns how many objects were written. ``importGraph(from:progress:)`` reads it back.
    /// `progress` is called with the number written so far, every few thousand objects.
    ///
    /// ```swift
    /// let handle = try FileHandle(forWritingTo: url)
    /// try store.read { ctx in try ctx.exportGraph(as: .document) { try handle.write(contentsOf: $0) } }
    /// ```
    @discardableResult
    public func exportGraph(as shape: GraphExport.Shape = .document, entities: [String]? = nil,
                            progress: ((Int) -> Void)? = nil,
                            to write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        try perform {
            try GraphExport.write(store, as: shape, entities: entities, to: ClosureSink(write), progress: progress)
        }
    }
}
