import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// Inserts a graph of objects from nested records within one transaction: nested objects become new
/// related objects, object ID strings and `{"_ref": {…}}` refer to existing ones.
///
/// Each entity's ``EntityWritePlan`` is built once; a new object is one INSERT that also writes the foreign keys
/// of its to-ones (and of the parent a nested object belongs to), so a flat record costs one statement.
struct GraphInserter {
    let store: Store
    let db: Database
    let options: InsertOptions
    let storage: RelationshipStorage
    var allocator: PrimaryKeyAllocator
    /// Objects that existed before this transaction and whose rows it changed (new objects are known to the
    /// allocator by their key range, so that memory stays flat however many are inserted).
    private(set) var touched: Set<ObjectRef> = []
    /// What the record being inserted touched, until ``keepTouched()`` or ``forgetTouched()``.
    private var pendingTouched: Set<ObjectRef> = []
    private var plans: [String: EntityWritePlan] = [:]
    /// Rows of nested objects waiting for their parent's key (see ``insert(_:as:entityName:adoptedBy:)``), of
    /// every level of nesting, each tagged with its parent's group. Anything that reads the tables first writes
    /// them (``flushWaiting()``): a `_ref` later in the same record must find them.
    var waiting: [PendingRow] = []
    /// New objects from prepared rows (``insert(prepared:as:record:line:)``), written together once there are
    /// ``EntityWritePlan/rowsPerBatch`` of them, and before anything else is inserted (``writePrepared()``).
    var batch: [PreparedObject] = []
    /// Relationship edges by entity and relationship name: describing one copies layouts and looks up the inverse,
    /// 15 k instructions, which the graph load paid twice per department.
    private var edges: [String: [String: RelationshipStorage.Edge]] = [:]
    /// Plain indexes dropped for a bulk load, restored before anything reads through them (``DeferredIndexes``).
    var deferredIndexes: DeferredIndexes?
    /// The `_ref` lookups prepared so far.
    let lookupShapes = ObjectLookup.Shapes()
    /// Where the text of new rows is copied for their INSERTs (``bindNewRow(_:_:plan:to:base:)``).
    let boundText = BoundText()
    /// The last group number handed out.
    private var groups = 0
    /// The plan used last: records of one input are mostly of one entity.
    private var lastPlan: EntityWritePlan?
    /// Input keys ignored under ``InsertOptions/unknownKeys``, for the summary.
    let ignoredKeys = IgnoredKeyTally()
    /// The objects being inserted inside each other: the record, its nested objects, theirs…
    private var nesting = 0
    /// How deep nested objects may go. JSON allows 512 levels, but inserting one level takes tens of kilobytes of
    /// stack in a debug build: 200 nested managers overflowed the 8 MiB main thread of `cdstore insert`.
    static let nestingLimit = 100

    init(store: Store, db: Database, options: InsertOptions) {
        self.store = store
        self.db = db
        self.options = options
        self.storage = RelationshipStorage(model: store.model, layout: store.layout, storeUUID: store.metadata.uuid)
        allocator = PrimaryKeyAllocator(layout: store.layout)
    }

    var model: ManagedObjectModel { store.model }

    /// The write plan of `entity`, built on first use.
    mutating func plan(for entity: Entity) throws -> EntityWritePlan {
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
    private mutating func plan(for requested: Entity, named entityName: String?, fields: [(String, InputValue)],
                               prepared: PreparedObjectRows?) throws -> EntityWritePlan {
        if let prepared {
            if let last = lastPlan, last.entity.name == prepared.entityName { return last }
            if let known = plans[prepared.entityName] {
                lastPlan = known
                return known
            }
        }
        let name = entityName ?? stringField(fields, "_entity")
        if name == nil || name == requested.name, let last = lastPlan, last.entity.name == requested.name { return last }
        return try plan(for: concreteEntity(requested, named: name))
    }

    /// Inserts (or, with upsert, merges) one object from `fields`, with everything nested in it.
    ///
    /// `adoptedBy` names the inverse to-one of a nested object whose parent is not written yet: when the object
    /// needs nothing after its INSERT, the INSERT waits in ``waiting`` for the parent's key, so that it writes the
    /// parent's foreign key itself instead of an UPDATE writing it afterwards.
    ///
    /// `prepared` holds the rows a ``RecordPreparer`` converted for this object and those nested in it, used for
    /// the objects whose entity they were made for.
    mutating func insert(_ fields: [(String, InputValue)], as requested: Entity, entityName: String?,
                         adoptedBy: (relationship: String, group: Int)? = nil,
                         prepared: PreparedObjectRows? = nil) throws -> ObjectRef {
        if !batch.isEmpty { try writePrepared() }
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.nestingLimit else {
            throw StoreError(.invalidInput, "objects nested more than \(Self.nestingLimit) deep; insert the deeper ones "
                             + "first and refer to them (an object ID or {\"_ref\": …})", entity: requested.name)
        }
        let plan = try plan(for: requested, named: entityName, fields: fields, prepared: prepared)
        // The plan's entity, read where needed: a copy of the `Entity` value (and its release) cost 800 instructions.
        let concreteName = plan.entity.name
        // Sorted on the reading thread when it prepared this object (it refuses unknown keys, so nothing is left
        // for this plan's tally of ignored ones).
        let sorted = if let prepared, prepared.entityName == concreteName { prepared.fields } else {
            try plan.sort(fields, model: model)
        }

        // Related objects first: nested inserts and references resolve to rows before this one is written.
        var toOneTargets: [(RelationshipStorage.Edge, ObjectRef?)] = []
        var toManyTargets: [(RelationshipStorage.Edge, [ObjectRef])] = []
        // Nested new objects of a to-many kept by their inverse's foreign key: written once this object's key is
        // known (`waiting`), or given it in one UPDATE.
        var adopted: [(edge: RelationshipStorage.Edge, children: [ObjectRef], group: Int)] = []
        for (relationship, value) in sorted.relationships {
            let edge = try self.edge(relationship.name, of: concreteName)
            if relationship.isToMany {
                let inverseName = adoptableInverse(edge)
                guard case .array(let items) = value else {
                    if case .null = value { toManyTargets.append((edge, [])); continue }
                    // A CSV cell holds a to-many as the JSON array of object IDs that CSV output writes (`[]`).
                    if case .string(let text) = value, text.first == "[", case .array(let ids)? = try? JSONReader.parse(text),
                       ids.allSatisfy({ if case .string = $0 { true } else { false } }) {
                        toManyTargets.append((edge, try ids.map { try resolve($0, edge: edge) }))
                        continue
                    }
                    throw failure(concreteName, relationship.name, "a to-many relationship takes an array, got \(value.summary)")
                }
                var targets: [ObjectRef] = []
                var children: [ObjectRef] = []
                let destination = model.entity(named: relationship.destination)!
                groups += 1
                let group = groups
                for (index, item) in items.enumerated() {
                    let rows = prepared?.nested(relationship.name, at: index)
                    if let inverseName, case .object(let nested) = item, mayWait(nested, prepared: rows, inverse: inverseName) {
                        children.append(try insert(nested, as: destination, entityName: nil,
                                                   adoptedBy: (inverseName, group), prepared: rows))
                    } else {
                        targets.append(try resolve(item, edge: edge, prepared: rows))
                    }
                }
                // Nested objects come first in the relationship, as they come first in the input only when the
                // input has no references; mixing both keeps the general path.
                if !children.isEmpty && targets.isEmpty {
                    adopted.append((edge, children, group))
                } else {
                    try flushWaiting()
                    toManyTargets.append((edge, children + targets))
                }
            } else {
                if case .null = value { toOneTargets.append((edge, nil)); continue }
                toOneTargets.append((edge, try resolve(value, edge: edge, prepared: prepared?.nested(relationship.name, at: 0))))
            }
        }

        var row: [DatabaseValue]
        if let prepared, prepared.entityName == concreteName, let converted = prepared.row {
            row = converted
        } else {
            row = try plan.row(sorted, validatingMissing: !plan.mayMerge)
        }
        // A merge must find rows that are still waiting; a refusal is checked against them in memory.
        if plan.mergeKeys.contains(where: \.merges) { try flushWaiting() }
        let object: ObjectRef
        var isNew = true
        if plan.mayMerge, let existing = try existingObject(plan, row: row, toOnes: toOneTargets, fields: sorted) {
            do {
                try update(existing, plan: plan, row: row, fields: sorted)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                // Merged into the object of one constraint, the values collide with another object on another one.
                throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout,
                                             values: sorted.attributeInputs(plan))
            }
            object = existing
            isNew = false
        } else {
            if plan.mayMerge { try plan.validateMissing(row, sorted) }
            object = ObjectRef(pk: try allocator.next(entityNumber: plan.entityNumber, table: plan.table, db: db),
                               entityNumber: plan.entityNumber)
            let pending = PendingRow(plan: plan, object: object, row: row, inputs: sorted)
            toOneTargets.removeAll { edge, target in
                guard let direct = plan.directToOnes[edge.relationship.name] else { return false }
                if let target { pending.toOnes.append((direct, target)) }
                return true
            }
            if !waiting.isEmpty { try checkAgainstWaiting(pending) }
            if let adoptedBy, let slot = plan.directToOnes[adoptedBy.relationship], toOneTargets.isEmpty,
               toManyTargets.isEmpty, adopted.isEmpty {
                pending.parentSlot = slot
                pending.group = adoptedBy.group
                waiting.append(pending)
                return object
            }
            try write(pending)
            row.removeAll()
        }
        touch(object)
        if !toOneTargets.isEmpty || !toManyTargets.isEmpty || (!isNew && !adopted.isEmpty) {
            // Relationship updates find rows by foreign key.
            try deferredIndexes?.restore(db: db)
        }
        do {
            for (edge, target) in toOneTargets {
                touch(try storage.setToOne(edge, of: object, to: target, db: db))
            }
            for (edge, targets) in toManyTargets {
                if !isNew { touch(try storage.removeAll(from: edge, of: object, db: db)) }
                touch(try storage.add(targets, to: edge, of: object, db: db))
            }
            for (edge, children, group) in adopted {
                if !isNew { touch(try storage.removeAll(from: edge, of: object, db: db)) }
                // Those still waiting get this object's key in their INSERT; those written meanwhile, an UPDATE.
                let held = takeWaiting(group: group)
                try writeHeld(held, parent: object)
                if held.count != children.count {
                    let heldObjects = Set(held.map(\.object))
                    try storage.adopt(children.filter { !heldObjects.contains($0) }, to: edge, of: object, db: db)
                }
                touch(object)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout,
                                         values: sorted.attributeInputs(plan))
        }
        return object
    }

    /// How `relationship` of `entity` is stored, described once per command.
    private mutating func edge(_ relationship: String, of entity: String) throws -> RelationshipStorage.Edge {
        if let known = edges[entity]?[relationship] { return known }
        let edge = try storage.edge(relationship, of: entity)
        edges[entity, default: [:]][relationship] = edge
        return edge
    }

    /// Whether the nested new object `fields` may wait for its parent's key: it is not a `{"_ref": …}` and does not
    /// set the inverse to-one itself. A prepared object answers from its sorted relationships, without comparing
    /// every key: the reading thread prepares no `_ref`, and sorts the inverse's key, when present, among them.
    private func mayWait(_ fields: [(String, InputValue)], prepared: PreparedObjectRows?, inverse: String) -> Bool {
        if let prepared { return !prepared.fields.relationships.contains { $0.0.name == inverse } }
        return !fields.contains { $0.0 == "_ref" || $0.0 == inverse }
    }

    /// Records `objects` as changed by this transaction, unless it created them.
    private mutating func touch(_ objects: some Sequence<ObjectRef>) {
        for object in objects { touch(object) }
    }

    mutating func touch(_ object: ObjectRef) {
        if !allocator.isNew(object) { pendingTouched.insert(object) }
    }

    /// The record just inserted is stored: what it touched counts.
    mutating func keepTouched() {
        guard !pendingTouched.isEmpty else { return }
        touched.formUnion(pendingTouched)
        pendingTouched.removeAll(keepingCapacity: true)
    }

    /// The record just inserted was rolled back: what it touched, and rows it left waiting, are gone with it.
    mutating func forgetTouched() {
        pendingTouched.removeAll(keepingCapacity: true)
        waiting.removeAll()
    }

    /// The tables this insert wrote objects into.
    var tables: Set<String> { Set(plans.values.map(\.layout.table)) }

    /// The inverse to-one through which nested new objects of the to-many `edge` can be adopted in one UPDATE
    /// (``RelationshipStorage/adopt(_:to:of:db:)``): an unordered to-many kept by its inverse's foreign key, with no
    /// mapping that could rename the inverse's key in nested records.
    private func adoptableInverse(_ edge: RelationshipStorage.Edge) -> String? {
        guard case .foreignKey(_, _, _, nil)? = edge.toMany, let inverse = edge.inverse, !inverse.isToMany,
              options.mapping == nil else { return nil }
        return inverse.name
    }

    /// Overwrites the given attributes of an existing row (a merge keeps what the input left out).
    private func update(_ object: ObjectRef, plan: EntityWritePlan, row: [DatabaseValue], fields: PlannedFields) throws {
        let changed = plan.columns.indices.filter { fields.attributes[$0] != nil }
        guard !changed.isEmpty else { return }
        // Bound exactly: a string with a NUL inside is stored whole.
        try db.executeExactly(sql: "UPDATE \(plan.layout.table) SET \(changed.map { "\(plan.columns[$0].column) = ?" }.joined(separator: ", ")) WHERE Z_PK = ?",
                              values: changed.map { row[$0] } + [object.pk.databaseValue])
    }

    /// The object a relationship value stands for: a nested object (inserted), an object ID, a `{"_ref": …}`
    /// lookup, or — when the mapping says which destination attribute it names — a scalar key.
    private mutating func resolve(_ value: InputValue, edge: RelationshipStorage.Edge,
                                  prepared: PreparedObjectRows? = nil) throws -> ObjectRef {
        let destination = model.entity(named: edge.relationship.destination)!
        let name = edge.relationship.name
        let owner = edge.entity.name
        // Anything but a nested new object is a lookup in the destination's table.
        let isNested = if case .object(let fields) = value { !fields.contains { $0.0 == "_ref" } } else { false }
        if !isNested, let deferredIndexes, let table = store.layout.entity(named: destination.name)?.table {
            try deferredIndexes.restore(for: table, db: db)
        }
        switch value {
        case .object(let fields):
            if let reference = fields.first(where: { $0.0 == "_ref" }) {
                try flushWaiting()
                guard case .object(let criteria) = reference.1, fields.count == 1 else {
                    throw failure(owner, name, "\"_ref\" takes an object of attribute values, alone: {\"_ref\": {\"name\": \"Ann\"}}")
                }
                return try ObjectLookup(store: store, db: db, shapes: lookupShapes).unique(matching: criteria, in: destination, for: (owner, name))
            }
            return try insert(fields, as: destination, entityName: nil, prepared: prepared)
        case .string(let text) where text.hasPrefix("x-coredata://"):
            try flushWaiting()
            guard let id = ObjectID(uri: text) else { throw failure(owner, name, "'\(text)' is not an object ID") }
            return try ObjectLookup(store: store, db: db, shapes: lookupShapes).object(id, in: destination, for: (owner, name))
        case .string, .integer, .double, .bool:
            let mapping = options.mapping?.mapping(for: model.entity(named: owner)!, in: model)
            let keyAttribute = mapping?.relatedBy[name]
                ?? options.mapping?.mapping(for: destination, in: model).identity.first
            guard let keyAttribute else {
                throw failure(owner, name, "expected a nested object, an object ID (x-coredata://…) or {\"_ref\": {…}}, "
                              + "got \(value.summary)")
            }
            try flushWaiting()
            if let found = try ObjectLookup(store: store, db: db, shapes: lookupShapes).first(matching: [(keyAttribute, value)], in: destination) {
                return found
            }
            return try insert([(keyAttribute, value)], as: destination, entityName: nil)
        default:
            throw failure(owner, name, "expected a nested object, an object ID or {\"_ref\": {…}}, got \(value.summary)")
        }
    }

    /// An existing object this record must merge into (with upsert) or collide with (without it): one with the
    /// same values for a uniqueness constraint or for the mapping's identity attributes.
    ///
    /// A key that only refuses, and that a UNIQUE index of the table enforces, is not looked up: the INSERT fails on
    /// it, and ``write(_:parent:)`` then looks it up (`enforcedKeys: true`) to name the object in the same error.
    /// The lookup before each object was a sixth of a graph load's writing thread.
    mutating func existingObject(_ plan: EntityWritePlan, row: [DatabaseValue],
                                 toOnes: [(RelationshipStorage.Edge, ObjectRef?)],
                                 fields: PlannedFields, enforcedKeys: Bool = false) throws -> ObjectRef? {
        let enforced = try plan.keysEnforcedByIndexes(db: db)
        keys: for (number, key) in plan.mergeKeys.enumerated() {
            guard let parts = key.parts, enforcedKeys || !enforced.contains(number) else { continue }
            // Once covered, a key stays covered (restoring only adds indexes): asked once per key, not per object.
            if let deferredIndexes, !plan.coveredMergeKeys.contains(number) {
                if !deferredIndexes.isCovered(plan.table, columns: key.columns) { try deferredIndexes.restore(db: db) }
                plan.coveredMergeKeys.insert(number)
            }
            let statement = try plan.mergeStatement(number, db: db)
            for (index, part) in parts.enumerated() {
                let value: DatabaseValue
                switch part {
                case .attribute(let slot): value = row[slot]
                case .toOne(let name):
                    guard let target = toOnes.first(where: { $0.0.relationship.name == name })?.1 else { continue keys }
                    value = target.pk.databaseValue
                }
                if value.isNull { continue keys }
                statement.bind(value, at: Int32(index + 1))
            }
            guard let (pk, number) = try statement.firstPair() else { continue }
            let object = ObjectRef(pk: pk, entityNumber: Int(number))
            guard key.merges else { throw refusal(key, plan: plan, row: row, toOnes: toOnes, existing: object) }
            return object
        }
        return nil
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

    private func stringField(_ fields: [(String, InputValue)], _ key: String) -> String? {
        guard let field = fields.first(where: { $0.0 == key }), case .string(let s) = field.1 else { return nil }
        return s
    }

    private func failure(_ entity: Entity, _ property: String, _ message: String) -> StoreError {
        failure(entity.name, property, message)
    }

    private func failure(_ entity: String, _ relationship: String, _ message: String) -> StoreError {
        StoreError(.invalidInput, message, entity: entity, property: relationship).aboutRelationship()
    }
}

extension ManagedObjectModel {
    /// Uniqueness constraints that apply to objects of `entity`: its own and its ancestors'.
    func uniquenessConstraintsInHierarchy(of entity: Entity) -> [[String]] {
        (ancestors(of: entity) + [entity]).flatMap(\.uniquenessConstraints)
    }
}
