import CDStoreJSON
import CDStoreModel
internal import GRDB

/// The objects of a fetch request, read from one SQLite statement as they are asked for: rows a batch of 256 at
/// a time, with relationship values added per batch (one query per relationship and batch, never per object).
///
/// Make one with ``Store/makeCursor(_:)`` inside a transaction, and step it with ``next()`` before the
/// transaction ends; memory holds one batch whatever the number of objects.
///
/// Core Data equivalent: a fetch with `fetchBatchSize`.
package final class ObjectCursor {
    /// The SQLite side, released when the transaction ends (GRDB's statements must be finalized on their
    /// connection's thread, which a cursor kept past its transaction would not be on).
    private struct Reading {
        let query: QueryBuilder
        let loader: RelationshipLoader
        let statement: Statement
        let rows: RowCursor
    }

    private let store: Store
    private var reading: Reading?
    private let transaction: AmbientTransaction?
    private var batch: [FetchedObject] = []
    private var position = 0
    private var exhausted = false

    /// The number of objects a batch holds.
    static let batchSize = 256

    init(store: Store, request: ObjectFetchRequest, db: Database, transaction: AmbientTransaction?) throws {
        self.store = store
        self.transaction = transaction
        let query = try QueryBuilder(store: store, request: request)
        let loader = RelationshipLoader(store: store, db: db, output: request.relationships,
                                        includes: RelationshipLoader.IncludeTree.parse(request.includes))
        let select = query.selectStatement()
        // Not a cached statement: nested fetches (includes) may run the same SQL while this one is still open.
        let statement = try db.makeStatement(sql: select.sql)
        try statement.setExactArguments(select.arguments)
        reading = Reading(query: query, loader: loader, statement: statement, rows: try Row.fetchCursor(statement))
        batch.reserveCapacity(Self.batchSize)
        transaction?.adopt(self)
    }

    /// Lets go of the statement: called by the transaction as it ends, on its connection's thread.
    func release() {
        reading = nil
    }

    /// The next object, or nil after the last one.
    package func next() throws -> FetchedObject? {
        if position < batch.count {
            defer { position += 1 }
            return batch[position]
        }
        guard !exhausted else { return nil }
        guard let reading, transaction?.isOpen != false else {
            throw StoreError(.invalidInput, "the cursor was used after its transaction ended")
        }
        try store.translatingErrors(writing: false) { try fill(reading) }
        guard !batch.isEmpty else { return nil }
        position = 1
        return batch[0]
    }

    /// Calls `body` with each remaining object.
    package func forEach(_ body: (FetchedObject) throws -> Void) throws {
        while let object = try next() { try body(object) }
    }

    private func fill(_ reading: Reading) throws {
        batch.removeAll(keepingCapacity: true)
        position = 0
        while batch.count < Self.batchSize, let row = try reading.rows.next() {
            var object = try reading.query.object(from: row, statement: reading.statement.sqliteStatement)
            object.objectID = ObjectID(storeUUID: store.metadata.uuid, entity: object.entity, primaryKey: object.primaryKey)
            batch.append(object)
        }
        if batch.count < Self.batchSize { exhausted = true }
        try reading.loader.attach(to: &batch, requested: reading.query.entity)
    }
}
