import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// One thing `verify` found wrong, with the entity or table concerned.
public struct VerifyProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem.
    public enum Kind: String, Sendable {
        case metadata, primaryKeys, schema, entityNumbers, maxPrimaryKey, danglingReference, joinTable, inverse, externalData
    }
    /// How bad it is.
    public enum Severity: String, Sendable {
        /// Core Data cannot use the store as it is (or would read it wrong).
        case problem
        /// Core Data opens and reads the store, but something it would do next fails (see the message).
        case warning
    }
    /// What kind of problem.
    public var kind: Kind
    /// The entity (or table) concerned.
    public var subject: String
    /// What is wrong, in a sentence.
    public var message: String
    /// How bad it is.
    public var severity: Severity = .problem

    package init(kind: Kind, subject: String, message: String, severity: Severity = .problem) {
        self.kind = kind
        self.subject = subject
        self.message = message
        self.severity = severity
    }

    public var description: String {
        (severity == .warning ? "warning: " : "") + "\(kind.rawValue): \(subject): \(message)"
    }
}

extension Store {
    /// Checks the store as Core Data reads it: metadata hashes against the model, `Z_PRIMARYKEY` rows, the
    /// tables and columns of the layout, `Z_ENT` of every row, `Z_MAX` ≥ every `Z_PK`, foreign keys and join
    /// tables pointing at existing objects of the right entity, both sides of one-to-one relationships agreeing,
    /// and the files of external binary data. An empty result means the store is sound; warnings
    /// (``VerifyProblem/Severity/warning``) do not stop Core Data from opening it. A `Z_MAX` below the largest
    /// `Z_PK` is a problem (Core Data's next insert fails on it) that ``repair()`` fixes.
    ///
    /// What Core Data itself leaves in stores it wrote is not a problem: the old name of a renamed entity in
    /// `Z_PRIMARYKEY` (Core Data keeps the row; matched by the entity's renaming identifier, or by the metadata
    /// knowing the entity under its new name), `Z_PRIMARYKEY` rows of entities the model no longer has, rows of
    /// abstract entities, ancillary entities (16000 and up: persistent history, CloudKit mirroring) and their
    /// `A…` tables, `Z_MAX = -1`, extra metadata keys. A table that holds a single entity is read by Core Data
    /// without looking at `Z_ENT` (its SQL selects `0` for the entity: `SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM
    /// ZBOOK t0`), so odd `Z_ENT` values there are not checked. A foreign key of 0 is no object, like NULL.
    /// With a model inferred from the tables there are no hashes to compare.
    package func verify() throws -> [VerifyProblem] {
        try read { db in
            var problems: [VerifyProblem] = []
            func report(_ kind: VerifyProblem.Kind, _ subject: String, _ message: String,
                        _ severity: VerifyProblem.Severity = .problem) {
                problems.append(VerifyProblem(kind: kind, subject: subject, message: message, severity: severity))
            }
            if metadata.plist == nil {
                report(.metadata, "Z_METADATA", "the metadata plist is NULL")
            } else if modelSource != .inferredFromTables {
                for name in metadata.hashDifferences(from: model) {
                    report(.metadata, name, "the version hash in the metadata differs from the model's")
                }
                if metadata.integer("NSStoreModelVersionHashesVersion") != 3 {
                    report(.metadata, "Z_METADATA", "NSStoreModelVersionHashesVersion is not 3")
                }
            }
            let primaryKeys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            let current = VersionHasher.entityHashes(of: model).mapValues { Data($0) }
            for entity in layout.entities {
                guard let row = primaryKeys.first(where: { ($0["Z_ENT"] as Int) == entity.number }) else {
                    report(.primaryKeys, entity.name, "no Z_PRIMARYKEY row for entity number \(entity.number)")
                    continue
                }
                let stored: String = row["Z_NAME"] ?? ""
                if stored != entity.name && !isRename(from: stored, to: entity.name, currentHash: current[entity.name]) {
                    report(.primaryKeys, entity.name, "Z_PRIMARYKEY row \(entity.number) is named '\(stored)'")
                }
                if (row["Z_SUPER"] as Int?) != entity.superNumber {
                    report(.primaryKeys, entity.name, "Z_SUPER is \(row["Z_SUPER"] ?? -1), expected \(entity.superNumber)")
                }
            }
            for table in layout.tables {
                guard try db.hasTable(table.name) else {
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
            try checkRelationships(db, tables: tables, report: { report($0, $1, $2) })
            try checkExternalData(db, tables: tables, report: { report($0, $1, $2) })
            return problems
        }
    }

    /// Whether a `Z_PRIMARYKEY` row named `stored` is `entity`'s under an old name: the model's renaming
    /// identifier says so, or `stored` is no entity of the model and the metadata knows `entity` by its current
    /// name with the model's hash (the store was saved with this model after the rename).
    private func isRename(from stored: String, to entity: String, currentHash: Data?) -> Bool {
        if model.entity(named: entity)?.renamingIdentifier == stored { return true }
        guard model.entity(named: stored) == nil, let currentHash else { return false }
        return metadata.entityHashes[entity] == currentHash
    }

    /// `Z_ENT = …` conditions on rows of `entity` (or its sub-entities) in `alias`'s table; none when the table
    /// holds one entity, which Core Data reads without looking at `Z_ENT`.
    func entityCondition(_ entity: EntityLayout, alias: String) -> String {
        guard hierarchyHasSubentities(entity) else { return "1" }
        return "\(alias).Z_ENT BETWEEN \(entity.number) AND \(entity.subtreeMax)"
    }

    func hierarchyHasSubentities(_ entity: EntityLayout) -> Bool {
        layout.entities.contains { $0.table == entity.table && $0.number != entity.number }
    }

    private func checkRows(_ db: Database, tables: Set<String>, primaryKeys: [Row],
                           report: (VerifyProblem.Kind, String, String, VerifyProblem.Severity) -> Void) throws {
        for root in layout.entities where root.superNumber == 0 && tables.contains(root.table) {
            let numbers = root.subtreeNumbers
            if hierarchyHasSubentities(root) {
                let stray = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(root.table) WHERE Z_ENT NOT BETWEEN ? AND ? OR Z_ENT IS NULL",
                                             arguments: [numbers.lowerBound, numbers.upperBound]) ?? 0
                if stray > 0 {
                    report(.entityNumbers, root.table, "\(stray) rows have a Z_ENT outside \(root.name)'s entities", .problem)
                }
            }
            let zMax = primaryKeys.first { ($0["Z_ENT"] as Int) == root.number }.flatMap { $0["Z_MAX"] as Int64? } ?? 0
            // iOS 6-era stores leave Z_MAX at -1 for some entities that have rows (Artsy 1.4 in the corpus);
            // Core Data opens them, so -1 is taken as "not recorded" rather than as damage. A Z_MAX below the
            // largest key (rows another tool wrote: Artsy 1.3 and 2.0) does not stop Core Data reading, but its
            // next insert would take a key in use and fail, so it is a problem; `repair()` fixes it (cdstore's
            // own inserts skip past it).
            if zMax != -1, let maxPK = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(root.table)"), maxPK > zMax {
                report(.maxPrimaryKey, root.name, "Z_MAX is \(zMax) but a row has Z_PK \(maxPK): Core Data's next insert "
                       + "into \(root.table) would take a key in use (a repair raises Z_MAX to it)", .problem)
            }
        }
    }

    private func checkRelationships(_ db: Database, tables: Set<String>, report: (VerifyProblem.Kind, String, String) -> Void) throws {
        var checkedJoinTables: Set<String> = []
        for entity in layout.entities where tables.contains(entity.table) {
            let own = entityCondition(entity, alias: "s")
            // Keys start at 1, so a foreign key of 0 names no object, like NULL (rows another tool wrote into
            // Artsy 2.0 in the corpus use 0 for "none").
            for (name, toOne) in entity.toOnes.sorted(by: { $0.key < $1.key }) {
                guard entity.superNumber == 0 || layout.entity(number: entity.superNumber)?.toOnes[name] == nil,
                      let destination = layout.entity(named: toOne.destination), tables.contains(destination.table) else { continue }
                let dangling = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM \(entity.table) s WHERE \(own) AND s.\(toOne.foreignKey) <> 0 AND NOT EXISTS \
                    (SELECT 1 FROM \(destination.table) d WHERE d.Z_PK = s.\(toOne.foreignKey) \
                    AND \(entityCondition(destination, alias: "d")))
                    """) ?? 0
                if dangling > 0 {
                    report(.danglingReference, "\(entity.name).\(name)", "\(dangling) objects point at missing \(destination.name) objects")
                }
                if let entityKey = toOne.entityKey {
                    let wrong = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(entity.table) s JOIN \(destination.table) d ON d.Z_PK = s.\(toOne.foreignKey) \
                        WHERE \(own) AND s.\(entityKey) IS NOT d.Z_ENT
                        """) ?? 0
                    if wrong > 0 { report(.danglingReference, "\(entity.name).\(name)", "\(wrong) objects have a wrong \(entityKey)") }
                }
                if let model = self.model.entity(named: entity.name), let relationship = self.model.relationship(name, of: model),
                   let inverse = self.model.inverse(of: relationship), !inverse.isToMany,
                   let inverseColumns = destination.toOnes[inverse.name] {
                    let disagreeing = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM \(entity.table) s JOIN \(destination.table) d ON d.Z_PK = s.\(toOne.foreignKey) \
                        WHERE \(own) AND d.\(inverseColumns.foreignKey) IS NOT s.Z_PK
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
                        AND \(entityCondition(target, alias: "o")))
                        """) ?? 0
                    if missing > 0 { report(.joinTable, table, "\(missing) rows of \(column) point at missing \(target.name) objects") }
                }
            }
        }
    }
}
