import CDStoreJSON
import CDStoreModel
internal import GRDB

/// Adds relationship values to fetched objects, a batch at a time: one query per relationship and batch, so
/// fetching N objects never costs N queries (Core Data's prefetching).
struct RelationshipLoader {
    let store: Store
    let db: Database
    let output: RelationshipOutput
    /// Included key paths as a tree: `["employees", "employees.badge"]` → `employees: [badge: [:]]`.
    let includes: [String: IncludeTree]

    /// A tree of relationship names to nest.
    struct IncludeTree {
        var children: [String: IncludeTree] = [:]

        static func parse(_ paths: [String]) -> [String: IncludeTree] {
            var root = IncludeTree()
            for path in paths {
                var keys = path.split(separator: ".").map(String.init)[...]
                func insert(_ tree: inout IncludeTree) {
                    guard let first = keys.popFirst() else { return }
                    insert(&tree.children[first, default: IncludeTree()])
                }
                insert(&root)
            }
            return root.children
        }

        var paths: [String] {
            children.flatMap { name, tree in [name] + tree.paths.map { name + "." + $0 } }
        }
    }

    /// Appends relationship values to every object of `objects` (all fetched for `requested`).
    func attach(to objects: inout [FetchedObject], requested: Entity) throws {
        guard output != .none || !includes.isEmpty, !objects.isEmpty else { return }
        try checkIncludes(requested)
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        let groups = Dictionary(grouping: objects.indices, by: { objects[$0].entity })
        for (entityName, indices) in groups {
            guard let entity = store.model.entity(named: entityName) else { continue }
            let pks = indices.map { objects[$0].primaryKey }
            for relationship in store.model.relationships(of: entity) where !relationship.isTransient {
                let included = includes[relationship.name]
                if included == nil && output == .none { continue }
                let edge = try storage.edge(relationship.name, of: entityName)
                let related = try storage.related(edge, of: pks, db: db)
                var nested: [Int64: FetchedObject] = [:]
                if let included {
                    let targets = Array(Set(related.values.flatMap { $0.map(\.pk) })).sorted()
                    let destination = store.model.entity(named: relationship.destination)!
                    let request = ObjectFetchRequest(entity: destination.name, relationships: output == .none ? .none : output,
                                                     includes: included.paths, primaryKeys: targets)
                    for object in try store.fetchObjects(request, db: db) { nested[object.primaryKey] = object }
                }
                for index in indices {
                    let targets = related[objects[index].primaryKey] ?? []
                    let value: ObjectValue
                    if included != nil {
                        let records = targets.compactMap { nested[$0.pk] }.map { $0.record(nameEntityUnless: relationship.destination) }
                        value = relationship.isToMany ? .array(records) : (records.first ?? .null)
                    } else if relationship.isToMany {
                        value = output == .counts ? .integer(Int64(targets.count))
                            : .array(targets.map { .string(store.objectID($0).description) })
                    } else {
                        value = targets.first.map { .string(store.objectID($0).description) } ?? .null
                    }
                    objects[index].values.append((relationship.name, value))
                }
            }
            try attachFetchedProperties(to: &objects, at: indices, of: entity)
        }
    }

    /// Every included name must be a relationship or fetched property of the entity (or of one of its sub-entities).
    private func checkIncludes(_ entity: Entity) throws {
        let names = store.model.subtree(of: entity).flatMap { member in
            store.model.relationships(of: member).map(\.name)
                + (store.model.ancestors(of: member) + [member]).flatMap(\.fetchedProperties).map(\.name)
        }
        for name in includes.keys where !names.contains(name) {
            throw StoreError(.unknownName, "no relationship '\(name)'" + Suggestion.didYouMean(name, among: names),
                             entity: entity.name).about(.includes)
        }
    }
}

extension FetchedObject {
    /// The object as a record: `_id`, `_entity` (unless it is `entity`), then its values.
    package func record(nameEntityUnless entity: String?) -> ObjectValue {
        var fields: [(String, ObjectValue)] = []
        if let objectID { fields.append(("_id", .string(objectID.description))) }
        if self.entity != entity { fields.append(("_entity", .string(self.entity))) }
        return .dictionary(fields + values)
    }
}
