import CDStoreEngine
import CDStoreJSON
import CDStoreModel

/// What a store diff compares for one entity: the entity in each store, its key and its compared properties.
struct EntityPlan {
    /// One store's side of the entity.
    struct Side {
        let entity: Entity
        let layout: EntityLayout
        /// The key in this store's model; empty when objects are matched by `Z_PK`.
        let key: [KeyMember]
        /// Compared attributes, in the order of ``EntityPlan/fieldNames``.
        let attributes: [Attribute]
        /// Compared relationships, after the attributes in ``EntityPlan/fieldNames``.
        let relationships: [Relationship]
    }

    /// How a compared relationship's values are compared: as a set of objects when either version holds many
    /// (a to-one made to-many compares its object with the one-object set), in order when both keep one.
    struct RelationshipForm: Equatable {
        var toMany: Bool
        var ordered: Bool
    }

    var comparison: EntityComparison
    var a: Side?
    var b: Side?
    /// The compared properties under B's names (A's for an entity only A's model has): attributes, then
    /// relationships.
    var fieldNames: [String]
    /// The forms of the compared relationships, in order.
    var relationshipForms: [RelationshipForm]

    /// The side whose names are shown.
    var shown: Side { b ?? a! }
}

/// Pairs the entities and properties of two stores' models as the inferred mapping pairs them, and chooses how
/// the objects of each entity are matched.
struct DiffPlanner {
    let a: Store
    let b: Store
    let options: StoreDiffOptions
    let matcher: ModelMatcher

    init(a: Store, b: Store, options: StoreDiffOptions) {
        self.a = a
        self.b = b
        self.options = options
        matcher = ModelMatcher(source: a.model, destination: b.model)
    }

    /// A plan for every concrete entity of either model (relationships may lead to any of them): B's entities in
    /// model order, each with the A entity it comes from, then the A entities B has no counterpart for.
    func plans() throws -> [EntityPlan] {
        try checkNames()
        var plans: [EntityPlan] = []
        var used: Set<String> = []
        for entity in b.model.entities where !entity.isAbstract {
            var old = matcher.sourceEntity(for: entity)
            if let found = old, found.isAbstract || !used.insert(found.name).inserted { old = nil }
            plans.append(try plan(old, entity))
        }
        for entity in a.model.entities where !entity.isAbstract && !used.contains(entity.name) {
            plans.append(try plan(entity, nil))
        }
        return plans
    }

    /// The indices of the plans ``StoreDiffOptions/entities`` selects (all when it is empty).
    func selected(_ plans: [EntityPlan]) throws -> [Int] {
        guard !options.entities.isEmpty else { return Array(plans.indices) }
        var namesA: Set<String> = [], namesB: Set<String> = []
        for name in options.entities {
            if let entity = b.model.entity(named: name) { namesB.formUnion(b.model.subtree(of: entity).map(\.name)) }
            if let entity = a.model.entity(named: name) { namesA.formUnion(a.model.subtree(of: entity).map(\.name)) }
        }
        return plans.indices.filter { i in
            plans[i].b.map { namesB.contains($0.entity.name) } == true || plans[i].a.map { namesA.contains($0.entity.name) } == true
        }
    }

    // MARK: - Properties

    private func plan(_ old: Entity?, _ new: Entity?) throws -> EntityPlan {
        let shown = (new ?? old)!
        var attributes: [(Attribute?, Attribute?)] = []
        var relationships: [(Relationship?, Relationship?)] = []
        if let old, let new {
            for attribute in stored(new, b) where !isIgnored(attribute.name, new, b.model) {
                guard let previous = matcher.sourceAttribute(for: attribute, in: old),
                      a.layout.entity(named: old.name)?.attributeColumns[previous.name] != nil,
                      !isIgnored(previous.name, old, a.model) else { continue }
                attributes.append((previous, attribute))
            }
            for relationship in b.model.relationships(of: new) where !relationship.isTransient && !isIgnored(relationship.name, new, b.model) {
                guard let previous = matcher.sourceRelationship(for: relationship, in: old),
                      !isIgnored(previous.name, old, a.model) else { continue }
                relationships.append((previous, relationship))
            }
        } else {
            let store = new == nil ? a : b
            let onA = new == nil
            for attribute in stored(shown, store) where !isIgnored(attribute.name, shown, store.model) {
                attributes.append(onA ? (attribute, nil) : (nil, attribute))
            }
            for relationship in store.model.relationships(of: shown)
            where !relationship.isTransient && !isIgnored(relationship.name, shown, store.model) {
                relationships.append(onA ? (relationship, nil) : (nil, relationship))
            }
        }
        let key = try key(old, new)
        func side(_ entity: Entity?, _ store: Store, _ key: [KeyMember], _ pick: ((Attribute?, Attribute?)) -> Attribute?,
                  _ pickRelationship: ((Relationship?, Relationship?)) -> Relationship?) -> EntityPlan.Side? {
            guard let entity, let layout = store.layout.entity(named: entity.name) else { return nil }
            return EntityPlan.Side(entity: entity, layout: layout, key: key,
                                   attributes: attributes.compactMap(pick), relationships: relationships.compactMap(pickRelationship))
        }
        let names = attributes.map { ($0.1 ?? $0.0)!.name } + relationships.map { ($0.1 ?? $0.0)!.name }
        return EntityPlan(comparison: EntityComparison(entity: shown.name, key: key.kind),
                          a: side(old, a, key.a, { $0.0 }, { $0.0 }), b: side(new, b, key.b, { $0.1 }, { $0.1 }),
                          fieldNames: names, relationshipForms: relationships.map { pair in
                              let both = [pair.0, pair.1].compactMap { $0 }
                              return EntityPlan.RelationshipForm(toMany: both.contains { $0.isToMany },
                                                                 ordered: both.allSatisfy { $0.isToMany && $0.isOrdered })
                          })
    }

    /// The attributes of `entity` (inherited ones first) that have a column.
    func stored(_ entity: Entity, _ store: Store) -> [Attribute] {
        let columns = store.layout.entity(named: entity.name)?.attributeColumns ?? [:]
        return store.model.attributes(of: entity).filter { !$0.isTransient && columns[$0.name] != nil }
    }

    /// Whether `--ignore` names the property: `name`, or `Entity.name` for the entity or one of its ancestors.
    private func isIgnored(_ name: String, _ entity: Entity, _ model: ManagedObjectModel) -> Bool {
        let owners = [entity.name] + model.ancestors(of: entity).map(\.name)
        return options.ignored.contains { spec in
            spec == name || owners.contains { spec == "\($0).\(name)" }
        }
    }

    // MARK: - Names

    /// Every entity and property the options name exists in one of the models.
    private func checkNames() throws {
        let entityNames = Set(a.model.entities.map(\.name) + b.model.entities.map(\.name))
        func entity(_ name: String, _ input: ErrorInput) throws {
            guard entityNames.contains(name) else {
                throw StoreError(.unknownName, "no entity '\(name)' in either model"
                                 + Suggestion.didYouMean(name, among: Array(entityNames))).about(input)
            }
        }
        for name in options.entities { try entity(name, .comparedEntities) }
        for name in options.keys.keys { try entity(name, .matchKeys) }
        for spec in options.ignored {
            let parts = spec.split(separator: ".", maxSplits: 1).map(String.init)
            let (owner, property) = parts.count == 2 ? (parts[0], parts[1]) : (nil, spec)
            if let owner { try entity(owner, .ignoredProperties) }
            var names: [String] = []
            for store in [a, b] {
                for entity in store.model.entities where owner == nil || entity.name == owner {
                    for member in store.model.subtree(of: entity) {
                        names += store.model.attributes(of: member).map(\.name) + store.model.relationships(of: member).map(\.name)
                    }
                }
            }
            guard names.contains(property) else {
                throw StoreError(.unknownName, "no property '\(property)'" + (owner.map { " in \($0)" } ?? "")
                                 + Suggestion.didYouMean(property, among: Array(Set(names)))).about(.ignoredProperties)
            }
        }
    }
}
