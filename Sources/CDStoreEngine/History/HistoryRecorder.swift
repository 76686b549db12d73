import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// Keeps a store's persistent history while cdstore writes to it, as Core Data would: one `ATRANSACTION` per
/// write transaction (author `cdstore`), one `ACHANGE` per object inserted, updated or deleted, new
/// `ATRANSACTIONSTRING` rows for strings the store has not interned yet, and the `Z_MAX` of entities
/// 16001–16003 moved past every key handed out (docs/decisions/0009-persistent-history-writes.md).
///
/// Active only in stores that have the history tables: ``begin(_:db:)`` returns nil for the others after one
/// `sqlite_master` lookup, and nothing else runs. The objects are noted by temporary triggers
/// (``HistoryTriggers``) while the command writes; ``finish(_:)`` turns the notes into rows just before the
/// command's transaction commits, so a failed command leaves no history either.
struct HistoryRecorder {
    /// The author of cdstore's transactions (`NSManagedObjectContext.transactionAuthor`).
    static let author = "cdstore"

    let tables: HistoryTables

    /// Starts recording the write transaction `db` is in; nil when the store keeps no history.
    static func begin(_ store: Store, db: Database) throws -> HistoryRecorder? {
        guard let tables = try HistoryTables.find(db) else { return nil }
        let installed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE ?",
                                         arguments: [HistoryTriggers.triggerPrefix + "%"]) ?? 0
        if installed == 0 { try install(store, tables: tables, db: db) }
        try db.execute(sql: "DELETE FROM \(HistoryTriggers.events)")
        try db.execute(sql: "INSERT INTO \(HistoryTriggers.state) (active) VALUES (1)")
        return HistoryRecorder(tables: tables)
    }

    /// Registers the bitmap functions and creates the temporary tables and triggers on this connection.
    private static func install(_ store: Store, tables: HistoryTables, db: Database) throws {
        let triggers = HistoryTriggers(model: store.model, layout: store.layout, tombstones: tables.tombstoneColumns.count)
        let orders = store.layout.entities.reduce(into: [Int: HistoryPropertyOrder]()) { orders, entity in
            if let modelEntity = store.model.entity(named: entity.name) {
                orders[entity.number] = HistoryPropertyOrder(entity: modelEntity, model: store.model)
            }
        }
        let tracked = triggers.trackedProperties
        db.add(function: DatabaseFunction(HistoryTriggers.bitsFunction, argumentCount: nil, pure: true) { values in
            guard values.count >= 2, let number = Int.fromDatabaseValue(values[0]), let order = orders[number],
                  let table = String.fromDatabaseValue(values[1]), let names = tracked[table] else { return nil }
            var changed: [String] = []
            var position = 0
            for flags in values.dropFirst(2) {
                for flag in String.fromDatabaseValue(flags)?.utf8 ?? "".utf8 {
                    if flag == UInt8(ascii: "1"), position < names.count { changed.append(names[position]) }
                    position += 1
                }
            }
            return order.bitmap(changed)
        })
        db.add(function: DatabaseFunction(HistoryTriggers.bitFunction, argumentCount: 2, pure: true) { values in
            guard let number = Int.fromDatabaseValue(values[0]), let name = String.fromDatabaseValue(values[1]) else { return nil }
            return orders[number]?.bitmap([name])
        })
        db.add(function: DatabaseFunction(HistoryTriggers.orFunction, argumentCount: 2, pure: true) { values in
            HistoryPropertyOrder.union(Data.fromDatabaseValue(values[0]), Data.fromDatabaseValue(values[1]))
        })
        for statement in HistoryTriggers.tables(tombstones: tables.tombstoneColumns.count) + triggers.statements {
            try db.execute(sql: statement)
        }
    }

    /// Writes the transaction and its changes, if the write changed any object, and stops recording.
    func finish(_ db: Database) throws {
        defer { _ = try? db.execute(sql: "DELETE FROM \(HistoryTriggers.events); DELETE FROM \(HistoryTriggers.state)") }
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(HistoryTriggers.events) WHERE type >= 0") ?? 0
        guard count > 0 else { return }
        let transaction = try nextKey(HistoryTables.transactionEntity, table: HistoryTables.transaction, db: db)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values: [DatabaseValue] = [transaction.databaseValue, HistoryTables.transactionEntity.databaseValue, .null]
        for (field, text) in [(tables.author, Self.author), (tables.processID, ProcessInfo.processInfo.processName)] {
            if let interned = field.interned {
                columns.append(interned)
                values.append(try intern(text, db: db).databaseValue)
            } else if let column = field.text {
                columns.append(column)
                values.append(text.databaseValue)
            }
        }
        if tables.hasTimestamp {
            columns.append("ZTIMESTAMP")
            values.append(Date().timeIntervalSinceReferenceDate.databaseValue)
        }
        try db.execute(sql: "INSERT INTO \(HistoryTables.transaction) (\(columns.joined(separator: ", "))) "
                       + "VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))", arguments: StatementArguments(values))
        try setMax(HistoryTables.transactionEntity, "TRANSACTION", to: transaction, db: db)

        let first = try nextKey(HistoryTables.changeEntity, table: HistoryTables.change, db: db)
        var changeColumns = ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"]
        var selected = ["? - 1 + ROW_NUMBER() OVER (ORDER BY rowid)", "\(HistoryTables.changeEntity)", "NULL", "type", "ent", "pk", "?"]
        if tables.hasColumnsBitmap {
            changeColumns.append("ZCOLUMNS")
            selected.append("CASE WHEN type = 1 THEN bits END")
        }
        for (index, column) in tables.tombstoneColumns.enumerated() {
            changeColumns.append(column)
            selected.append("CASE WHEN type = 2 THEN t\(index) END")
        }
        try db.execute(sql: "INSERT INTO \(HistoryTables.change) (\(changeColumns.joined(separator: ", "))) SELECT "
                       + selected.joined(separator: ", ") + " FROM \(HistoryTriggers.events) WHERE type >= 0 ORDER BY rowid",
                       arguments: [first, transaction])
        try setMax(HistoryTables.changeEntity, "CHANGE", to: first + Int64(count) - 1, db: db)
    }

    /// The key after both `Z_MAX` and the largest key in `table`: Core Data's history keeps numbering past rows
    /// it deleted (`deleteHistory(before:)`), and a transaction number handed out twice would hide this one from
    /// apps that remember the old one as their token.
    private func nextKey(_ entity: Int, table: String, db: Database) throws -> Int64 {
        let max = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity]) ?? 0
        let existing = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table)") ?? 0
        return Swift.max(max, existing) + 1
    }

    private func setMax(_ entity: Int, _ name: String, to value: Int64, db: Database) throws {
        try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?) "
                       + "ON CONFLICT (Z_ENT) DO UPDATE SET Z_MAX = MAX(IFNULL(Z_MAX, 0), excluded.Z_MAX)",
                       arguments: [entity, name, value])
    }

    /// The `ATRANSACTIONSTRING` key of `text`, added when the store has not interned it yet.
    private func intern(_ text: String, db: Database) throws -> Int64 {
        if let key = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM \(HistoryTables.strings) WHERE ZNAME = ? ORDER BY Z_PK LIMIT 1",
                                        arguments: [text]) {
            return key
        }
        let key = try nextKey(HistoryTables.stringEntity, table: HistoryTables.strings, db: db)
        try db.execute(sql: "INSERT INTO \(HistoryTables.strings) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)",
                       arguments: [key, HistoryTables.stringEntity, text])
        try setMax(HistoryTables.stringEntity, "TRANSACTIONSTRING", to: key, db: db)
        return key
    }
}
