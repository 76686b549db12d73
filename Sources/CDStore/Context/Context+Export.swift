import CDStoreIO
import CDStoreJSON
import CDStoreModel
import CDStoreEngine
import Foundation

/// The document formats objects are exported in (``CDStore/Context/export(_:matching:format:header:namingEntity:progress:to:)``).
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON array of objects, one object per line inside it.
    case json
    /// One JSON object per line.
    case ndjson
    /// A header row naming the columns, then one line per object (RFC 4180); composite attributes spread into one
    /// column per element (`home.city`).
    case csv
}

extension CDStore.Context {
    /// The columns the records of `entity` have in a table or CSV: `_id`, `_entity` when the entity has sub-entities
    /// (or `namingEntity`), then every attribute of the entity and of its sub-entities in model order (a composite's
    /// elements as `home.city`, a SwiftData enum's raw value as the property), then the relationships unless
    /// `criteria` reads none.
    public func columns(of entity: String, matching criteria: Criteria = .all, namingEntity: Bool = false) throws -> [String] {
        try perform {
            let root = try store.resolveEntity(entity)
            let members = criteria.includesSubentities ? store.model.subtree(of: root) : [root]
            var names: [String] = ["_id"] + ((members.count > 1 || namingEntity) ? ["_entity"] : [])
            for member in members {
                for attribute in store.model.attributes(of: member).flatMap(\.recordAttributes)
                where !attribute.isTransient && !names.contains(attribute.name) {
                    names.append(attribute.name)
                }
            }
            guard criteria.relationshipValues != .none else { return names }
            for member in members {
                for relationship in store.model.relationships(of: member)
                where !relationship.isTransient && !names.contains(relationship.name) {
                    names.append(relationship.name)
                }
            }
            return names
        }
    }

    /// Calls `body` with each object `criteria` selects, as the record `export` writes for it: `_id` (the object's
    /// URI), `_entity` for objects of sub-entities (every object with `namingEntity`), then its attributes and
    /// relationships (nested objects for ``Criteria/prefetching(_:)``). `flatteningComposites` spreads a composite
    /// attribute into one key per element (`home.city`) and names `_entity` on every record of an entity that has
    /// sub-entities, as tables and CSV need. Objects are read through a cursor, a batch at a time; returns how many.
    @discardableResult
    public func forEachRecord(_ entity: String, matching criteria: Criteria = .all, flatteningComposites: Bool = false,
                              namingEntity: Bool = false,
                              _ body: ([(String, ObjectValue)]) throws -> Void) throws -> Int {
        try perform {
            let request = criteria.request(for: entity)
            let root = try store.resolveEntity(entity)
            let hasSubentities = criteria.includesSubentities && store.model.subtree(of: root).count > 1
            let records = RecordShaper(model: store.model, entity: entity, storeUUID: store.metadata.uuid,
                                       flattening: flatteningComposites,
                                       namingEntity: namingEntity || (flatteningComposites && hasSubentities))
            var count = 0
            try store.forEach(request) { object in
                try body(records.record(object))
                count += 1
            }
            return count
        }
    }

    /// Writes the objects of `entity` that `criteria` selects, in its order, as a JSON, NDJSON or CSV document,
    /// handing the bytes to `write` in blocks as they are encoded; returns how many objects were written.
    ///
    /// ```swift
    /// try store.read { ctx in
    ///     try ctx.export("Employee", matching: .greaterThan("age", 30), format: .ndjson) { bytes in
    ///         try handle.write(contentsOf: bytes)
    ///     }
    /// }
    /// ```
    ///
    /// The records are those of ``forEachRecord(_:matching:flatteningComposites:namingEntity:_:)`` (CSV flattens
    /// composites). An entity without sub-entities and without relationships to prefetch is encoded straight from
    /// SQLite's rows, a batch at a time; others are read through a cursor: either way memory stays flat whatever the
    /// number of objects, and the bytes are the same. `header` false leaves out CSV's header row; `progress` is
    /// called with the number of objects written so far, every few thousand. An error thrown by `write` (a closed
    /// connection) stops the export and is rethrown.
    @discardableResult
    public func export(_ entity: String, matching criteria: Criteria = .all, format: ExportFormat, header: Bool = true,
                       namingEntity: Bool = false, progress: ((Int) -> Void)? = nil,
                       to write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let columns = format == .csv ? try self.columns(of: entity, matching: criteria, namingEntity: namingEntity) : []
        return try perform {
            let sink = ClosureSink(write)
            let request = criteria.request(for: entity)
            if format == .csv && header { try sink.write(columns.map { ObjectValue.string($0).csvField }.joined(separator: ",") + "\n") }
            if store.canStreamRecords(request) && RecordShaper.streams {
                let count: Int
                switch format {
                case .json:
                    count = try store.writeRecords(request, style: RecordStyle(syntax: .json, nameEntity: namingEntity,
                                                                               first: "[\n", separator: ",\n"),
                                                   to: sink, progress: progress)
                    try sink.write(count == 0 ? "[]\n" : "\n]\n")
                case .ndjson:
                    count = try store.writeRecords(request, style: RecordStyle(syntax: .json, nameEntity: namingEntity,
                                                                               terminator: "\n"),
                                                   to: sink, progress: progress)
                case .csv:
                    count = try store.writeRecords(request, style: RecordStyle(syntax: .csv(columns: columns)), to: sink,
                                                   progress: progress)
                }
                return count
            }
            var count = 0
            try forEachRecord(entity, matching: criteria, flatteningComposites: format == .csv, namingEntity: namingEntity) { record in
                switch format {
                case .json: try sink.write((count == 0 ? "[\n" : ",\n") + ObjectValue.dictionary(record).description)
                case .ndjson: try sink.write(ObjectValue.dictionary(record).description + "\n")
                case .csv:
                    var byKey: [String: ObjectValue] = [:]
                    for (key, value) in record { byKey[key] = value }
                    try sink.write(columns.map { byKey[$0]?.csvField ?? "" }.joined(separator: ",") + "\n")
                }
                count += 1
                if count % 4096 == 0 { progress?(count) }
            }
            if format == .json { try sink.write(count == 0 ? "[]\n" : "\n]\n") }
            progress?(count)
            return count
        }
    }
}

/// Turns fetched objects into the records exports and tables show.
struct RecordShaper {
    let model: ManagedObjectModel
    let entity: String
    let storeUUID: String
    let flattening: Bool
    let namingEntity: Bool

    /// Whether records that can be encoded straight from SQLite's rows are (`CDSTORE_NO_STREAMING=1` sends every
    /// export through the general path, so that tests can compare the two).
    static let streams = ProcessInfo.processInfo.environment["CDSTORE_NO_STREAMING"] != "1"

    func record(_ object: FetchedObject) -> [(String, ObjectValue)] {
        let id = object.objectID ?? ObjectID(storeUUID: storeUUID, entity: object.entity, primaryKey: object.primaryKey)
        var fields: [(String, ObjectValue)] = [("_id", .string(id.description))]
        if namingEntity || object.entity != entity { fields.append(("_entity", .string(object.entity))) }
        return fields + (flattening ? flatteningComposites(object) : object.values)
    }

    /// The object's values with each composite attribute's object spread into its element paths (`home.city`).
    private func flatteningComposites(_ object: FetchedObject) -> [(String, ObjectValue)] {
        guard let entity = model.entity(named: object.entity) else { return object.values }
        func spread(_ name: String, _ value: ObjectValue, _ attribute: Attribute) -> [(String, ObjectValue)] {
            // An enum's raw value is one column under the property's name (``Attribute/recordAttributes``).
            guard attribute.type == .composite, !attribute.holdsRawValue else { return [(name, value)] }
            let members: [(String, ObjectValue)] = if case .dictionary(let pairs) = value { pairs } else { [] }
            return attribute.compositeElements.flatMap { element in
                spread(name + "." + element.name, members.first { $0.0 == element.name }?.1 ?? .null, element)
            }
        }
        return object.values.flatMap { name, value -> [(String, ObjectValue)] in
            guard let attribute = model.attribute(name, of: entity) else { return [(name, value)] }
            return spread(name, value, attribute)
        }
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
