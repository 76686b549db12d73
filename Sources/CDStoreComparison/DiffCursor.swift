import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import CDStorePredicate
internal import GRDB
internal import GRDBSQLite

/// The objects of one entity in one store, in key order (`ORDER BY` the key columns, then `Z_PK`), read from one
/// SQLite statement a batch at a time, each as ``StoredBytes``: its key, then its compared fields — attributes as
/// stored, relationships as the identities of their related objects (``DiffIdentities``).
final class DiffCursor {
    /// One object.
    struct Row {
        var pk: Int64
        /// The key values (or `Z_PK`).
        var key: [UInt8]
        /// The compared attributes, then relationships, in ``EntityPlan/fieldNames`` order.
        var fields: [UInt8]
    }

    let side: EntityPlan.Side
    private let db: Database
    private let statement: Statement
    private let keyCount: Int32
    private let fieldCount: Int32
    private let edges: [RelationshipStorage.Edge]
    private let forms: [EntityPlan.RelationshipForm]
    private let storage: RelationshipStorage
    private let identities: DiffIdentities
    private var batch: [Row] = []
    /// Rows of ``batch`` read in the last ``fill()``; those after are buffers kept for the next.
    private var count = 0
    private var index = 0
    private var finished = false
    private var previousKey: [UInt8] = []
    /// Rows whose key equals the row before's.
    private(set) var sharedKeys = 0
    static let batchSize = 256

    init(store: Store, side: EntityPlan.Side, forms: [EntityPlan.RelationshipForm], predicate: PredicateNode?,
         identities: DiffIdentities, db: Database) throws {
        self.side = side
        self.forms = forms
        self.db = db
        self.identities = identities
        keyCount = Int32(side.key.count)
        fieldCount = Int32(side.attributes.count)
        let storage = RelationshipStorage(model: store.model, layout: store.layout)
        self.storage = storage
        edges = try side.relationships.map { try storage.edge($0.name, of: side.entity.name) }
        let select = try DiffQuery.select(store, side, predicate: predicate, fields: true)
        statement = try db.makeStatement(sql: select.sql)
        try statement.setExactArguments(select.arguments)
    }

    /// The next object, or nil after the last.
    func next() throws -> Row? {
        if index == count {
            guard !finished else { return nil }
            try fill()
            guard count > 0 else { return nil }
        }
        defer { index += 1 }
        return batch[index]
    }

    /// Reads the next batch of rows and their relationships, into the rows of the last batch: their buffers are
    /// reused, so that reading allocates nothing per row.
    private func fill() throws {
        count = 0
        index = 0
        let raw = statement.sqliteStatement
        while count < Self.batchSize {
            guard try DiffQuery.step(statement, db) else { finished = true; break }
            if count == batch.count { batch.append(Row(pk: 0, key: [], fields: [])) }
            batch[count].pk = sqlite3_column_int64(raw, 0)
            batch[count].key.removeAll(keepingCapacity: true)
            batch[count].fields.removeAll(keepingCapacity: true)
            if keyCount == 0 {
                StoredBytes.appendInteger(batch[count].pk, to: &batch[count].key)
            } else {
                for column in 1...keyCount { StoredBytes.appendColumn(raw, column, to: &batch[count].key) }
            }
            for column in (1 + keyCount)..<(1 + keyCount + fieldCount) {
                StoredBytes.appendColumn(raw, column, to: &batch[count].fields)
            }
            try checkOrder(batch[count].key)
            count += 1
        }
        guard !edges.isEmpty, count > 0 else { return }
        let keys = batch[..<count].map(\.pk)
        for (edge, form) in zip(edges, forms) {
            let related = try storage.related(edge, of: keys, db: db)
            try identities.resolve(related.values.flatMap { $0 }, db: db)
            for i in 0..<count {
                let targets = related[batch[i].pk] ?? []
                if !form.toMany {
                    guard let target = targets.first else { batch[i].fields.append(StoredBytes.null); continue }
                    batch[i].fields.append(StoredBytes.toOne)
                    StoredBytes.appendPiece(identities[target], to: &batch[i].fields)
                    continue
                }
                var pieces = targets.map { identities[$0] }
                // An unordered to-many is a set: in key order, two sets with the same objects have the same bytes.
                if !form.ordered { pieces.sort(by: StoredBytes.identityPrecedes) }
                batch[i].fields.append(StoredBytes.toMany)
                StoredBytes.appendLength(pieces.count, to: &batch[i].fields)
                for piece in pieces { StoredBytes.appendPiece(piece, to: &batch[i].fields) }
            }
        }
    }

    /// The merge join needs keys in ``StoredBytes/compare(_:_:)`` order; SQLite's `ORDER BY` gives it, and this
    /// makes sure, since a wrong order would show equal objects as added and removed.
    private func checkOrder(_ key: [UInt8]) throws {
        defer {
            previousKey.removeAll(keepingCapacity: true)
            previousKey.append(contentsOf: key)
        }
        guard !previousKey.isEmpty else { return }
        let order = StoredBytes.compare(previousKey, key)
        if order == 0 { sharedKeys += 1 }
        guard order <= 0 else {
            throw StoreError(.invalidInput, "the store returned keys out of order; cannot compare", entity: side.entity.name)
        }
    }
}
