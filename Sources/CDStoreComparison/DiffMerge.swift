import CDStoreEngine
import CDStoreJSON
/// The merge join of a store diff: walks the objects of one entity in both stores in key order at once, and
/// reports each object only one store holds and each matched pair whose values differ.
struct DiffMerge {
    let diff: StoreDiff
    let each: (ObjectDifference) throws -> Void
    let values: DiffValues

    init(diff: StoreDiff, each: @escaping (ObjectDifference) throws -> Void) {
        self.diff = diff
        self.each = each
        values = DiffValues(plans: diff.plans)
    }

    /// Compares the objects the two cursors read (nil for a store whose model lacks the entity).
    func compare(_ plan: EntityPlan, _ cursorA: DiffCursor?, _ cursorB: DiffCursor?) throws -> EntityComparison {
        var comparison = plan.comparison
        var rowA = try cursorA?.next()
        var rowB = try cursorB?.next()
        while rowA != nil || rowB != nil {
            let order = if let rowA, let rowB { StoredBytes.compare(rowA.key, rowB.key) } else { rowA == nil ? 1 : -1 }
            if order < 0, let row = rowA {
                comparison.onlyInA += 1
                try each(ObjectDifference(entity: plan.comparison.entity, key: values.key(row, plan, plan.a!), change: .removed,
                                          fields: [], values: try values.fields(row, plan, inA: true, diff)))
                rowA = try cursorA!.next()
            } else if order > 0, let row = rowB {
                comparison.onlyInB += 1
                try each(ObjectDifference(entity: plan.comparison.entity, key: values.key(row, plan, plan.b!), change: .added,
                                          fields: [], values: try values.fields(row, plan, inA: false, diff)))
                rowB = try cursorB!.next()
            } else if let matchA = rowA, let matchB = rowB {
                // Equal bytes are equal values: most pairs end here without decoding anything.
                let changes = matchA.fields == matchB.fields ? [] : try values.changes(matchA, matchB, plan, diff)
                if changes.isEmpty {
                    comparison.same += 1
                } else {
                    comparison.changed += 1
                    try each(ObjectDifference(entity: plan.comparison.entity, key: values.key(matchB, plan, plan.b!),
                                              change: .changed, fields: changes, values: []))
                }
                rowA = try cursorA!.next()
                rowB = try cursorB!.next()
            }
        }
        comparison.sharedKeys = (cursorA?.sharedKeys ?? 0) + (cursorB?.sharedKeys ?? 0)
        return comparison
    }
}
