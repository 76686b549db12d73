import CDStoreModel
import Foundation
internal import GRDB

/// Notices what other connections commit to a store and says which objects they inserted, updated or deleted,
/// without writing anything.
///
/// ``poll()`` asks SQLite whether anything was committed since it last looked (`PRAGMA data_version`, which
/// changes when another connection commits and costs no read of the tables) and, only then, finds the changes:
/// - from **persistent history** when the store keeps it: the transactions after the last one seen, with their
///   author and time and each update's changed properties;
/// - otherwise by comparing each watched entity's rows with the last **snapshot of keys**: per object its
///   `Z_PK`, `Z_OPT` and a hash of each column (not its values), so that an update's changed properties are
///   known and memory stays a few words per object.
///
/// A checkpoint or a `VACUUM` by the writer changes no `Z_PK`, `Z_OPT` or value, so it shows no change.
package final class ChangeTracker {
    /// One changed object.
    package struct Change: Sendable {
        /// Inserted, updated or deleted.
        package var type: HistoryChange.ChangeType
        /// Its concrete entity.
        package var entity: String
        /// Its primary key.
        package var primaryKey: Int64
        /// For an update, the properties that changed, when known.
        package var updatedProperties: [String]?
        /// The history transaction that made the change (history mode only).
        package var transaction: HistoryTransaction?
    }

    /// A row as the snapshot keeps it: its optimistic-locking version and a hash per column.
    private struct Fingerprint: Equatable {
        var version: Int64
        var columns: [Int]
    }

    /// A watched concrete entity: its layout and its properties' columns, by property name.
    private struct Watched {
        var layout: EntityLayout
        var properties: [(name: String, column: String)]
    }

    /// The store read (opened read-only).
    package let store: Store
    /// Whether changes come from persistent history.
    package let usesHistory: Bool
    private let watched: [Watched]
    private var dataVersion: Int64 = 0
    private var snapshot: [Int: [Int64: Fingerprint]] = [:]
    private var lastTransaction: Int64 = 0

    /// Watches `entities` (and their sub-entities; every entity when empty) of `store`, from now on.
    package init(store: Store, entities: [String]) throws {
        self.store = store
        var numbers: Set<Int> = []
        for name in entities {
            _ = try store.resolveEntity(name)
            if let layout = store.layout.entity(named: name) { numbers.formUnion(layout.subtreeNumbers) }
        }
        watched = store.layout.entities.filter { !$0.isAbstract && (entities.isEmpty || numbers.contains($0.number)) }.map { layout in
            let attributes = layout.attributeColumns.map { (name: $0.key, column: $0.value) }
            let toOnes = layout.toOnes.map { (name: $0.key, column: $0.value.foreignKey) }
            return Watched(layout: layout, properties: (attributes + toOnes).sorted { $0.name < $1.name })
        }
        usesHistory = try store.hasPersistentHistory
        try store.read { db in
            dataVersion = try Self.dataVersion(db)
            if usesHistory {
                lastTransaction = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(HistoryTables.transaction)") ?? 0
            } else {
                for entity in watched { snapshot[entity.layout.number] = try Self.rows(of: entity, db) }
            }
        }
    }

    /// The changes committed since the last call (or since the tracker was made), oldest first; empty when
    /// nothing was committed, after one cheap query.
    package func poll() throws -> [Change] {
        let version = try store.read { db in try Self.dataVersion(db) }
        guard version != dataVersion else { return [] }
        dataVersion = version
        return usesHistory ? try historyChanges() : try snapshotChanges()
    }

    /// The changes of the transactions after the last one seen, of watched entities.
    private func historyChanges() throws -> [Change] {
        var transactions: [Int64: HistoryTransaction] = [:]
        var last = lastTransaction
        try store.forEachHistoryTransaction(HistoryQuery(since: .token(lastTransaction))) { transaction in
            transactions[transaction.number] = transaction
            last = max(last, transaction.number)
        }
        guard last > lastTransaction else { return [] }
        let names = Set(watched.map(\.layout.name))
        var changes: [Change] = []
        try store.forEachHistoryChange(HistoryQuery(since: .token(lastTransaction))) { change in
            guard change.transaction <= last, names.contains(change.entity) else { return }
            changes.append(Change(type: change.type, entity: change.entity, primaryKey: change.objectID.primaryKey,
                                  updatedProperties: change.updatedProperties, transaction: transactions[change.transaction]))
        }
        lastTransaction = last
        return changes
    }

    /// The differences between each watched entity's rows now and the last snapshot, which they replace.
    private func snapshotChanges() throws -> [Change] {
        var changes: [Change] = []
        try store.read { db in
            for entity in watched {
                let now = try Self.rows(of: entity, db)
                let before = snapshot[entity.layout.number] ?? [:]
                for key in now.keys.sorted() {
                    guard let old = before[key] else {
                        changes.append(Change(type: .insert, entity: entity.layout.name, primaryKey: key))
                        continue
                    }
                    guard let new = now[key], new != old else { continue }
                    let changed = entity.properties.indices.filter { old.columns[$0] != new.columns[$0] }.map { entity.properties[$0].name }
                    changes.append(Change(type: .update, entity: entity.layout.name, primaryKey: key, updatedProperties: changed))
                }
                for key in before.keys.sorted() where now[key] == nil {
                    changes.append(Change(type: .delete, entity: entity.layout.name, primaryKey: key))
                }
                snapshot[entity.layout.number] = now
            }
        }
        return changes
    }

    /// Each row of `entity`: its key, version and column hashes.
    private static func rows(of entity: Watched, _ db: Database) throws -> [Int64: Fingerprint] {
        let columns = (["Z_PK", "Z_OPT"] + entity.properties.map(\.column)).joined(separator: ", ")
        let sql = "SELECT \(columns) FROM \(entity.layout.table) WHERE Z_ENT = ?"
        var rows: [Int64: Fingerprint] = [:]
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: [entity.layout.number])
        while let row = try cursor.next() {
            var hashes: [Int] = []
            hashes.reserveCapacity(entity.properties.count)
            for index in 0..<entity.properties.count {
                let value: DatabaseValue = row[index + 2]
                hashes.append(value.hashValue)
            }
            let key: Int64 = row[0]
            rows[key] = Fingerprint(version: row[1] ?? 0, columns: hashes)
        }
        return rows
    }

    private static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
