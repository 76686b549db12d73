import CDStoreJSON
import CDStoreEngine
import Foundation

/// A store's objects as the documents an import reads back (`importGraph(from:progress:)`): the JSON graph
/// document (every object under its own entity, with `_id` and its relationships as object IDs) or NDJSON lines
/// that name their entity.
///
/// ```swift
/// let out = try FileHandle(forWritingTo: url)
/// let count = try store.read { ctx in
///     try ctx.exportGraph(as: .document) { bytes in try out.write(contentsOf: bytes) }
/// }
/// ```
///
/// Objects are streamed from one statement per entity: memory stays flat whatever the number of objects.
public enum GraphExport {
    /// The shape of a whole-graph export.
    public enum Shape: Sendable {
        /// `{"format": "cdstore-graph", "formatVersion": 1, "storeUUID": …, "entities": {"Entity": [objects…]}}`.
        case document
        /// One object per line, each with `"_entity"`.
        case ndjson
    }

    /// The entities a whole-graph export writes: every entity that can have objects of its own (abstract
    /// entities' objects belong to their sub-entities), in model order.
    package static func entities(of store: Store) -> [String] {
        store.model.entities.filter { !$0.isAbstract }.map(\.name)
    }

    /// Writes the objects of `entities` (default: ``entities(of:)``) in `shape` and returns how many were written.
    /// `progress` is called with the number written so far, every few thousand objects.
    @discardableResult
    package static func write(_ store: Store, as shape: Shape, entities: [String]? = nil, to sink: ByteSink,
                             progress: ((Int) -> Void)? = nil) throws -> Int {
        let names = entities ?? Self.entities(of: store)
        for name in names { _ = try store.resolveEntity(name) }
        var total = 0
        switch shape {
        case .document:
            try sink.write("{\"format\":\"cdstore-graph\",\"formatVersion\":1,\"storeUUID\":\(JSONText.quoted(store.metadata.uuid)),\"entities\":{")
            for (index, name) in names.enumerated() {
                try sink.write((index == 0 ? "\n" : ",\n") + JSONText.quoted(name) + ": [")
                let count = try records(of: name, in: store, style: RecordStyle(syntax: .json, first: "\n  ", separator: ",\n  "),
                                        to: sink, progress: progress, after: total)
                try sink.write(count == 0 ? "]" : "\n]")
                total += count
            }
            try sink.write(names.isEmpty ? "}}\n" : "\n}}\n")
        case .ndjson:
            for name in names {
                total += try records(of: name, in: store, style: RecordStyle(syntax: .json, nameEntity: true, terminator: "\n"),
                                     to: sink, progress: progress, after: total)
            }
        }
        return total
    }

    /// The objects of `entity` itself (not of its sub-entities), streamed; none for an abstract entity.
    private static func records(of entity: String, in store: Store, style: RecordStyle, to sink: ByteSink,
                                progress: ((Int) -> Void)?, after before: Int) throws -> Int {
        let request = ObjectFetchRequest(entity: entity, includesSubentities: false)
        guard store.canStreamRecords(request) else { return 0 }
        return try store.writeRecords(request, style: style, to: sink, progress: progress.map { report in { report(before + $0) } })
    }
}

extension ByteSink {
    /// Writes `text` as UTF-8.
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}

/// A file that streamed output goes to, created or truncated when opened.
package final class FileSink: ByteSink {
    private let handle: FileHandle

    /// Creates (or truncates) the file at `path`.
    package init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw RecordInput.InputError(message: "cannot create \(path)")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Appends `bytes` to the file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        try handle.write(contentsOf: Data(bytes))
    }

    /// Flushes and closes the file.
    package func close() throws {
        try handle.synchronize()
        try handle.close()
    }
}
