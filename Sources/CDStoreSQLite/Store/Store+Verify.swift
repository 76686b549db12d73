import CDStoreModel
import Foundation
internal import GRDB

/// One thing `verify` found wrong, with the entity or table concerned.
public struct VerifyProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: String, Sendable {
        case metadata, primaryKeys, schema, entityNumbers, maxPrimaryKey, danglingReference, joinTable, inverse
    }
    public var kind: Kind
    /// The entity (or table) concerned.
    public var subject: String
    public var message: String

    public var description: String { "\(kind.rawValue): \(subject): \(message)" }
}

extension Store {
    /// Checks the store as Core Data needs it: metadata hashes against the model, `Z_PRIMARYKEY` rows, the
    /// tables and columns of the layout, `Z_ENT` of every row, `Z_MAX` ≥ every `Z_PK`, foreign keys and join
    /// tables pointing at existing objects of the right entity, and both sides of one-to-one relationships agreeing.
    /// An empty result means the store is sound.
    public func verify() throws -> [VerifyProblem] {
        try read { db in
            var problems: [VerifyProblem] = []
            func report(_ kind: VerifyProblem.Kind, _ subject: String, _ message: String) {
                problems.append(VerifyProblem(kind: kind, subject: subject, message: message))
            }
            if metadata.plist == nil {
                report(.metadata, "Z_METADATA", "the metadata plist is NULL")
            } else {
                for name in metadata.hashDifferences(from: model) {
                    report(.metadata, name, "the version hash in the metadata differs from the model's")
                }
                if (metadata.plist?["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue != 3 {
                    report(.metadata, "Z_METADATA", "NSStoreModelVersionHashesVersion is not 3")
                }
            }
            let primaryKeys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            for entity in layout.entities {
                guard let row = primaryKeys.first(where: { ($0["Z_ENT"] as Int) == entity.number }) else {
                    report(.primaryKeys, entity.name, "no Z_PRIMARYKEY row for entity number \(entity.number)")
                    continue
                }
                if (row["Z_NAME"] as String?) != entity.name {
                    report(.primaryKeys, entity.name, "Z_PRIMARYKEY row \(entity.number) is named '\(row["Z_NAME"] ?? "")'")
                }
                if (row["Z_SUPER"] as Int?) != entity.superNumber {
                    report(.primaryKeys, entity.name, "Z_SUPER is \(row["Z_SUPER"] ?? -1), expected \(entity.superNumber)")
                }
            }
            for table in layout.tables {
                guard try db.tableExists(table.name) else {
                    report(.schema, table.name, "the table is missing")
                    continue
                }
                let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.name))").map { $0["name"] as String })
                for column in table.columns where !columns.contains(column.name) {
                    report(.schema, table.name, "column \(column.name) is missing")
                }
            }
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            try checkRows(db, tables: tables, primaryKeys: primaryKeys, report: report)
            try checkRelationships(db, tables: tables, report: report)
            return problems
        }
    }

    private func checkRows(_ db: Database, tables: Set<String>, primaryKeys: [Row],
                           report: (VerifyProblem.Kind, String, String) -> Void) throws {
        for root in layout.entities where root.superNumber == 0 && tables.contains(root.table) {
            let numbers = root.subtreeNumbers
            let stray = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(root.table) WHERE Z_ENT NOT BETWEEN ? AND ? OR Z_ENT IS NULL",
                                         arguments: [numbers.lowerBound, numbers.upperBound]) ?? 0
            if stray > 0 { report(.entityNumbers, root.table, "\(stray) rows have a Z_ENT outside \(root.name)'s entities") }
            let abstract = layout.entities.filter { $0.isAbstract && numbers.contains($0.number) }.map(\.number)
            for number in abstract {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(root.table) WHERE Z_ENT = ?", arguments: [number]) ?? 0
                if count > 0 { report(.entityNumbers, root.table, "\(count) rows belong to the abstract entity #\(number)") }
            }
            let zMax = primaryKeys.first { ($0["Z_ENT"] as Int) == root.number }.flatMap { $0["Z_MAX"] as Int64? } ?? 0
            // iOS 6-era stores leave Z_MAX at -1 for some entities that have rows (Artsy 1.4 in the corpus);
            // Core Data opens them, so -1 is taken as "not recorded" rather than as damage.
            if zMax != -1, let maxPK = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(root.table)"), maxPK > zMax {
                report(.maxPrimaryKey, root.name, "Z_MAX is \(zMax) but a row has Z_PK \(maxPK)")
            }
        }
    }

    private func checkRelationships(_ db: Database, tables: Set<String>, report: (VerifyProblem.Kind, String, String) -> Void) throws {
        var checkedJoinTables: Set<String> = []
        for entity in layout.entities where tables.contains(entity.table) {
            let own = "Z_ENT BETWEEN \(entity.number) AND \(entity.subtreeMax)"
            for (name, toOne) in entity.toOnes.sorted(by: { $0.key < $1.key }) {
                guard entity.superNumber == 0 || layout.entity(number: entity.superNumber)?.toOnes[name] == nil,
                      let destination = layout.entity(named: toOne.destination), tables.contains(destination.table) else { continue }
                let dangling = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM \(entity.table) s WHERE s.\(own) AND s.\(toOne.foreignKey) IS NOT NULL AND NOT EXISTS \
                    (SELECT 1 FROM \(destination.table) d WHERE d.Z_PK = s.\(toOne.foreignKey) \
                    AND d.Z_ENT BETWEEN \(destination.number) AND \(destination.subtreeMax))
                    """) ?? 0
                if dangling > 0 {
                    report(.danglingReference, "\(entity.name).\(name)", "\(dangling) objects point at missing \(destination.name) objects")
                }
                if let entityKey = toOne.entityKey {
                    let wrong = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(entity.table) s JOIN \(destination.table) d ON d.Z_PK = s.\(toOne.foreignKey) \
                        WHERE s.\(own) AND s.\(entityKey) IS NOT d.Z_ENT
                        """) ?? 0
                    if wrong > 0 { report(.danglingReference, "\(entity.name).\(name)", "\(wrong) objects have a wrong \(entityKey)") }
                }
                if let model = self.model.entity(named: entity.name), let relationship = self.model.relationship(name, of: model),
                   let inverse = self.model.inverse(of: relationship), !inverse.isToMany,
                   let inverseColumns = destination.toOnes[inverse.name] {
                    let disagreeing = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(entity.table) s JOIN \(destination.table) d ON d.Z_PK = s.\(toOne.foreignKey) \
                        WHERE s.\(own) AND d.\(inverseColumns.foreignKey) IS NOT s.Z_PK
                        """) ?? 0
                    if disagreeing > 0 {
                        report(.inverse, "\(entity.name).\(name)", "\(disagreeing) objects point at an object whose \(inverse.name) points elsewhere")
                    }
                }
            }
            for (name, toMany) in entity.toManys.sorted(by: { $0.key < $1.key }) {
                guard case .joinTable(let table, let sourceColumn, let destinationColumn, _) = toMany, tables.contains(table),
                      entity.superNumber == 0 || layout.entity(number: entity.superNumber)?.toManys[name] == nil,
                      let relationship = self.model.entity(named: entity.name).flatMap({ self.model.relationship(name, of: $0) }),
                      let destination = layout.entity(named: relationship.destination),
                      checkedJoinTables.insert(table).inserted else { continue }
                for (column, target) in [(sourceColumn, entity), (destinationColumn, destination)] {
                    let missing = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(table) j WHERE NOT EXISTS (SELECT 1 FROM \(target.table) o WHERE o.Z_PK = j.\(column) \
                        AND o.Z_ENT BETWEEN \(target.number) AND \(target.subtreeMax))
                        """) ?? 0
                    if missing > 0 { report(.joinTable, table, "\(missing) rows of \(column) point at missing \(target.name) objects") }
                }
            }
        }
    }
}
