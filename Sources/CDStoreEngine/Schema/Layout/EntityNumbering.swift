import CDStoreJSON
import CDStoreModel

/// Core Data's entity numbers (`Z_ENT`, coredata-format.md §1.3).
///
/// All entities are sorted by name case-insensitively; then, for each root entity in that order, the entity
/// and its sub-entities are numbered depth first in pre-order, sub-entities also in case-insensitive name
/// order. Numbers start at 1 (ancillary models such as persistent history start at 16001).
struct EntityNumbering {
    /// One numbered entity.
    struct Numbered {
        var entity: Entity
        var number: Int
        /// `Z_ENT` of the direct parent, 0 for a root.
        var superNumber: Int
        /// Last number of the subtree.
        var subtreeMax: Int
        /// The root entity's name.
        var rootName: String
        /// Names of the direct sub-entities, in numbering order.
        var subentityNames: [String]
    }

    /// Every entity in `Z_ENT` order.
    private(set) var entities: [Numbered] = []
    /// Every entity name in case-insensitive name order: the order of pass 2 (§1.6).
    private(set) var nameOrder: [String] = []
    private var indexByName: [String: Int] = [:]

    /// Numbers the entities of `model`, starting after `offset` (0 for an ordinary model).
    init(model: ManagedObjectModel, offset: Int = 0) {
        let sorted = model.entities.sorted { Self.caseInsensitivePrecedes($0.name, $1.name) }
        nameOrder = sorted.map(\.name)
        var children: [String: [Entity]] = [:]
        let names = Set(model.entities.map(\.name))
        for entity in sorted {
            if let parent = entity.parentName, names.contains(parent), parent != entity.name {
                children[parent, default: []].append(entity)
            }
        }
        var visited: Set<String> = []
        func number(_ entity: Entity, superNumber: Int, root: String) {
            guard visited.insert(entity.name).inserted else { return }
            let index = entities.count
            let subs = children[entity.name] ?? []
            entities.append(Numbered(entity: entity, number: offset + index + 1, superNumber: superNumber,
                                     subtreeMax: 0, rootName: root, subentityNames: subs.map(\.name)))
            indexByName[entity.name] = index
            for sub in subs { number(sub, superNumber: offset + index + 1, root: root) }
            entities[index].subtreeMax = offset + entities.count
        }
        for entity in sorted where entity.parentName.map({ !names.contains($0) || $0 == entity.name }) ?? true {
            number(entity, superNumber: 0, root: entity.name)
        }
        // Entities caught in an inheritance cycle have no root; number them anyway so every entity has a row.
        for entity in sorted where !visited.contains(entity.name) {
            number(entity, superNumber: 0, root: entity.name)
        }
    }

    /// The numbered entity called `name`.
    subscript(name: String) -> Numbered? {
        indexByName[name].map { entities[$0] }
    }

    /// Core Data's entity order: `caseInsensitiveCompare:` on the names (compared by lower-cased UTF-16 units),
    /// ties broken by the exact code units so that the order is total.
    static func caseInsensitivePrecedes(_ a: String, _ b: String) -> Bool {
        let la = a.lowercased(), lb = b.lowercased()
        if la != lb { return Array(la.utf16).lexicographicallyPrecedes(lb.utf16) }
        return Array(a.utf16).lexicographicallyPrecedes(b.utf16)
    }
}
