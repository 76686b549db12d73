import CDStoreJSON
import CDStoreModel
internal import GRDB

/// Checks relationship rules on the objects a transaction wrote, before it commits: a required to-one has a
/// value, a required to-many is not empty, and to-many counts stay within the model's minimum and maximum.
///
/// Core Data equivalent: the relationship part of `NSManagedObject.validateForInsert()`/`validateForUpdate()`.
struct GraphValidation {
    let store: Store
    let db: Database

    func validate(_ objects: Set<ObjectRef>) throws {
        let byEntity = Dictionary(grouping: objects, by: \.entityNumber)
        for number in byEntity.keys.sorted() {
            try validate(byEntity[number]!.map(\.pk).sorted(), entityNumber: number)
        }
    }

    /// Validates the objects a write created: per inheritance tree (by root entity number), those with keys from
    /// `first` up to `next`. They are read from the table a chunk at a time, so nothing is held per new object.
    func validateNew(from first: [Int: Int64], to next: [Int: Int64]) throws {
        for (root, end) in next.sorted(by: { $0.key < $1.key }) {
            guard let start = first[root], start < end, let rootLayout = store.layout.entity(number: root) else { continue }
            for layout in store.layout.entities where layout.rootName == rootLayout.name && !layout.isAbstract {
                guard let entity = store.model.entity(named: layout.name), !rules(of: entity).isEmpty else { continue }
                let keys = try Int64.fetchCursor(db, sql: "SELECT Z_PK FROM \(layout.table) WHERE Z_ENT = ? AND Z_PK >= ? AND Z_PK < ? ORDER BY Z_PK",
                                                 arguments: [layout.number, start, end])
                var chunk: [Int64] = []
                while let key = try keys.next() {
                    chunk.append(key)
                    if chunk.count == 500 { try validate(chunk, entityNumber: layout.number); chunk.removeAll(keepingCapacity: true) }
                }
                try validate(chunk, entityNumber: layout.number)
            }
        }
    }

    /// The relationships of `entity` that have rules to check.
    private func rules(of entity: Entity) -> [Relationship] {
        // SwiftData makes `var items: [Item] = []` a non-optional to-many and saves it empty: the corpus CartKit
        // store (written by SwiftData) holds a CartModel row with no items. A SwiftData model's non-optional
        // to-many is therefore checked for its counts only.
        let swiftData = store.model.fileSettings["usedWithSwiftData"] == "YES"
        return store.model.relationships(of: entity).compactMap { relationship in
            var relationship = relationship
            if swiftData, relationship.isToMany { relationship.isOptional = true }
            let checked = !relationship.isTransient
                && (!relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 1)
            return checked ? relationship : nil
        }
    }

    private func validate(_ pks: [Int64], entityNumber number: Int) throws {
        guard !pks.isEmpty, let layout = store.layout.entity(number: number),
              let entity = store.model.entity(named: layout.name) else { return }
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        for relationship in rules(of: entity) {
            let edge = try storage.edge(relationship.name, of: entity.name)
            let related = try storage.related(edge, of: pks, db: db)
            for pk in pks {
                let count = related[pk]?.count ?? 0
                if let problem = Self.problem(relationship, count: count) {
                    let id = store.objectID(ObjectRef(pk: pk, entityNumber: number))
                    // Core Data's numbers: 1570 required, 1580 too few, 1590 too many.
                    let code = count == 0 && !relationship.isOptional ? 1570 : count < relationship.minCount ? 1580 : 1590
                    throw StoreError(.invalidInput, "\(id): \(problem)", entity: entity.name, property: relationship.name)
                        .aboutRelationship().coreData(code)
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
