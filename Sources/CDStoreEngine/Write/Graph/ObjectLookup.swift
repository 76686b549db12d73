import CDStoreJSON
import CDStoreModel
internal import GRDB

/// Finds existing objects for references in input: by object ID, or by attribute values.
struct ObjectLookup {
    let store: Store
    let db: Database
    /// Lookups by attribute values already prepared, kept by a caller that makes many (an insert's `_ref`s).
    var shapes: Shapes?

    /// The lookups by attribute values of one command, by shape (entity, attribute names, which values are
    /// NULL): their SQL and prepared statement. Records of a file repeat the same `_ref` keys, and building and
    /// looking up the statement's text was 40% of each lookup's 17,000 instructions.
    final class Shapes {
        struct Key: Hashable {
            let entity: String
            let names: [String]
            let nulls: [Bool]
            let limit: Int
        }
        fileprivate var statements: [Key: RawStatement] = [:]

        init() {}
    }

    /// The object `id` names, which must exist, belong to this store and be a `destination` (or sub-entity) object.
    func object(_ id: ObjectID, in destination: Entity, for place: (entity: String, property: String)) throws -> ObjectRef {
        guard id.storeUUID == store.metadata.uuid else {
            throw StoreError(.invalidInput, "\(id) belongs to another store (this one is \(store.metadata.uuid))",
                             entity: place.entity, property: place.property).aboutRelationship()
        }
        guard let layout = store.layout.entity(named: id.entity),
              let destinationLayout = store.layout.entity(named: destination.name),
              destinationLayout.subtreeNumbers.contains(layout.number) else {
            throw StoreError(.invalidInput, "\(id) is not a \(destination.name) object", entity: place.entity, property: place.property).aboutRelationship()
        }
        guard let number = try Int.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(layout.table) WHERE Z_PK = ?"),
                                            arguments: [id.primaryKey]),
              number == layout.number else {
            throw StoreError(.invalidInput, "no object \(id)", entity: place.entity, property: place.property).aboutRelationship()
        }
        return ObjectRef(pk: id.primaryKey, entityNumber: number)
    }

    /// The one `destination` object whose attributes equal `criteria`; an error when none or several match.
    func unique(matching criteria: [(String, InputValue)], in destination: Entity,
                for place: (entity: String, property: String)) throws -> ObjectRef {
        let found = try matching(criteria, in: destination, limit: 2)
        guard found.count == 1 else {
            let described = criteria.map { "\($0.0) = \($0.1.summary)" }.joined(separator: ", ")
            throw StoreError(.invalidInput, found.isEmpty ? "no \(destination.name) object has \(described)"
                             : "several \(destination.name) objects have \(described); add attributes to \"_ref\" to pick one",
                             entity: place.entity, property: place.property).aboutRelationship()
        }
        return found[0]
    }

    /// The first `destination` object (by primary key) whose attributes equal `criteria`.
    func first(matching criteria: [(String, InputValue)], in destination: Entity) throws -> ObjectRef? {
        try matching(criteria, in: destination, limit: 1).first
    }

    private func matching(_ criteria: [(String, InputValue)], in destination: Entity, limit: Int) throws -> [ObjectRef] {
        guard let layout = store.layout.entity(named: destination.name) else { return [] }
        var arguments: [DatabaseValue] = []
        var nulls: [Bool] = []
        for (name, value) in criteria {
            guard let attribute = store.model.attribute(name, of: destination), layout.attributeColumns[name] != nil else {
                throw StoreError(.unknownName, "no attribute '\(name)' to match by"
                                 + Suggestion.didYouMean(name, among: store.model.attributes(of: destination).map(\.name)),
                                 entity: destination.name)
            }
            let stored = try AttributeCoding.storedValue(value, for: attribute)
            nulls.append(stored.isNull)
            if !stored.isNull { arguments.append(stored) }
        }
        // Prepared once per shape: `_ref` lookups repeat the same criteria keys record after record. Read through
        // SQLite's C interface, as the other per-record lookups of inserts are (GRDB rows cost 13k instructions per
        // lookup); strings bound exactly, so that a key with a NUL inside matches only itself.
        let key = Shapes.Key(entity: destination.name, names: criteria.map(\.0), nulls: nulls, limit: limit)
        let statement: RawStatement
        if let known = shapes?.statements[key] {
            statement = known
        } else {
            var conditions = ["Z_ENT BETWEEN \(layout.number) AND \(layout.subtreeMax)"]
            for ((name, _), isNull) in zip(criteria, nulls) {
                let column = layout.attributeColumns[name]!
                conditions.append(isNull ? "\(column) IS NULL" : "\(column) = ?")
            }
            let sql = "SELECT Z_PK, Z_ENT FROM \(layout.table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY Z_PK LIMIT \(limit)"
            statement = try RawStatement(sql, db: db)
            shapes?.statements[key] = statement
        }
        for (index, value) in arguments.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        return try statement.pairs().map { ObjectRef(pk: $0.0, entityNumber: Int($0.1)) }
    }
}

extension Store {
    /// The URI of the object `ref` names.
    package func objectID(_ ref: ObjectRef) -> ObjectID {
        ObjectID(storeUUID: metadata.uuid, entity: layout.entity(number: ref.entityNumber)?.name ?? "#\(ref.entityNumber)",
                 primaryKey: ref.pk)
    }
}
