import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// Fixes the bookkeeping of the store that is purely mechanical — derived from the rows themselves, so that
    /// there is exactly one right value — in one transaction, and returns the problems it repaired, each message
    /// saying what changed from what to what (empty when nothing needed it).
    ///
    /// That is one thing: `Z_PRIMARYKEY.Z_MAX` of an entity hierarchy below the largest `Z_PK` of its table
    /// (rows another tool inserted without counting them) is raised to that key, as Core Data's own inserts keep
    /// it. A `Z_MAX` of -1 (left by iOS 6-era Core Data, which opens such stores) is kept.
    ///
    /// Everything else ``verify()`` reports needs a decision about data, which a repair must not take: a
    /// dangling foreign key or join-table row (delete the row, or the reference, or restore the object?), a
    /// one-to-one whose sides disagree (which side is right?), a stray `Z_ENT` (which entity is the row?), a
    /// missing `Z_PRIMARYKEY` row, table or column, different metadata hashes (a migration, or the wrong model),
    /// missing external data files.
    ///
    /// - Throws: ``StoreError`` with code `readOnly` for a store open read-only, `modelInferred` without the
    ///   model, or what SQLite reports (the transaction is then rolled back).
    package func repair() throws -> [VerifyProblem] {
        try write { db in
            var repairs: [VerifyProblem] = []
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            for root in layout.entities where root.superNumber == 0 && tables.contains(root.table) {
                guard let zMax = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                                    arguments: [root.number]),
                      zMax != -1,
                      let largest = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(root.table)"),
                      largest > zMax else { continue }
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [largest, root.number])
                repairs.append(VerifyProblem(kind: .maxPrimaryKey, subject: root.name,
                                             message: "Z_MAX \(zMax) → \(largest), the largest Z_PK in \(root.table)"))
            }
            return repairs
        }
    }
}
