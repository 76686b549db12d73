import CDStoreJSON
import CDStoreModel
internal import GRDB

/// What a delete does once relationship delete rules are applied: every object it removes (the requested ones
/// and, through Cascade, their related objects, cycles included) and the objects Nullify changes.
///
/// Core Data equivalent: `NSManagedObjectContext.delete(_:)` followed by `save()`, with each relationship's
/// `deleteRule`: Nullify clears the inverse, Cascade deletes the related objects, Deny refuses the delete while
/// the relationship holds objects (that are not being deleted too), No Action leaves references dangling.
struct DeletePlan {
    /// Objects to delete, by entity number.
    private(set) var objects: [Int: Set<Int64>] = [:]
    /// Objects outside the plan whose rows Nullify changes.
    private(set) var changed: Set<ObjectRef> = []

    let store: Store
    let db: Database

    /// How many objects of each entity the delete removes, by entity name.
    var countsByEntity: [(String, Int)] {
        objects.keys.sorted().map { (store.layout.entity(number: $0)?.name ?? "#\($0)", objects[$0]!.count) }
    }

    /// The number of objects the delete removes.
    var total: Int { objects.values.reduce(0) { $0 + $1.count } }

    /// Plans the deletion of `roots`, following Cascade rules and checking Deny rules.
    init(deleting roots: [ObjectRef], store: Store, db: Database) throws {
        self.store = store
        self.db = db
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        var pending = roots
        for root in roots { objects[root.entityNumber, default: []].insert(root.pk) }
        while !pending.isEmpty {
            var next: [ObjectRef] = []
            for (number, group) in Dictionary(grouping: pending, by: \.entityNumber) {
                guard let entity = entity(number) else { continue }
                let pks = group.map(\.pk)
                for relationship in store.model.relationships(of: entity)
                where !relationship.isTransient && relationship.deleteRule == .cascade {
                    let related = try storage.related(try storage.edge(relationship.name, of: entity.name), of: pks, db: db)
                    for target in related.values.joined() where objects[target.entityNumber, default: []].insert(target.pk).inserted {
                        next.append(target)
                    }
                }
            }
            pending = next
        }
        try checkDenyRules(storage)
    }

    private func entity(_ number: Int) -> Entity? {
        store.layout.entity(number: number).flatMap { store.model.entity(named: $0.name) }
    }

    private func contains(_ object: ObjectRef) -> Bool {
        objects[object.entityNumber]?.contains(object.pk) ?? false
    }

    private func checkDenyRules(_ storage: RelationshipStorage) throws {
        for number in objects.keys.sorted() {
            guard let entity = entity(number) else { continue }
            let pks = objects[number]!.sorted()
            for relationship in store.model.relationships(of: entity) where !relationship.isTransient && relationship.deleteRule == .deny {
                let related = try storage.related(try storage.edge(relationship.name, of: entity.name), of: pks, db: db)
                for pk in pks {
                    let blocking = (related[pk] ?? []).filter { !contains($0) }
                    guard let first = blocking.first else { continue }
                    let id = store.objectID(ObjectRef(pk: pk, entityNumber: number))
                    throw StoreError(.invalidInput, "cannot delete \(id): its relationship holds \(blocking.count) "
                                     + "\(blocking.count == 1 ? "object" : "objects") (\(store.objectID(first))"
                                     + (blocking.count > 1 ? ", …" : "") + ") and its delete rule is Deny; nothing was deleted",
                                     entity: entity.name, property: relationship.name).aboutRelationship().coreData(1600)
                }
            }
        }
    }

    /// Applies the plan: Nullify rules, then the rows; returns the objects outside the plan that changed.
    mutating func execute() throws -> Set<ObjectRef> {
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        for number in objects.keys.sorted() {
            guard let entity = entity(number), let layout = store.layout.entity(number: number) else { continue }
            let pks = objects[number]!.sorted()
            for relationship in store.model.relationships(of: entity)
            where !relationship.isTransient && relationship.deleteRule != .noAction {
                let edge = try storage.edge(relationship.name, of: entity.name)
                let related = try storage.related(edge, of: pks, db: db)
                changed.formUnion(related.values.joined().filter { !contains($0) })
                try clearLinks(edge, sources: pks)
            }
            for chunk in stride(from: 0, to: pks.count, by: 500) {
                let slice = Array(pks[chunk..<min(chunk + 500, pks.count)])
                try db.execute(sql: "DELETE FROM \(layout.table) WHERE Z_PK IN (\(marks(slice.count)))",
                               arguments: StatementArguments(slice))
            }
        }
        return changed
    }

    /// Removes the stored links of `edge` from the objects `sources`: the inverse's foreign keys in the
    /// destination table, the partner's key of a one-to-one, and join-table rows.
    private func clearLinks(_ edge: RelationshipStorage.Edge, sources: [Int64]) throws {
        for chunk in stride(from: 0, to: sources.count, by: 500) {
            let slice = Array(sources[chunk..<min(chunk + 500, sources.count)])
            let arguments = StatementArguments(slice)
            switch edge.toMany {
            case .foreignKey(let table, let foreignKey, let entityKey, let orderKey)?:
                let columns = [foreignKey] + [entityKey, orderKey].compactMap { $0 }
                try db.execute(sql: "UPDATE \(table) SET \(columns.map { "\($0) = NULL" }.joined(separator: ", ")) "
                               + "WHERE \(foreignKey) IN (\(marks(slice.count)))", arguments: arguments)
            case .joinTable(let table, let sourceColumn, let destinationColumn, _)?:
                try db.execute(sql: "DELETE FROM \(table) WHERE \(sourceColumn) IN (\(marks(slice.count)))", arguments: arguments)
                if destinationColumn == "REFLEXIVE" {
                    try db.execute(sql: "DELETE FROM \(table) WHERE \(destinationColumn) IN (\(marks(slice.count)))",
                                   arguments: arguments)
                }
            case nil:
                // A one-to-one: the partner keeps its own foreign key to the deleted object.
                if let inverse = edge.inverse, !inverse.isToMany, let columns = edge.destination.toOnes[inverse.name] {
                    let names = [columns.foreignKey] + [columns.entityKey, columns.orderKey].compactMap { $0 }
                    try db.execute(sql: "UPDATE \(edge.destination.table) SET \(names.map { "\($0) = NULL" }.joined(separator: ", ")) "
                                   + "WHERE \(columns.foreignKey) IN (\(marks(slice.count)))", arguments: arguments)
                }
            }
        }
    }

    private func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
