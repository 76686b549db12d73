import CDStoreModel
import GRDB

/// A new object's row, converted and validated, and the INSERT that writes it.
struct PendingRow {
    let plan: EntityWritePlan
    let object: ObjectRef
    let row: [DatabaseValue]
    /// The input, for constraint messages.
    let inputs: PlannedFields
    /// Targets of the to-ones whose foreign keys the INSERT writes.
    var toOnes: [(EntityWritePlan.DirectToOne, ObjectRef)] = []
    /// For a row waiting for its parent: the to-one that will hold the parent.
    var parentSlot: EntityWritePlan.DirectToOne?

    init(plan: EntityWritePlan, object: ObjectRef, row: [DatabaseValue], inputs: PlannedFields) {
        self.plan = plan
        self.object = object
        self.row = row
        self.inputs = inputs
    }
}

extension GraphInserter {
    /// Runs the INSERT of `pending`: one prepared statement per entity, bound in place.
    mutating func write(_ pending: PendingRow) throws {
        let plan = pending.plan
        let statement = plan.insertStatement!
        statement.bind(pending.object.pk, at: 1)
        statement.bind(Int64(pending.object.entityNumber), at: 2)
        statement.bind(1, at: 3)
        for (index, value) in pending.row.enumerated() { statement.bind(value, at: Int32(index + 4)) }
        for direct in plan.directToOnes.values {
            statement.bind(.null, at: direct.parameter)
            if direct.hasEntityColumn { statement.bind(.null, at: direct.parameter + 1) }
        }
        for (direct, target) in pending.toOnes {
            statement.bind(target.pk, at: direct.parameter)
            if direct.hasEntityColumn { statement.bind(Int64(target.entityNumber), at: direct.parameter + 1) }
            // The target's to-many changed (Core Data bumps its Z_OPT when it existed before).
            touch(target)
        }
        do {
            try statement.execute()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout,
                                         values: pending.inputs.attributeInputs(plan))
        }
    }

    /// A row waiting for its parent is not in the table yet, so the lookup of its uniqueness constraints could not
    /// see its waiting siblings: compare it with them.
    func checkAgainstDeferred(_ pending: PendingRow) throws {
        for key in pending.plan.mergeKeys {
            guard let parts = key.parts else { continue }
            let slots = parts.compactMap { part -> Int? in
                if case .attribute(let slot) = part { return slot } else { return nil }
            }
            // A key that includes a relationship is checked against rows only (the parent is not known yet).
            guard slots.count == parts.count, slots.allSatisfy({ !pending.row[$0].isNull }) else { continue }
            for sibling in deferred where sibling.plan === pending.plan && slots.allSatisfy({ sibling.row[$0] == pending.row[$0] }) {
                let described = zip(key.properties, slots).map { property, slot in
                    let shown = AttributeCoding.objectValue(pending.row[slot], for: pending.plan.columns[slot].attribute)
                    return "\(property) = " + (shown.isText ? "'\(ValueText.plain(shown))'" : ValueText.plain(shown))
                }.joined(separator: ", ")
                throw StoreError(.constraintViolation, "uniqueness constraint (\(key.properties.joined(separator: ", "))) violated: "
                                 + "an object with \(described) already exists (\(store.objectID(sibling.object))); "
                                 + "use --upsert to merge into it", entity: pending.plan.entity.name)
            }
        }
    }
}
