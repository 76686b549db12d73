import CDStoreModel
import GRDB

/// Checks relationship rules on the objects a transaction wrote, before it commits: a required to-one has a
/// value, a required to-many is not empty, and to-many counts stay within the model's minimum and maximum.
///
/// Core Data equivalent: the relationship part of `NSManagedObject.validateForInsert()`/`validateForUpdate()`.
struct GraphValidation {
    let store: Store
    let db: Database

    func validate(_ objects: Set<ObjectRef>) throws {
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        let byEntity = Dictionary(grouping: objects, by: \.entityNumber)
        for number in byEntity.keys.sorted() {
            guard let layout = store.layout.entity(number: number), let entity = store.model.entity(named: layout.name) else { continue }
            let pks = byEntity[number]!.map(\.pk).sorted()
            for relationship in store.model.relationships(of: entity) where !relationship.isTransient {
                let rules = !relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 1
                guard rules else { continue }
                let edge = try storage.edge(relationship.name, of: entity.name)
                let related = try storage.related(edge, of: pks, db: db)
                for pk in pks {
                    let count = related[pk]?.count ?? 0
                    if let problem = Self.problem(relationship, count: count) {
                        let id = store.objectID(ObjectRef(pk: pk, entityNumber: number))
                        throw StoreError(.invalidInput, "\(id): \(problem)", entity: entity.name, property: relationship.name)
                            .aboutRelationship()
                    }
                }
            }
        }
    }

    /// What is wrong with `count` related objects, or nil.
    static func problem(_ relationship: Relationship, count: Int) -> String? {
        if !relationship.isToMany {
            return count == 0 && !relationship.isOptional ? "the relationship is required but has no object" : nil
        }
        if count == 0 && !relationship.isOptional { return "the relationship is required but holds no objects" }
        if count > 0 || !relationship.isOptional {
            if relationship.minCount > 0 && count < relationship.minCount {
                return "holds \(count) objects, fewer than the minimum \(relationship.minCount)"
            }
            if relationship.maxCount > 0 && count > relationship.maxCount {
                return "holds \(count) objects, more than the maximum \(relationship.maxCount)"
            }
        }
        return nil
    }
}

extension Store {
    /// Bumps `Z_OPT` of objects that existed before this transaction and changed in it, once each, as Core Data
    /// does on save.
    func bumpOptimisticLockVersions(_ objects: Set<ObjectRef>, db: Database) throws {
        for (number, group) in Dictionary(grouping: objects, by: \.entityNumber) {
            guard let table = layout.entity(number: number)?.table else { continue }
            let pks = group.map(\.pk)
            for chunk in stride(from: 0, to: pks.count, by: 500) {
                let slice = Array(pks[chunk..<min(chunk + 500, pks.count)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                try db.execute(sql: "UPDATE \(table) SET Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK IN (\(marks))",
                               arguments: StatementArguments(slice))
            }
        }
    }
}
