import CDStoreModel
import CDStoreSQLite
import Foundation

/// A document format objects are exported in by ``CDStore/Context/export(_:where:sort:format:to:)``.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON array of objects.
    case json
    /// One JSON object per line.
    case ndjson
    /// A header row naming the properties, then one line per object.
    case csv
}

extension CDStore.Context {
    /// Writes the objects of `entity` matching a predicate, in order, as a JSON, NDJSON or CSV document, handing
    /// the bytes to `write` in blocks of about 64 KiB as they are encoded; returns how many objects were written.
    ///
    /// ```swift
    /// try store.read { ctx in
    ///     try ctx.export("Employee", where: "age > 30", format: .ndjson) { bytes in try handle.write(contentsOf: bytes) }
    /// }
    /// ```
    ///
    /// The records are those `cdstore export` prints: `_id`, `_entity` for objects of sub-entities, attributes,
    /// then relationships as object IDs. Memory stays flat whatever the number of objects when the entity has no
    /// sub-entities with other columns; otherwise objects are read through a cursor, a batch at a time. An error
    /// thrown by `write` (a closed connection) stops the export and is rethrown.
    @discardableResult
    public func export(_ entity: String, where format: String? = nil, sort: [String] = [], format documentFormat: ExportFormat,
                       to write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let request = try request(entity, format, [], sort: sort, limit: nil, offset: nil)
        return try perform {
            let sink = ClosureSink(write)
            let columns = try Self.columns(of: request.entity, in: store.model)
            if store.canStreamRecords(request) {
                let count: Int
                switch documentFormat {
                case .json:
                    count = try store.writeRecords(request, style: RecordStyle(syntax: .json, first: "[\n", separator: ",\n"), to: sink)
                    try sink.write(count == 0 ? "[]\n" : "\n]\n")
                case .ndjson:
                    count = try store.writeRecords(request, style: RecordStyle(syntax: .json, terminator: "\n"), to: sink)
                case .csv:
                    try sink.write(columns.map(CSVText.field).joined(separator: ",") + "\n")
                    count = try store.writeRecords(request, style: RecordStyle(syntax: .csv(columns: columns)), to: sink)
                }
                return count
            }
            return try Self.writeFetched(request, columns: columns, format: documentFormat, store: store, to: sink)
        }
    }

    /// `_id`, `_entity` when the entity has sub-entities, then every property of the entity and its sub-entities.
    static func columns(of entityName: String, in model: ManagedObjectModel) throws -> [String] {
        guard let entity = model.entity(named: entityName) else {
            throw CDStoreError(.unknownName, "no entity '\(entityName)' in the model", entity: entityName)
        }
        let members = model.subtree(of: entity)
        var names = ["_id"] + (members.count > 1 ? ["_entity"] : [])
        for member in members {
            for attribute in model.attributes(of: member) where !attribute.isTransient && !names.contains(attribute.name) {
                names.append(attribute.name)
            }
        }
        for member in members {
            for relationship in model.relationships(of: member) where !relationship.isTransient && !names.contains(relationship.name) {
                names.append(relationship.name)
            }
        }
        return names
    }

    /// The general path: objects of several concrete entities, read a batch at a time and encoded one by one.
    private static func writeFetched(_ request: ObjectFetchRequest, columns: [String], format: ExportFormat, store: Store,
                                     to sink: ClosureSink) throws -> Int {
        var count = 0
        if format == .csv { try sink.write(columns.map(CSVText.field).joined(separator: ",") + "\n") }
        if format == .json { try sink.write("[") }
        let cursor = try store.makeCursor(request)
        while let object = try cursor.next() {
            var fields: [(String, ObjectValue)] = [("_id", .string(store.objectID(for: object).description))]
            if object.entity != request.entity { fields.append(("_entity", .string(object.entity))) }
            fields += object.values
            switch format {
            case .json: try sink.write((count == 0 ? "\n" : ",\n") + JSONText.encode(.dictionary(fields)))
            case .ndjson: try sink.write(JSONText.encode(.dictionary(fields)) + "\n")
            case .csv:
                let values = Dictionary(fields, uniquingKeysWith: { a, _ in a })
                try sink.write(columns.map { values[$0].map { CSVText.field(ValueText.plain($0)) } ?? "" }
                    .joined(separator: ",") + "\n")
            }
            count += 1
        }
        if format == .json { try sink.write(count == 0 ? "]\n" : "\n]\n") }
        return count
    }
}

/// A ``ByteSink`` that hands every block to a closure.
final class ClosureSink: ByteSink {
    private let body: (UnsafeRawBufferPointer) throws -> Void
    init(_ body: @escaping (UnsafeRawBufferPointer) throws -> Void) { self.body = body }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try body(bytes) }
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}

extension Store {
    /// The ID of a fetched object of this store.
    fileprivate func objectID(for object: FetchedObject) -> ObjectID {
        object.objectID ?? ObjectID(storeUUID: metadata.uuid, entity: object.entity, primaryKey: object.primaryKey)
    }
}
