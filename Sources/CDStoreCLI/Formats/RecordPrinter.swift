import CDStoreModel
import CDStoreSQLite

/// Prints fetched objects of one entity in an output format: keys are the model's property names, and
/// `_entity` names the entity of objects that belong to a sub-entity.
struct RecordPrinter {
    let store: Store
    let entity: String
    let format: OutputFormat
    let output: TextOutput
    /// Always print `_entity` (exports of several entities), not only for sub-entities' objects.
    var alwaysNameEntity = false

    /// Column names for table and CSV output: `_entity` when the entity has sub-entities, then every attribute of
    /// the entity and of its sub-entities, in model order.
    func columns(includesSubentities: Bool = true) throws -> [String] {
        let root = try store.resolveEntity(entity)
        let members = includesSubentities ? store.model.subtree(of: root) : [root]
        var names: [String] = (members.count > 1 || alwaysNameEntity) ? ["_entity"] : []
        for member in members {
            for attribute in store.model.attributes(of: member) where !attribute.isTransient && !names.contains(attribute.name) {
                names.append(attribute.name)
            }
        }
        return names
    }

    /// The object's keys and values; `_entity` names its entity when that is not the one asked for (and always in
    /// tables and CSV that have an `_entity` column, so the column is never half empty).
    func record(_ object: FetchedObject, entityColumn: Bool = false) -> [(String, ObjectValue)] {
        let named = alwaysNameEntity || entityColumn || object.entity != entity
        return named ? [("_entity", .string(object.entity))] + object.values : object.values
    }

    /// Fetches `request` and prints every object, then finishes the document.
    func print(_ request: ObjectFetchRequest) throws {
        let columns = try columns(includesSubentities: request.includesSubentities)
        let writer = format.writer(columns: columns, output: output)
        let entityColumn = (format == .table || format == .csv) && columns.first == "_entity"
        try store.forEach(request) { writer.write(record($0, entityColumn: entityColumn)) }
        writer.finish()
    }
}
