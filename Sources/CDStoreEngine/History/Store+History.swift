import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// Whether the store keeps Core Data's persistent history (`ATRANSACTION` and `ACHANGE` exist).
    ///
    /// Core Data creates the tables when a store is opened with `NSPersistentHistoryTrackingKey` (every
    /// SwiftData and CloudKit-mirrored store) and never drops them.
    package var hasPersistentHistory: Bool {
        get throws { try read { db in try HistoryTables.find(db) != nil } }
    }

    /// Calls `body` with each transaction `query` selects, oldest first, one row at a time: memory stays flat
    /// however long the history. A store without history has none.
    ///
    /// Core Data equivalent: `NSPersistentHistoryChangeRequest.fetchHistory(after:)` with `resultType`
    /// `.transactionsOnly`.
    package func forEachHistoryTransaction(_ query: HistoryQuery = .init(),
                                          _ body: (HistoryTransaction) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try read { db in
                guard let tables = try HistoryTables.find(db) else { return }
                let reader = try HistoryReader(store: self, tables: tables, query: query, db: db)
                try reader.transactions(db, body)
            }
        }
    }

    /// Calls `body` with each change `query` selects, in transaction order, one row at a time (flat memory). A
    /// store without history has none.
    ///
    /// Core Data equivalent: `NSPersistentHistoryChangeRequest.fetchHistory(after:)`, the transactions'
    /// `changes`.
    package func forEachHistoryChange(_ query: HistoryQuery = .init(), _ body: (HistoryChange) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            try read { db in
                guard let tables = try HistoryTables.find(db) else { return }
                let reader = try HistoryReader(store: self, tables: tables, query: query, db: db)
                try reader.changes(db, body)
            }
        }
    }

    /// The transactions `query` selects, oldest first (``forEachHistoryTransaction(_:_:)`` into an array).
    package func historyTransactions(_ query: HistoryQuery = .init()) throws -> [HistoryTransaction] {
        var all: [HistoryTransaction] = []
        try forEachHistoryTransaction(query) { all.append($0) }
        return all
    }

    /// The changes `query` selects, in transaction order (``forEachHistoryChange(_:_:)`` into an array).
    package func historyChanges(_ query: HistoryQuery = .init()) throws -> [HistoryChange] {
        var all: [HistoryChange] = []
        try forEachHistoryChange(query) { all.append($0) }
        return all
    }
}

/// Reads history rows into records: the query's SQL, entity names and property orders.
struct HistoryReader {
    let store: Store
    let tables: HistoryTables
    /// Entity names by `Z_ENT`: the layout's, and `Z_PRIMARYKEY`'s for entities the model no longer has.
    private let names: [Int: String]
    /// The entity numbers a query's `entity` stands for (it and its sub-entities), nil for every entity.
    private let entityNumbers: [Int]?
    private let query: HistoryQuery

    init(store: Store, tables: HistoryTables, query: HistoryQuery, db: Database) throws {
        self.store = store
        self.tables = tables
        self.query = query
        var names: [Int: String] = [:]
        var parents: [Int: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
            guard let number: Int = row["Z_ENT"], let name: String = row["Z_NAME"] else { continue }
            names[number] = name
            parents[number] = row["Z_SUPER"] ?? 0
        }
        for entity in store.layout.entities { names[entity.number] = entity.name }
        self.names = names
        if let wanted = query.entity {
            if let entity = store.layout.entity(named: wanted) {
                entityNumbers = Array(entity.subtreeNumbers)
            } else if let number = names.first(where: { $0.value == wanted })?.key {
                // An entity the model no longer has: its sub-entities from Z_SUPER.
                var numbers: Set<Int> = [number]
                var grew = true
                while grew {
                    let more = parents.filter { numbers.contains($0.value) }.map(\.key)
                    grew = !Set(more).isSubset(of: numbers)
                    numbers.formUnion(more)
                }
                entityNumbers = numbers.sorted()
            } else {
                throw StoreError(.unknownName, "no entity '\(wanted)' in the store"
                                 + Suggestion.didYouMean(wanted, among: Array(Set(names.values)).sorted()))
            }
        } else {
            entityNumbers = nil
        }
    }

    /// `WHERE` conditions and their arguments for the transaction aliased `t` (`since`, `author`); `number` is
    /// the column holding the transaction number.
    private func transactionConditions(number: String = "t.Z_PK") -> ([String], [DatabaseValue]) {
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        switch query.since {
        case .token(let token)?:
            conditions.append("\(number) > ?")
            arguments.append(token.databaseValue)
        case .date(let seconds)?:
            conditions.append(tables.hasTimestamp ? "t.ZTIMESTAMP >= ?" : "0")
            if tables.hasTimestamp { arguments.append(seconds.databaseValue) }
        case nil:
            break
        }
        if let author = query.author {
            conditions.append("\(tables.expression(tables.author, alias: "sa")) = ?")
            arguments.append(author.databaseValue)
        }
        return (conditions, arguments)
    }

    /// `c.ZENTITY IN (…)` for the query's entity, with its arguments.
    private func entityCondition(_ alias: String) -> (String, [DatabaseValue])? {
        guard let entityNumbers else { return nil }
        return ("\(alias).ZENTITY IN (\(entityNumbers.map { _ in "?" }.joined(separator: ", ")))",
                entityNumbers.map(\.databaseValue))
    }

    func transactions(_ db: Database, _ body: (HistoryTransaction) throws -> Void) throws {
        var (conditions, arguments) = transactionConditions()
        var countCondition = ""
        var countArguments: [DatabaseValue] = []
        if let (condition, values) = entityCondition("c") {
            countCondition = " AND " + condition
            countArguments = values
            conditions.append("EXISTS (SELECT 1 FROM \(HistoryTables.change) c WHERE c.ZTRANSACTIONID = t.Z_PK\(countCondition))")
            arguments += values
        }
        let strings = tables.stringFields.map { tables.expression($0.field, alias: $0.alias) }
        // The count uses ACHANGE's index on ZTRANSACTIONID, which every store seen has.
        let sql = "SELECT t.Z_PK, \(tables.hasTimestamp ? "t.ZTIMESTAMP" : "NULL"), \(strings.joined(separator: ", ")), "
            + "(SELECT COUNT(*) FROM \(HistoryTables.change) c WHERE c.ZTRANSACTIONID = t.Z_PK\(countCondition)) "
            + "FROM \(HistoryTables.transaction) t\(tables.stringJoins)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " ORDER BY t.Z_PK"
        let statement = try db.makeStatement(sql: sql)
        try statement.setExactArguments(countArguments + arguments)
        let rows = try Row.fetchCursor(statement)
        while let row = try rows.next() {
            try body(HistoryTransaction(number: row[0], timestamp: row[1], author: row[2], bundleID: row[3], processID: row[4],
                                        contextName: row[5], changeCount: row[6]))
        }
    }

    func changes(_ db: Database, _ body: (HistoryChange) throws -> Void) throws {
        // A token is the change's own ZTRANSACTIONID: only an author or a date needs the transaction's row.
        var (conditions, arguments) = transactionConditions(number: "c.ZTRANSACTIONID")
        let needsTransaction = query.author != nil || { if case .date = query.since { true } else { false } }()
        if let (condition, values) = entityCondition("c") {
            conditions.append(condition)
            arguments += values
        }
        let columns = ["c.Z_PK", "c.ZTRANSACTIONID", "c.ZCHANGETYPE", "c.ZENTITY", "c.ZENTITYPK",
                       tables.hasColumnsBitmap ? "c.ZCOLUMNS" : "NULL"] + tables.tombstoneColumns.map { "c.\($0)" }
        let from = needsTransaction
            ? "\(HistoryTables.change) c JOIN \(HistoryTables.transaction) t ON t.Z_PK = c.ZTRANSACTIONID\(tables.stringJoins)"
            : "\(HistoryTables.change) c"
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(from)"
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + " ORDER BY c.ZTRANSACTIONID, c.Z_PK"
        let statement = try db.makeStatement(sql: sql)
        try statement.setExactArguments(arguments)
        let rows = try Row.fetchCursor(statement)
        var orders: [Int: (Entity, HistoryPropertyOrder)?] = [:]
        while let row = try rows.next() {
            let number: Int = row[3] ?? 0
            let name = names[number] ?? "#\(number)"
            if orders[number] == nil {
                orders[number] = .some(store.model.entity(named: name).map { ($0, HistoryPropertyOrder(entity: $0, model: store.model)) })
            }
            let known = orders[number] ?? nil
            let type = HistoryChange.ChangeType(raw: row[2] ?? -1)
            var updated: [String]?
            if type == .update {
                let bitmap: Data? = row[5]
                updated = bitmap.map { data in known?.1.names(in: data) ?? HistoryPropertyOrder.bits(in: data).map { "#\($0)" } } ?? []
            }
            var tombstone: [(name: String, value: ObjectValue)]?
            if type == .delete {
                tombstone = self.tombstone(row, known: known)
            }
            try body(HistoryChange(number: row[0], transaction: row[1] ?? 0, type: type, entity: name,
                                   objectID: ObjectID(storeUUID: store.metadata.uuid, entity: name, primaryKey: row[4] ?? 0),
                                   updatedProperties: updated, tombstone: tombstone))
        }
    }

    /// The non-NULL tombstone values of a delete, named by the entity's preserved attributes (by column name for
    /// an entity the model does not know, or columns past its preserved attributes).
    private func tombstone(_ row: Row, known: (Entity, HistoryPropertyOrder)?) -> [(name: String, value: ObjectValue)] {
        var values: [(name: String, value: ObjectValue)] = []
        for (index, column) in tables.tombstoneColumns.enumerated() {
            let stored = row[6 + index] as DatabaseValue
            guard !stored.isNull else { continue }
            if let (entity, order) = known, index < order.tombstones.count,
               let attribute = store.model.attribute(order.tombstones[index], of: entity) {
                values.append((attribute.name, AttributeCoding.objectValue(stored, for: attribute)))
            } else {
                values.append((column, Self.untyped(stored)))
            }
        }
        return values
    }

    /// A stored value without an attribute to type it.
    private static func untyped(_ value: DatabaseValue) -> ObjectValue {
        switch value.storage {
        case .null: .null
        case .int64(let i): .integer(i)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .blob(let data): .data(data)
        }
    }
}
