import CDStoreJSON
import CDStoreModel
internal import GRDB

extension Store {
    /// Makes `targets` the objects the relationship `name` of `object` holds — one or none for a to-one, all of
    /// them in this order for a to-many — keeping inverses and join tables consistent, in one transaction (or
    /// the one ``inWriteTransaction(_:)`` runs). Every object whose row changed is validated (required
    /// relationships, minimum and maximum counts) and its `Z_OPT` incremented.
    ///
    /// Core Data equivalent: `setValue(_:forKey:)` of a relationship (`mutableOrderedSetValue` for ordered ones),
    /// then `save()`.
    package func setRelationship(_ name: String, of object: ObjectID, to targets: [ObjectID]) throws {
        let entity = try resolveEntity(object.entity)
        guard let relationship = model.relationship(name, of: entity) else {
            let names = model.relationships(of: entity).map(\.name)
            throw StoreError(.unknownName, "no relationship '\(name)'" + Suggestion.didYouMean(name, among: names),
                             entity: entity.name)
        }
        guard relationship.isToMany || targets.count <= 1 else {
            throw StoreError(.invalidInput, "a to-one relationship holds one object, not \(targets.count)",
                             entity: entity.name, property: name).aboutRelationship()
        }
        let destination = try resolveEntity(relationship.destination)
        try write { db in
            let lookup = ObjectLookup(store: self, db: db)
            let source = try lookup.object(object, in: entity, for: (entity.name, name))
            let refs = try targets.map { try lookup.object($0, in: destination, for: (entity.name, name)) }
            let storage = RelationshipStorage(model: model, layout: layout, storeUUID: metadata.uuid)
            let edge = try storage.edge(name, of: entity.name)
            var changed: Set<ObjectRef>
            if relationship.isToMany {
                changed = try storage.removeAll(from: edge, of: source, db: db)
                changed.formUnion(try storage.add(refs, to: edge, of: source, db: db))
            } else {
                changed = try storage.setToOne(edge, of: source, to: refs.first, db: db)
            }
            try GraphValidation(store: self, db: db).validate(changed)
            try bumpOptimisticLockVersions(changed, db: db)
        }
    }
}
