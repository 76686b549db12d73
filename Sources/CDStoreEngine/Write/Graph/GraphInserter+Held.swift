internal import GRDB

extension GraphInserter {
    /// Writes the rows that waited for `parent` (a department's new employees, once the department has its key),
    /// up to ``EntityWritePlan/rowsPerBatch`` to a multi-row INSERT when they are rows of one plan that hold no
    /// to-one but their parent: one statement per row cost SQLite its cursors and halt logic every time (ADR 0013).
    /// Any other rows are written one by one, as ``write(_:parent:)`` writes them.
    mutating func writeHeld(_ rows: ArraySlice<PendingRow>, parent: ObjectRef) throws {
        guard rows.count > 1, let first = rows.first, let slot = first.parentSlot,
              rows.allSatisfy({ $0.plan === first.plan && $0.toOnes.isEmpty && $0.parentSlot?.parameter == slot.parameter })
        else {
            for row in rows { try write(row, parent: parent) }
            return
        }
        var start = rows.startIndex
        while start < rows.endIndex {
            let chunk = rows[start..<min(start + EntityWritePlan.rowsPerBatch, rows.endIndex)]
            if chunk.count == 1 { try write(chunk[chunk.startIndex], parent: parent) } else { try writeTogether(chunk, parent: parent, slot: slot) }
            start = chunk.endIndex
        }
    }

    private mutating func writeTogether(_ rows: ArraySlice<PendingRow>, parent: ObjectRef, slot: EntityWritePlan.DirectToOne)
        throws
    {
        let plan = rows[rows.startIndex].plan
        let statement = try plan.multiRowInsert(rows: rows.count, db: db)
        var base: Int32 = 0
        for row in rows {
            bindNewRow(row.object, row.row, plan: plan, to: statement, base: base)
            bind(parent, to: slot, in: statement, base: base)
            base += Int32(plan.parameterCount)
        }
        do {
            try statement.execute()
            boundText.reuse()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // The first row not stored, written alone, says what is wrong and where (``firstUnstored(_:plan:)``).
            if let failing = try firstUnstored(rows.map(\.object), plan: plan) {
                try write(rows[rows.startIndex + failing], parent: parent)
            }
            throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout, values: [:])
        }
    }
}
