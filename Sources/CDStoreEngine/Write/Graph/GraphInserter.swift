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
    let options: InsertSettings
    /// How relationships are stored (the same value ``plans`` describes edges with).
    let storage: RelationshipStorage
    /// The write plans and relationship edges, made once per entity.
    var plans: GraphWritePlans
    /// Primary keys for new objects, from `Z_MAX`.
    var allocator: PrimaryKeyAllocator
    /// Objects that existed before this transaction and whose rows it changed.
    private var touchedObjects = TouchedObjects()
    /// Rows of nested objects waiting for their parent's key (see ``insert(_:as:entityName:adoptedBy:prepared:)``),
    /// of every level of nesting, each tagged with its parent's group. Anything that reads the tables first writes
    /// them (``flushWaiting()``): a `_ref` later in the same record must find them.
    var waiting: [PendingRow] = []
    /// New objects from prepared rows (``insert(prepared:as:record:line:)``), written together once there are
    /// ``EntityWritePlan/rowsPerBatch`` of them, and before anything else is inserted (``writePrepared()``).
    var batch: [PreparedObject] = []
    /// Plain indexes dropped for a bulk load, restored before anything reads through them (``DeferredIndexes``).
    var deferredIndexes: DeferredIndexes?
    /// The `_ref` lookups prepared so far.
    let lookupShapes = ObjectLookup.Shapes()
    /// Where the text of new rows is copied for their INSERTs (``bindNewRow(_:_:plan:to:base:)``).
    let boundText = BoundText()
    /// The last group number handed out.
    private var groups = 0
    /// The objects being inserted inside each other: the record, its nested objects, theirs…
    private var nesting = 0
    /// How deep nested objects may go. JSON allows 512 levels, but inserting one level takes tens of kilobytes of
    /// stack in a debug build: 200 nested managers overflowed the 8 MiB main thread of `cdstore insert`.
    static let nestingLimit = 100

    init(store: Store, db: Database, options: InsertSettings) {
        self.store = store
        self.db = db
        self.options = options
        plans = GraphWritePlans(store: store, options: options)
        storage = plans.storage
        allocator = PrimaryKeyAllocator(layout: store.layout)
    }

    var model: ManagedObjectModel { store.model }

    /// Input keys ignored under ``InsertSettings/unknownKeys``, for the summary.
    var ignoredKeys: IgnoredKeyTally { plans.ignoredKeys }

    /// The tables this insert wrote objects into.
    var tables: Set<String> { plans.tables }

    /// Objects that existed before this transaction and whose rows the records stored so far changed.
    var touched: Set<ObjectRef> { touchedObjects.kept }

    /// The write plan of `entity`, built on first use.
    mutating func plan(for entity: Entity) throws -> EntityWritePlan {
        try plans.plan(for: entity, db: db)
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
        let plan = try plans.plan(for: requested, named: entityName, fields: fields, prepared: prepared, db: db)
        // The plan's entity, read where needed: a copy of the `Entity` value (and its release) cost 800 instructions.
        let concreteName = plan.entity.name
        // Sorted on the reading thread when it prepared this object (it refuses unknown keys, so nothing is left
        // for this plan's tally of ignored ones).
        let sorted = if let prepared, prepared.entityName == concreteName { prepared.fields } else {
            try plan.sort(fields, model: model)
        }
        // Related objects first: nested inserts and references resolve to rows before this one is written.
        var related = try relatedObjects(sorted, of: concreteName, prepared: prepared)
        guard let (object, isNew) = try store(sorted, plan: plan, related: &related, adoptedBy: adoptedBy, prepared: prepared)
        else { return related.waitingObject! }
        try link(object, isNew: isNew, related: related, plan: plan, sorted: sorted)
        return object
    }

    /// The objects a record's relationships name, resolved (nested new objects inserted, references looked up)
    /// before the record's own row is written.
    struct RelatedObjects {
        var toOnes: [(RelationshipStorage.Edge, ObjectRef?)] = []
        var toManys: [(RelationshipStorage.Edge, [ObjectRef])] = []
        /// Nested new objects of a to-many kept by their inverse's foreign key: written once this object's key is
        /// known (``waiting``), or given it in one UPDATE.
        var adopted: [(edge: RelationshipStorage.Edge, children: [ObjectRef], group: Int)] = []
        /// The new object, when its row waits for its parent's key instead of being written.
        var waitingObject: ObjectRef?
    }

    private mutating func relatedObjects(_ sorted: PlannedFields, of concreteName: String,
                                         prepared: PreparedObjectRows?) throws -> RelatedObjects {
        var related = RelatedObjects()
        for (relationship, value) in sorted.relationships {
            let edge = try plans.edge(relationship.name, of: concreteName)
            if relationship.isToMany {
                let inverseName = plans.adoptableInverse(edge)
                guard case .array(let items) = value else {
                    if case .null = value { related.toManys.append((edge, [])); continue }
                    // A CSV cell holds a to-many as the JSON array of object IDs that CSV output writes (`[]`).
                    if case .string(let text) = value, text.first == "[", case .array(let ids)? = try? JSONReader.parse(text),
                       ids.allSatisfy({ if case .string = $0 { true } else { false } }) {
                        related.toManys.append((edge, try ids.map { try resolve($0, edge: edge) }))
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
                    related.adopted.append((edge, children, group))
                } else {
                    try flushWaiting()
                    related.toManys.append((edge, children + targets))
                }
            } else {
                if case .null = value { related.toOnes.append((edge, nil)); continue }
                related.toOnes.append((edge, try resolve(value, edge: edge, prepared: prepared?.nested(relationship.name, at: 0))))
            }
        }
        return related
    }

    /// Writes the record's row: merged into an existing object (with upsert), or a new object's INSERT, which
    /// writes the foreign keys of its direct to-ones itself (taken out of `related`). Returns the object and
    /// whether it is new, or nil when the new row waits in ``waiting`` for its parent (``RelatedObjects/waitingObject``).
    private mutating func store(_ sorted: PlannedFields, plan: EntityWritePlan, related: inout RelatedObjects,
                                adoptedBy: (relationship: String, group: Int)?,
                                prepared: PreparedObjectRows?) throws -> (ObjectRef, isNew: Bool)? {
        var row: [DatabaseValue]
        if let prepared, prepared.entityName == plan.entity.name, let converted = prepared.row {
            row = converted
        } else {
            row = try plan.row(sorted, validatingMissing: !plan.mayMerge)
        }
        // A merge must find rows that are still waiting; a refusal is checked against them in memory.
        if plan.mergeKeys.contains(where: \.merges) { try flushWaiting() }
        if plan.mayMerge, let existing = try existingObject(plan, row: row, toOnes: related.toOnes, fields: sorted) {
            do {
                try update(existing, plan: plan, row: row, fields: sorted)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                // Merged into the object of one constraint, the values collide with another object on another one.
                throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout,
                                             values: sorted.attributeInputs(plan))
            }
            return (existing, false)
        }
        if plan.mayMerge { try plan.validateMissing(row, sorted) }
        let object = ObjectRef(pk: try allocator.next(entityNumber: plan.entityNumber, table: plan.table, db: db),
                               entityNumber: plan.entityNumber)
        let pending = PendingRow(plan: plan, object: object, row: row, inputs: sorted)
        related.toOnes.removeAll { edge, target in
            guard let direct = plan.directToOnes[edge.relationship.name] else { return false }
            if let target { pending.toOnes.append((direct, target)) }
            return true
        }
        if !waiting.isEmpty { try checkAgainstWaiting(pending) }
        if let adoptedBy, let slot = plan.directToOnes[adoptedBy.relationship], related.toOnes.isEmpty,
           related.toManys.isEmpty, related.adopted.isEmpty {
            pending.parentSlot = slot
            pending.group = adoptedBy.group
            waiting.append(pending)
            related.waitingObject = object
            return nil
        }
        try write(pending)
        row.removeAll()
        return (object, true)
    }

    /// Sets the relationships the row's INSERT did not write: to-ones kept elsewhere, to-manys (replacing an
    /// existing object's), and the nested objects adopted through their inverse.
    private mutating func link(_ object: ObjectRef, isNew: Bool, related: RelatedObjects, plan: EntityWritePlan,
                               sorted: PlannedFields) throws {
        touch(object)
        if !related.toOnes.isEmpty || !related.toManys.isEmpty || (!isNew && !related.adopted.isEmpty) {
            // Relationship updates find rows by foreign key.
            try deferredIndexes?.restore(db: db)
        }
        do {
            for (edge, target) in related.toOnes {
                touch(try storage.setToOne(edge, of: object, to: target, db: db))
            }
            for (edge, targets) in related.toManys {
                if !isNew { touch(try storage.removeAll(from: edge, of: object, db: db)) }
                touch(try storage.add(targets, to: edge, of: object, db: db))
            }
            for (edge, children, group) in related.adopted {
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
        if !allocator.isNew(object) { touchedObjects.insert(object) }
    }

    /// The record just inserted is stored: what it touched counts.
    mutating func keepTouched() {
        touchedObjects.keep()
    }

    /// The record just inserted was rolled back: what it touched, and rows it left waiting, are gone with it.
    mutating func forgetTouched() {
        touchedObjects.forget()
        waiting.removeAll()
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
