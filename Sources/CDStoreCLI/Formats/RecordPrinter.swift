import CDStore
import Foundation

/// Prints fetched objects of one entity in an output format. Keys are the model's property names; `_id` is the
/// object's URI, `_entity` names the entity of objects that belong to a sub-entity, to-one relationships print
/// as the related object's URI and to-many relationships as arrays of URIs (or nested objects with `--include`).
///
/// Tables are for reading: they show URIs short (`Department/p3`) and to-many relationships as counts.
struct RecordPrinter {
    let store: Store
    let entity: String
    let format: OutputFormat
    let output: TextOutput
    /// Always print `_entity` (exports of several entities), not only for sub-entities' objects.
    var alwaysNameEntity = false
    /// Print the CSV header row, the table's header and rule.
    var headers = true

    /// Column names for table and CSV output: `_id`, `_entity` when the entity has sub-entities, then every
    /// attribute and relationship of the entity and of its sub-entities, in model order.
    func columns(includesSubentities: Bool = true, relationships: Bool = true) throws -> [String] {
        let root = try store.resolveEntity(entity)
        let members = includesSubentities ? store.model.subtree(of: root) : [root]
        var names: [String] = ["_id"] + ((members.count > 1 || alwaysNameEntity) ? ["_entity"] : [])
        for member in members {
            // A composite attribute is one column per element (`home.city`), as Core Data stores it.
            for attribute in store.model.attributes(of: member).flatMap(\.columnAttributes)
            where !attribute.isTransient && !names.contains(attribute.name) {
                names.append(attribute.name)
            }
        }
        if relationships {
            for member in members {
                for relationship in store.model.relationships(of: member)
                where !relationship.isTransient && !names.contains(relationship.name) {
                    names.append(relationship.name)
                }
            }
        }
        return names
    }

    /// The object's keys and values, as this format shows them.
    func record(_ object: FetchedObject, entityColumn: Bool = false) -> [(String, ObjectValue)] {
        var fields: [(String, ObjectValue)] = []
        if let id = object.objectID { fields.append(("_id", .string(id.description))) }
        if alwaysNameEntity || entityColumn || object.entity != entity { fields.append(("_entity", .string(object.entity))) }
        fields += format.isForReading || format == .csv ? flatteningComposites(object) : object.values
        return format.isForReading ? fields.map { ($0.0, Self.short($0.1)) } : fields
    }

    /// The object's values with each composite attribute's object spread into its element paths (`home.city`),
    /// the columns table and CSV output have.
    private func flatteningComposites(_ object: FetchedObject) -> [(String, ObjectValue)] {
        guard let entity = store.model.entity(named: object.entity) else { return object.values }
        func spread(_ name: String, _ value: ObjectValue, _ attribute: Attribute) -> [(String, ObjectValue)] {
            guard attribute.type == .composite else { return [(name, value)] }
            let members: [(String, ObjectValue)] = if case .dictionary(let pairs) = value { pairs } else { [] }
            return attribute.compositeElements.flatMap { element in
                spread(name + "." + element.name, members.first { $0.0 == element.name }?.1 ?? .null, element)
            }
        }
        return object.values.flatMap { name, value -> [(String, ObjectValue)] in
            guard let attribute = store.model.attribute(name, of: entity) else { return [(name, value)] }
            return spread(name, value, attribute)
        }
    }

    /// `x-coredata://…/Department/p3` as `Department/p3`, inside arrays and nested objects too.
    static func short(_ value: ObjectValue) -> ObjectValue {
        switch value {
        case .string(let text) where text.hasPrefix("x-coredata://"):
            guard let id = ObjectID(uri: text) else { return value }
            return .string("\(id.entity)/p\(id.primaryKey)")
        case .array(let items): return .array(items.map(short))
        case .dictionary(let pairs): return .dictionary(pairs.map { ($0.0, short($0.1)) })
        default: return value
        }
    }

    /// Whether records of one entity are streamed by the store (``Store/writeRecords(_:style:to:)``) rather than
    /// printed from fetched objects. Both print the same bytes; `CDSTORE_NO_STREAMING=1` selects the general
    /// path, so tests can compare the two.
    static let streams = ProcessInfo.processInfo.environment["CDSTORE_NO_STREAMING"] != "1"

    /// Fetches `request` and prints every object, then finishes the document; returns how many were printed.
    @discardableResult
    func print(_ request: ObjectFetchRequest) throws -> Int {
        var request = request
        if format.isForReading && request.relationships == .objectIDs { request.relationships = .counts }
        let columns = try columns(includesSubentities: request.includesSubentities, relationships: request.relationships != .none)
        if !format.isForReading, Self.streams, store.canStreamRecords(request) {
            return try stream(request, columns: columns)
        }
        let writer = format.writer(columns: columns, output: output, headers: headers)
        let entityColumn = (format.isForReading || format == .csv) && columns.contains("_entity")
        var count = 0
        try store.forEach(request) {
            writer.write(record($0, entityColumn: entityColumn))
            count += 1
        }
        writer.finish()
        return count
    }

    /// The store writes the records straight into the output: the same bytes as the writers print, without
    /// an ``ObjectValue`` per value.
    private func stream(_ request: ObjectFetchRequest, columns: [String]) throws -> Int {
        let count: Int
        switch format {
        case .table, .line:
            return 0
        case .json:
            count = try store.writeRecords(request, style: RecordStyle(syntax: .json, nameEntity: alwaysNameEntity,
                                                                       first: "[\n", separator: ",\n"), to: output)
            output.line(count == 0 ? "[]" : "\n]")
        case .ndjson:
            count = try store.writeRecords(request, style: RecordStyle(syntax: .json, nameEntity: alwaysNameEntity, terminator: "\n"),
                                   to: output)
        case .csv:
            if headers { output.line(columns.map(CSVText.field).joined(separator: ",")) }
            count = try store.writeRecords(request, style: RecordStyle(syntax: .csv(columns: columns)), to: output)
        }
        output.flush()
        return count
    }
}
