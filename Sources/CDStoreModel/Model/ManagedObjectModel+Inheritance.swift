/// Lookups across the inheritance tree. Entities name their parent; these walk the tree both ways.
///
/// All functions tolerate broken models (a missing parent, a cycle): they stop instead of looping, and
/// ``ModelValidator`` reports the problem.
extension ManagedObjectModel {
    /// The entity called `name`.
    public func entity(named name: String) -> Entity? {
        index.positions[name].map { entities[$0] }
    }

    /// The direct parent of `entity`, if it has one and it exists.
    package func parent(of entity: Entity) -> Entity? {
        entity.parentName.flatMap { self.entity(named: $0) }
    }

    /// The chain from `entity`'s parent up to its root, nearest first.
    public func ancestors(of entity: Entity) -> [Entity] {
        var chain: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = parent(of: entity)
        while let next = current, seen.insert(next.name).inserted {
            chain.append(next)
            current = parent(of: next)
        }
        return chain
    }

    /// The root of `entity`'s inheritance tree (the entity itself when it has no parent).
    package func root(of entity: Entity) -> Entity {
        ancestors(of: entity).last ?? entity
    }

    /// The direct sub-entities of `entity`, sorted by name case-insensitively as Core Data numbers them.
    package func subentities(of entity: Entity) -> [Entity] {
        (index.children[entity.name] ?? []).map { entities[$0] }.filter { $0.name != entity.name }
            .sorted { $0.name.caseInsensitiveOrder($1.name) }
    }

    /// `entity` and all entities below it, depth first (Core Data's entity numbering order).
    public func subtree(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = []
        func visit(_ e: Entity) {
            guard seen.insert(e.name).inserted else { return }
            result.append(e)
            for sub in subentities(of: e) { visit(sub) }
        }
        visit(entity)
        return result
    }

    /// All attributes of `entity`, inherited ones first (root's first), then its own.
    public func attributes(of entity: Entity) -> [Attribute] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.attributes)
    }

    /// All relationships of `entity`, inherited ones first (root's first), then its own.
    public func relationships(of entity: Entity) -> [Relationship] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.relationships)
    }

    /// The attribute called `name` of `entity`, its own or inherited (the nearest entity's, as in
    /// ``attributes(of:)`` the last of that name). Searched entity by entity: building the whole list first cost a
    /// bulk insert's `_ref` lookup 10,000 instructions.
    public func attribute(_ name: String, of entity: Entity) -> Attribute? {
        if let own = entity.attributes.last(where: { $0.name == name }) { return own }
        for ancestor in ancestors(of: entity) {
            if let inherited = ancestor.attributes.last(where: { $0.name == name }) { return inherited }
        }
        return nil
    }

    /// The relationship called `name` of `entity`, its own or inherited (the nearest entity's).
    public func relationship(_ name: String, of entity: Entity) -> Relationship? {
        if let own = entity.relationships.last(where: { $0.name == name }) { return own }
        for ancestor in ancestors(of: entity) {
            if let inherited = ancestor.relationships.last(where: { $0.name == name }) { return inherited }
        }
        return nil
    }

    /// The inverse of `relationship`, looked up on its destination, if both exist.
    public func inverse(of relationship: Relationship) -> Relationship? {
        guard let inverseName = relationship.inverseName,
              let destination = entity(named: relationship.inverseEntity ?? relationship.destination)
        else { return nil }
        return self.relationship(inverseName, of: destination)
    }
}

extension String {
    /// Core Data's entity order: case-insensitive, ties broken by code units so the order is total.
    func caseInsensitiveOrder(_ other: String) -> Bool {
        let a = lowercased(), b = other.lowercased()
        if a != b { return Array(a.utf16).lexicographicallyPrecedes(b.utf16) }
        return Array(utf16).lexicographicallyPrecedes(other.utf16)
    }
}
