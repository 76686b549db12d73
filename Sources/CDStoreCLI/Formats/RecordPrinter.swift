import CDStore
import Foundation

/// Prints fetched objects of one entity in an output format. Keys are the model's property names; `_id` is the
/// object's URI, `_entity` names the entity of objects that belong to a sub-entity, to-one relationships print
/// as the related object's URI and to-many relationships as arrays of URIs (or nested objects with `--include`).
///
/// JSON, NDJSON and CSV are the library's export (``CDStore/Context/export(_:matching:format:header:namingEntity:progress:to:)``);
/// tables are for reading: they show URIs short (`Department/p3`) and to-many relationships as counts.
struct RecordPrinter {
    let entity: String
    let format: OutputFormat
    let output: TextOutput
    /// Always print `_entity` (exports of several entities), not only for sub-entities' objects.
    var alwaysNameEntity = false
    /// Print the CSV header row, the table's header and rule.
    var headers = true

    init(entity: String, format: OutputFormat, output: TextOutput, alwaysNameEntity: Bool = false) {
        self.entity = entity
        self.format = format
        self.output = output
        self.alwaysNameEntity = alwaysNameEntity
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

    /// Prints every object `criteria` selects, then finishes the document; returns how many were printed. Tables
    /// read to-many relationships as counts: give criteria that say so (``Criteria/relationships(as:)``).
    @discardableResult
    func print(_ criteria: Criteria, in ctx: CDStore.Context, progress: ((Int) -> Void)? = nil) throws -> Int {
        switch format {
        case .json, .ndjson, .csv:
            let exportFormat: ExportFormat = format == .json ? .json : format == .ndjson ? .ndjson : .csv
            let count = try ctx.export(entity, matching: criteria, format: exportFormat, header: headers,
                                       namingEntity: alwaysNameEntity, progress: progress) { bytes in
                try output.write(bytes)
            }
            output.flush()
            return count
        case .table, .line:
            let columns = try ctx.columns(of: entity, matching: criteria, namingEntity: alwaysNameEntity)
            let writer = format.writer(columns: columns, output: output, headers: headers)
            let count = try ctx.forEachRecord(entity, matching: criteria, flatteningComposites: true,
                                              namingEntity: alwaysNameEntity) { record in
                writer.write(record.map { ($0.0, Self.short($0.1)) })
            }
            writer.finish()
            return count
        }
    }
}
