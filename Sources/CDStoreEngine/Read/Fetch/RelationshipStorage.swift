import CDStoreJSON
import CDStoreModel
package import GRDB
internal import GRDBSQLite

/// Reads and writes relationship edges where Core Data keeps them (coredata-format.md §1.6): to-one foreign
/// keys in the source table, to-many relationships through the inverse's foreign key in the destination table
/// or through a join table. Every write keeps the inverse side consistent, as Core Data does on save.
package struct RelationshipStorage {
    let model: ManagedObjectModel
    let layout: StoreLayout
    /// The store's UUID, for object IDs in error messages (nil: objects are named `Entity/pN`).
    var storeUUID: String? = nil

    package init(model: ManagedObjectModel, layout: StoreLayout, storeUUID: String? = nil) {
        self.model = model
        self.layout = layout
        self.storeUUID = storeUUID
    }

    /// Position keys of ordered relationships are spaced so that Core Data can insert between them.
    static let orderStep: Int64 = 1024

    // MARK: - Describing a relationship

    /// How one relationship of one entity is stored, with what its inverse needs.
    package struct Edge {
        let entity: EntityLayout
        let relationship: Relationship
        let destination: EntityLayout
        let inverse: Relationship?
        var toOne: ToOneLayout? { entity.toOnes[relationship.name] }
        var toMany: ToManyLayout? { entity.toManys[relationship.name] }
    }

    package func edge(_ relationshipName: String, of entityName: String) throws -> Edge {
        guard let entity = model.entity(named: entityName), let entityLayout = layout.entity(named: entityName),
              let relationship = model.relationship(relationshipName, of: entity) else {
            throw StoreError(.unknownName, "no relationship '\(relationshipName)'", entity: entityName)
        }
        guard !relationship.isTransient else {
            throw StoreError(.invalidInput, "transient relationships are not stored", entity: entityName, property: relationshipName)
        }
        guard let destination = layout.entity(named: relationship.destination) else {
            throw StoreError(.unknownName, "unknown destination entity '\(relationship.destination)'",
                             entity: entityName, property: relationshipName)
        }
        return Edge(entity: entityLayout, relationship: relationship, destination: destination,
                    inverse: model.inverse(of: relationship))
    }

    /// `edge` for writing. Refused when the inverse the model names points at another entity (`Trip.folders`
    /// with the inverse `Folder.parent`, a relationship to `Folder`): keeping that inverse consistent would store
    /// this entity's keys in the other relationship's column. Xcode compiles such a model with only a warning.
    package func writableEdge(_ relationshipName: String, of entityName: String) throws -> Edge {
        let edge = try edge(relationshipName, of: entityName)
        // The usual inverse names this entity itself; only another name needs the inheritance tree (import calls
        // this for every object).
        if let inverse = edge.inverse, inverse.destination != entityName, let entity = model.entity(named: entityName) {
            let related = Set(([entity] + model.ancestors(of: entity) + model.subtree(of: entity)).map(\.name))
            guard related.contains(inverse.destination) else {
                throw StoreError(.invalidInput, "its inverse '\(edge.relationship.inverseEntity ?? edge.destination.name)."
                                 + "\(inverse.name)' is a relationship to '\(inverse.destination)', not back to "
                                 + "'\(entityName)': writing through it would store keys of the wrong entity; fix the "
                                 + "model's inverse", entity: entityName, property: relationshipName).aboutRelationship()
            }
        }
        return edge
    }

    /// The entity of `number`, or an error for a row whose `Z_ENT` the model does not know.
    func entityName(_ number: Int) -> String {
        layout.entity(number: number)?.name ?? "#\(number)"
    }

    // MARK: - Reading

    /// The objects related through `edge` to each of `sources`, in relationship order (ordered to-manys by
    /// their position keys, others by primary key).
    package func related(_ edge: Edge, of sources: [Int64], db: Database) throws -> [Int64: [ObjectRef]] {
        var result: [Int64: [ObjectRef]] = [:]
        guard !sources.isEmpty else { return result }
        for chunk in stride(from: 0, to: sources.count, by: 500) {
            let slice = Array(sources[chunk..<min(chunk + 500, sources.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
            let sql: String
            let destinationTable = edge.destination.table
            if let toOne = edge.toOne {
                let entityColumn = toOne.entityKey.map { "s.\($0)" } ?? "(SELECT d.Z_ENT FROM \(destinationTable) d WHERE d.Z_PK = s.\(toOne.foreignKey))"
                // 0 is no object: primary keys start at 1, and stores other tools filled write 0 for "none".
                sql = "SELECT s.Z_PK, s.\(toOne.foreignKey), \(entityColumn) FROM \(edge.entity.table) s "
                    + "WHERE s.Z_PK IN (\(marks)) AND s.\(toOne.foreignKey) IS NOT NULL AND s.\(toOne.foreignKey) <> 0"
            } else if case .foreignKey(let table, let foreignKey, _, let orderKey)? = edge.toMany {
                sql = "SELECT d.\(foreignKey), d.Z_PK, d.Z_ENT FROM \(table) d WHERE d.\(foreignKey) IN (\(marks)) "
                    + "ORDER BY d.\(foreignKey), " + (orderKey.map { "d.\($0), " } ?? "") + "d.Z_PK"
            } else if case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn)? = edge.toMany {
                // A reflexive pair is stored once in each direction (x, y) and (y, x), as Core Data reads a
                // to-many through its own column only; so is the predicate compiler.
                let union = "SELECT j.\(sourceColumn) AS src, j.\(destinationColumn) AS dst"
                    + (orderColumn.map { ", j.\($0) AS pos" } ?? ", NULL AS pos") + " FROM \(table) j WHERE j.\(sourceColumn) IN (\(marks))"
                sql = "SELECT e.src, e.dst, d.Z_ENT FROM (\(union)) e JOIN \(destinationTable) d ON d.Z_PK = e.dst "
                    + "ORDER BY e.src, e.pos, e.dst"
            } else {
                continue
            }
            // Bound and read through SQLite's C interface: GRDB's arguments and row decoding cost 750 instructions
            // per related object, which checking a graph load's new objects paid for each of them.
            let statement = try RawStatement(sql, db: db)
            for (index, pk) in slice.enumerated() { statement.bind(pk, at: Int32(index + 1)) }
            try statement.forEachRow { row in
                let entity = sqlite3_column_type(row, 2) == SQLITE_NULL ? edge.destination.number : Int(sqlite3_column_int64(row, 2))
                result[sqlite3_column_int64(row, 0), default: []].append(ObjectRef(pk: sqlite3_column_int64(row, 1), entityNumber: entity))
            }
        }
        return result
    }
}
