import CDStoreJSON
import CDStoreModel
internal import GRDB

/// A new object's row, converted and validated, and the INSERT that writes it.
///
/// A class: rows waiting for their parent are appended, sliced and handed around, and copying the struct went
/// through its value witnesses, 3,400 instructions per object of a graph load. Set up before it is shared, never
/// changed after.
final class PendingRow {
    let plan: EntityWritePlan
    let object: ObjectRef
    let row: [DatabaseValue]
    /// The input, for constraint messages; nil for a prepared row (its stored values stand in for it).
    let inputs: PlannedFields?
    /// Targets of the to-ones whose foreign keys the INSERT writes.
    var toOnes: [(EntityWritePlan.DirectToOne, ObjectRef)] = []
    /// For a row waiting for its parent: the to-one that will hold the parent, and the parent's group.
    var parentSlot: EntityWritePlan.DirectToOne?
    var group = 0

    init(plan: EntityWritePlan, object: ObjectRef, row: [DatabaseValue], inputs: PlannedFields?) {
        self.plan = plan
        self.object = object
        self.row = row
        self.inputs = inputs
    }
}

extension GraphInserter {
    /// Runs the INSERT of `pending`: one prepared statement per entity, bound in place. A row that waited for its
    /// `parent` gets the parent's key in its ``PendingRow/parentSlot``.
    mutating func write(_ pending: PendingRow, parent: ObjectRef? = nil) throws {
        let plan = pending.plan
        let statement = plan.insertStatement!
        bindNewRow(pending.object, pending.row, plan: plan, to: statement)
        for (direct, target) in pending.toOnes { bind(target, to: direct, in: statement) }
        if let parent, let slot = pending.parentSlot { bind(parent, to: slot, in: statement) }
        do {
            try statement.execute()
            boundText.reuse()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A uniqueness constraint whose lookup was left to the index: the object it collides with, named as
            // the lookup names it (a refusal from `existingObject` is thrown from there). The parent a waiting row
            // gets here was not known to the lookup before either: a key through it is left to the index's error.
            if !(try plan.keysEnforcedByIndexes(db: db)).isEmpty {
                let edges = try pending.toOnes.map { direct, target in
                    (try storage.edge(direct.relationship.name, of: plan.entity.name), Optional(target))
                }
                _ = try existingObject(plan, row: pending.row, toOnes: edges,
                                       fields: pending.inputs ?? PlannedFields(prepared: pending.row), enforcedKeys: true)
            }
            throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout,
                                         values: (pending.inputs ?? PlannedFields(prepared: pending.row)).attributeInputs(plan))
        }
    }

    /// Binds what every new row of `plan` holds to the INSERT parameters after `base`: its key, entity number,
    /// version 1 and attribute values, and NULL for the to-ones the INSERT writes (whose targets the caller binds
    /// over them). A multi-row INSERT binds row after row, each at the previous one's base plus
    /// ``EntityWritePlan/parameterCount``. Text is bound from copies in ``boundText``, which the caller makes
    /// free for reuse once the statement ran.
    func bindNewRow(_ object: ObjectRef, _ row: [DatabaseValue], plan: EntityWritePlan, to statement: RawStatement,
                    base: Int32 = 0) {
        statement.bind(object.pk, at: base + 1)
        statement.bind(Int64(object.entityNumber), at: base + 2)
        statement.bind(1, at: base + 3)
        for (index, value) in row.enumerated() {
            if case .string(let text) = value.storage {
                boundText.bind(text, to: statement.sqliteStatement, at: base + Int32(index + 4))
            } else {
                statement.bind(value, at: base + Int32(index + 4))
            }
        }
        for direct in plan.directToOnes.values {
            statement.bind(.null, at: base + direct.parameter)
            if direct.hasEntityColumn { statement.bind(.null, at: base + direct.parameter + 1) }
        }
    }

    mutating func bind(_ target: ObjectRef, to direct: EntityWritePlan.DirectToOne, in statement: RawStatement,
                       base: Int32 = 0) {
        statement.bind(target.pk, at: base + direct.parameter)
        if direct.hasEntityColumn { statement.bind(Int64(target.entityNumber), at: base + direct.parameter + 1) }
        // The target's to-many changed (Core Data bumps its Z_OPT when it existed before).
        touch(target)
    }

    /// Takes the rows waiting in `group` out of ``waiting``, in order. They are nearly always its last rows (a
    /// parent's nested objects are inserted just before it): then they are cut off without a search.
    mutating func takeWaiting(group: Int) -> ArraySlice<PendingRow> {
        guard let start = waiting.firstIndex(where: { $0.group == group }) else { return [] }
        if waiting[start...].allSatisfy({ $0.group == group }) {
            let held = waiting[start...]
            waiting.removeSubrange(start...)
            return held
        }
        let held = waiting.filter { $0.group == group }
        waiting.removeAll { $0.group == group }
        return held[...]
    }

    /// Writes every row still waiting for its parent, without the parent's key (its parent will give it with an
    /// UPDATE): something is about to read the tables and must see them.
    mutating func flushWaiting() throws {
        guard !waiting.isEmpty else { return }
        let rows = waiting
        waiting.removeAll()
        for row in rows { try write(row) }
    }

    /// Rows waiting for their parent are not in the tables yet, so the lookup of a new row's uniqueness
    /// constraints could not see them: compare it with those of its table.
    func checkAgainstWaiting(_ pending: PendingRow) throws {
        for key in pending.plan.mergeKeys {
            guard let slots = key.attributeSlots, slots.allSatisfy({ !pending.row[$0].isNull }) else { continue }
            // By index: iterating the rows themselves copied each one (its arrays retained and released).
            for index in waiting.indices {
                let otherPlan = waiting[index].plan
                guard otherPlan === pending.plan || otherPlan.table == pending.plan.table else { continue }
                // Rows of the same entity (nearly always) have the same slots: no search through the other's keys.
                let otherSlots = otherPlan === pending.plan ? slots
                    : otherPlan.mergeKeys.first(where: { $0.properties == key.properties })?.attributeSlots
                guard let otherSlots, zip(slots, otherSlots).allSatisfy({ waiting[index].row[$1] == pending.row[$0] }) else { continue }
                throw refusal(key, plan: pending.plan, row: pending.row, toOnes: [], existing: waiting[index].object)
            }
        }
    }

    /// The error for a record whose values for a uniqueness constraint `key` another object already has:
    /// `uniqueness constraint (email) violated: an object with email = 'a@x' already exists (x-coredata://…)`.
    func refusal(_ key: EntityWritePlan.MergeKey, plan: EntityWritePlan, row: [DatabaseValue],
                 toOnes: [(RelationshipStorage.Edge, ObjectRef?)], existing: ObjectRef) -> StoreError {
        let described = zip(key.properties, key.parts ?? []).map { property, part in
            switch part {
            case .attribute(let slot):
                let shown = AttributeCoding.objectValue(row[slot], for: plan.columns[slot].attribute)
                return "\(property) = " + (shown.isText ? "'\(ValueText.plain(shown))'" : ValueText.plain(shown))
            case .toOne(let name):
                let pk = toOnes.first { $0.0.relationship.name == name }?.1?.pk ?? 0
                return "\(property) = p\(pk)"
            }
        }.joined(separator: ", ")
        return StoreError(.constraintViolation, "uniqueness constraint (\(key.properties.joined(separator: ", "))) violated: "
                          + "an object with \(described) already exists (\(store.objectID(existing)))",
                          entity: plan.entity.name)
    }
}
