import CDStoreModel
internal import GRDB

/// What a graph insert decides once per entity and relationship and reuses for every object: each entity's
/// ``EntityWritePlan`` (with its prepared INSERT), how each relationship is stored, and which concrete entity a
/// record names.
struct GraphWritePlans {
    let store: Store
    let options: InsertSettings
    /// How relationships are stored in this store's tables.
    let storage: RelationshipStorage
    /// Input keys ignored under ``InsertSettings/unknownKeys``, for the summary.
    let ignoredKeys = IgnoredKeyTally()
    private var plans: [String: EntityWritePlan] = [:]
    /// The plan used last: records of one input are mostly of one entity.
    private var lastPlan: EntityWritePlan?
    /// Relationship edges by entity and relationship name: describing one copies layouts and looks up the inverse,
    /// 15 k instructions, which a graph load would otherwise pay for every object.
    private var edges: [String: [String: RelationshipStorage.Edge]] = [:]

    init(store: Store, options: InsertSettings) {
        self.store = store
        self.options = options
        storage = RelationshipStorage(model: store.model, layout: store.layout, storeUUID: store.metadata.uuid)
    }

    private var model: ManagedObjectModel { store.model }

    /// The tables this insert wrote objects into.
    var tables: Set<String> { Set(plans.values.map(\.layout.table)) }

    /// The write plan of `entity`, built (and its INSERT prepared on `db`) on first use.
    mutating func plan(for entity: Entity, db: Database) throws -> EntityWritePlan {
        if let last = lastPlan, last.entity.name == entity.name { return last }
        if let plan = plans[entity.name] {
            lastPlan = plan
            return plan
        }
        let plan = try EntityWritePlan(entity: entity, store: store, options: options, ignoredKeys: ignoredKeys)
        plans[entity.name] = plan
        plan.insertStatement = try RawStatement(plan.insertSQL, db: db)
        lastPlan = plan
        return plan
    }

    /// The write plan of the entity an object of `requested` is: the sub-entity `entityName` (or the record's
    /// `_entity`) names, or `requested` itself.
    ///
    /// The object of the last plan's entity (when nothing names another) takes that plan as it is: the entity was
    /// checked when the plan was made. So does a prepared object: the reading thread chose and checked its entity
    /// by the same rule, and one it could not check is not prepared.
    mutating func plan(for requested: Entity, named entityName: String?, fields: [(String, InputValue)],
                       prepared: PreparedObjectRows?, db: Database) throws -> EntityWritePlan {
        if let prepared {
            if let last = lastPlan, last.entity.name == prepared.entityName { return last }
            if let known = plans[prepared.entityName] {
                lastPlan = known
                return known
            }
        }
        let name = entityName ?? Self.stringField(fields, "_entity")
        if name == nil || name == requested.name, let last = lastPlan, last.entity.name == requested.name { return last }
        return try plan(for: concreteEntity(requested, named: name), db: db)
    }

    /// How `relationship` of `entity` is stored, described once per command.
    mutating func edge(_ relationship: String, of entity: String) throws -> RelationshipStorage.Edge {
        if let known = edges[entity]?[relationship] { return known }
        let edge = try storage.writableEdge(relationship, of: entity)
        edges[entity, default: [:]][relationship] = edge
        return edge
    }

    /// The inverse to-one through which nested new objects of the to-many `edge` can be adopted in one UPDATE
    /// (``RelationshipStorage/adopt(_:to:of:db:)``): an unordered to-many kept by its inverse's foreign key, with no
    /// mapping that could rename the inverse's key in nested records.
    func adoptableInverse(_ edge: RelationshipStorage.Edge) -> String? {
        guard case .foreignKey(_, _, _, nil)? = edge.toMany, let inverse = edge.inverse, !inverse.isToMany,
              options.mapping == nil else { return nil }
        return inverse.name
    }

    private func concreteEntity(_ requested: Entity, named name: String?) throws -> Entity {
        var entity = requested
        if let name, name != requested.name {
            guard let named = model.entity(named: name), model.subtree(of: requested).contains(where: { $0.name == name }) else {
                throw StoreError(.unknownName, "'\(name)' is not \(requested.name) or one of its sub-entities",
                                 entity: requested.name, property: "_entity")
            }
            entity = named
        }
        guard !entity.isAbstract else {
            let concrete = model.subtree(of: entity).filter { !$0.isAbstract }.map(\.name)
            throw StoreError(.invalidInput, "the entity is abstract and cannot have objects of its own"
                             + (concrete.isEmpty ? "" : "; insert one of \(concrete.joined(separator: ", ")) (or set \"_entity\")"),
                             entity: entity.name)
        }
        return entity
    }

    private static func stringField(_ fields: [(String, InputValue)], _ key: String) -> String? {
        guard let field = fields.first(where: { $0.0 == key }), case .string(let s) = field.1 else { return nil }
        return s
    }
}
