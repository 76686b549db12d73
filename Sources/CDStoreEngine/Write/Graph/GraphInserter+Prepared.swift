import CDStoreModel
internal import GRDB

/// A new object whose row a ``RecordPreparer`` converted and checked, waiting to be written.
struct PreparedObject {
    let plan: EntityWritePlan
    let object: ObjectRef
    let row: [DatabaseValue]
    /// Where the record was in the input, for errors.
    let record: Int
    let line: Int?
}

extension GraphInserter {
    /// Inserts a new object of `entity` from a prepared row: a key now, the row with the next
    /// ``EntityWritePlan/rowsPerBatch`` - 1 others in one multi-row INSERT. Errors name `record` and `line`.
    mutating func insert(prepared row: [DatabaseValue], as entity: Entity, record: Int, line: Int?) throws -> ObjectRef {
        let plan = try plan(for: entity)
        if !waiting.isEmpty { try flushWaiting() }
        if let first = batch.first, first.plan !== plan { try writePrepared() }
        let object: ObjectRef
        do {
            object = ObjectRef(pk: try allocator.next(entityNumber: plan.entityNumber, table: plan.table, db: db),
                               entityNumber: plan.entityNumber)
        } catch let error as StoreError {
            throw error.at(record: record, line: line)
        }
        batch.append(PreparedObject(plan: plan, object: object, row: row, record: record, line: line))
        if batch.count == EntityWritePlan.rowsPerBatch { try writePrepared() }
        return object
    }

    /// Writes the prepared rows still waiting: a full batch in one statement, fewer one by one. Anything that
    /// reads or writes the tables otherwise comes after this.
    mutating func writePrepared() throws {
        guard let plan = batch.first?.plan else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        if batch.count == EntityWritePlan.rowsPerBatch {
            let statement = try plan.batchInsert(db: db)
            var base: Int32 = 0
            for entry in batch {
                bindNewRow(entry.object, entry.row, plan: plan, to: statement, base: base)
                base += Int32(plan.parameterCount)
            }
            do {
                try statement.execute()
                boundText.reuse()
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                // The first row not stored, written alone, says what is wrong and where.
                if let failing = try firstUnstored(batch.map(\.object), plan: plan) { try write(batch[failing], plan: plan) }
                throw ConstraintReport.error(for: error, entity: plan.entity, model: model, layout: store.layout, values: [:])
            }
        }
        for entry in batch { try write(entry, plan: plan) }
    }

    /// After a multi-row `INSERT OR FAIL` broke a constraint: the index in `objects` of the first row it did not
    /// store. The rows before it are stored (OR FAIL keeps them), and the insert fails with the rollback of its
    /// transaction or of the record's savepoint; written alone, that row gives the error one-by-one writing gives.
    func firstUnstored(_ objects: [ObjectRef], plan: EntityWritePlan) throws -> Int? {
        let stored = try RawStatement("SELECT Z_PK, Z_ENT FROM \(plan.table) WHERE Z_PK = ?", db: db)
        return try objects.firstIndex { object in
            stored.bind(object.pk, at: 1)
            return try stored.firstPair() == nil
        }
    }

    private mutating func write(_ entry: PreparedObject, plan: EntityWritePlan) throws {
        do {
            try write(PendingRow(plan: plan, object: entry.object, row: entry.row, inputs: nil))
        } catch let error as StoreError {
            throw error.at(record: entry.record, line: entry.line)
        }
    }
}
