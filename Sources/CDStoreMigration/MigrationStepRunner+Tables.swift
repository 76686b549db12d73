import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// Rewriting tables and Z_PRIMARYKEY: steps 5 and 6 of a migration step.
extension MigrationStepRunner {
    // MARK: 5. Tables

    enum Mode { case keep, alter, rebuild, create }

    func rewriteTables(_ values: [String: [String: Value]]) throws {
        let sourceTables = Dictionary(sourceLayout.tables.filter { currentName[$0.name] != nil }.map { ($0.name, $0) },
                                      uniquingKeysWith: { a, _ in a })
        var modes: [String: Mode] = [:]
        for table in destinationLayout.tables {
            guard let old = sourceTables[table.name] else { modes[table.name] = .create; continue }
            if table.primaryKey.isEmpty {
                let actual = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.name))").map { $0["name"] as String }
                let prefixMatches = old.columns.count <= table.columns.count
                    && Array(table.columns.prefix(old.columns.count)) == old.columns && actual == old.columns.map(\.name)
                if identityTables.contains(table.name) && prefixMatches && !renumberedEntities {
                    let members = destinationLayout.entities.filter { $0.table == table.name }.compactMap { values[$0.name] }
                    let changes = table.columns.count > old.columns.count
                        || members.contains { v in v.contains { !$0.value.isIdentity && !["Z_PK", "Z_ENT"].contains($0.key) } }
                    modes[table.name] = changes ? .alter : .keep
                } else {
                    modes[table.name] = .rebuild
                }
            } else {
                modes[table.name] = joinTableKept(table, old: old) ? .keep : .rebuild
            }
        }
        let dropped = sourceTables.keys.filter { name in !destinationLayout.tables.contains { $0.name == name } }.sorted()
        // Indexes: drop those of rebuilt or dropped tables and those the destination does not have.
        let wanted = Dictionary(destinationLayout.indexes.map { ($0.name, $0.createSQL) }, uniquingKeysWith: { a, _ in a })
        let managed = Set(sourceTables.keys).union(destinationLayout.tables.map(\.name))
        var existingIndexes: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            let (name, table, sql): (String, String, String) = (row["name"], row["tbl_name"], row["sql"])
            guard managed.contains(table) else { continue }
            if modes[table] == .rebuild || dropped.contains(table) || wanted[name] != sql {
                try execute("DROP INDEX \(name)", tables: [table])
            } else {
                existingIndexes.insert(name)
            }
        }
        // Rebuilt tables: renamed aside, then created as a new store creates them.
        for table in destinationLayout.tables where modes[table.name] == .rebuild {
            let aside = "Z_CDSTORE_OLD_\(table.name)"
            try execute("ALTER TABLE \(table.name) RENAME TO \(aside)", tables: [table.name])
            currentName[table.name] = aside
        }
        for table in destinationLayout.tables {
            switch modes[table.name]! {
            case .create, .rebuild:
                try execute(table.createSQL, tables: [table.name])
            case .alter:
                let old = sourceTables[table.name]!
                for column in table.columns.dropFirst(old.columns.count) {
                    try execute("ALTER TABLE \(table.name) ADD COLUMN \(column.name) \(column.type)", tables: [table.name])
                }
            case .keep:
                break
            }
        }
        for table in destinationLayout.tables {
            let mode = modes[table.name]!
            if table.primaryKey.isEmpty {
                try fillEntityTable(table, mode: mode, values: values)
            } else if mode != .keep {
                try fillJoinTable(table)
            }
        }
        try checkUniqueness()
        for table in destinationLayout.tables where modes[table.name] == .rebuild {
            try execute("DROP TABLE \(currentName[table.name]!)", tables: [table.name])
        }
        for table in dropped {
            try execute("DROP TABLE \(table)", tables: [table])
        }
        for index in destinationLayout.indexes where !existingIndexes.contains(index.name) {
            try execute(index.createSQL, tables: [index.table])
        }
    }

    func joinTableKept(_ table: TableLayout, old: TableLayout) -> Bool {
        guard table == old, !renumberedEntities, let user = joinTableUser(table.name) else { return false }
        let (entity, relationship) = user
        guard let oldName = mapping.entities[entity.name], let oldEntity = source.entity(named: oldName),
              let oldLayout = sourceLayout.entity(named: oldName),
              let previous = mapping.sourceRelationship(for: relationship, of: entity.name, in: oldEntity),
              let newLayout = destinationLayout.entity(named: entity.name),
              oldLayout.toManys[previous.name] == newLayout.toManys[relationship.name],
              let oldDestination = sourceLayout.entity(named: previous.destination) else { return false }
        return identityTables.contains(oldLayout.table) && identityTables.contains(oldDestination.table)
    }

    /// The destination relationship (and its declaring entity) stored in the join table `name`.
    func joinTableUser(_ name: String) -> (Entity, Relationship)? {
        for entity in destination.entities {
            guard let layout = destinationLayout.entity(named: entity.name) else { continue }
            for relationship in entity.relationships {
                if case .joinTable(let table, _, _, _)? = layout.toManys[relationship.name], table == name {
                    return (entity, relationship)
                }
            }
        }
        return nil
    }

    func fillEntityTable(_ table: TableLayout, mode: Mode, values: [String: [String: Value]]) throws {
        for entity in destinationLayout.entities where entity.table == table.name {
            guard let entityValues = values[entity.name], let oldName = mapping.entities[entity.name],
                  let old = sourceLayout.entity(named: oldName), let sourceTable = currentName[old.table],
                  let map = mapTables[old.table] else { continue }
            switch mode {
            case .create, .rebuild:
                var arguments: [DatabaseValue] = []
                let expressions = table.columns.map { column -> String in
                    guard let value = entityValues[column.name] else { return "NULL" }
                    arguments += value.arguments
                    return substitute(value.sql, pk: "m.new_pk", ent: "m.new_ent", source: "s")
                }
                try execute("INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) SELECT "
                            + expressions.joined(separator: ", ") + " FROM \(sourceTable) s JOIN \(map) m ON m.pk = s.Z_PK "
                            + "WHERE s.Z_ENT = \(old.number)", arguments, tables: [table.name])
            case .alter:
                var arguments: [DatabaseValue] = []
                var assignments: [String] = []
                let existing = Set(sourceLayout.table(named: table.name)?.columns.map(\.name) ?? [])
                for column in table.columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column.name) {
                    guard let value = entityValues[column.name], !value.isIdentity, value.sql != "NULL" || existing.contains(column.name) else { continue }
                    arguments += value.arguments
                    assignments.append("\(column.name) = " + substitute(value.sql, pk: "\(table.name).Z_PK", ent: "\(table.name).Z_ENT",
                                                                        source: table.name))
                }
                guard !assignments.isEmpty else { continue }
                try execute("UPDATE \(table.name) SET \(assignments.joined(separator: ", ")) WHERE Z_ENT = \(old.number)", arguments,
                            tables: [table.name])
            case .keep:
                break
            }
        }
    }

    func substitute(_ sql: String, pk: String, ent: String, source: String) -> String {
        sql.replacingOccurrences(of: "{pk}", with: pk).replacingOccurrences(of: "{ent}", with: ent)
            .replacingOccurrences(of: "{s}", with: source)
    }

    func fillJoinTable(_ table: TableLayout) throws {
        guard let (entity, relationship) = joinTableUser(table.name),
              let layout = destinationLayout.entity(named: entity.name),
              case .joinTable(_, let sourceColumn, let destinationColumn, let orderColumn)? = layout.toManys[relationship.name],
              let link = linkTables[linkKey(entity.name, relationship.name)] else { return }
        var values: [String: String] = [sourceColumn: "l.src_pk", destinationColumn: "l.dst_pk"]
        if let orderColumn { values[orderColumn] = "COALESCE(l.ord, l.dst_pk)" }
        if let inverse = destination.inverse(of: relationship), inverse.name != relationship.name || inverse.destination != relationship.destination,
           let inverseOwner = destination.entity(named: relationship.destination),
           let inverseLayout = destinationLayout.entity(named: inverseOwner.name),
           case .joinTable(_, _, _, let inverseOrder)? = inverseLayout.toManys[inverse.name], let inverseOrder,
           let inverseLink = linkTables[linkKey(declaringEntity(of: inverse.name, from: inverseOwner, in: destination).name, inverse.name)] {
            values[inverseOrder] = "(SELECT COALESCE(i.ord, l.src_pk) FROM \(inverseLink) i WHERE i.src_pk = l.dst_pk AND "
                + "i.src_ent = l.dst_ent AND i.dst_pk = l.src_pk AND i.dst_ent = l.src_ent LIMIT 1)"
        }
        let columns = table.columns.map(\.name)
        try execute("INSERT OR IGNORE INTO \(table.name) (\(columns.joined(separator: ", "))) SELECT "
                    + columns.map { values[$0] ?? "NULL" }.joined(separator: ", ") + " FROM \(link) l", tables: [table.name])
    }

    func checkUniqueness() throws {
        for index in destinationLayout.indexes where index.isUnique {
            let columns = index.columns.map { String($0.split(separator: " ").first ?? "") }
            let list = columns.joined(separator: ", ")
            let rows = try Row.fetchAll(db, sql: "SELECT \(list), COUNT(*) AS n FROM \(index.table) WHERE "
                                        + columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                                        + " GROUP BY \(list) HAVING COUNT(*) > 1 LIMIT 10")
            guard !rows.isEmpty else { continue }
            let entity = index.name.hasPrefix("Z_") ? String(index.name.dropFirst(2).prefix { $0 != "_" }) : index.table
            let duplicates = rows.map { row in
                "(" + columns.map { row[$0] as DatabaseValue }.map(\.description).joined(separator: ", ") + ") × \(row["n"] as Int)"
            }
            throw refuse("entity '\(entity)': the uniqueness constraint on \(index.name.components(separatedBy: "_UNIQUE_").last ?? list) "
                         + "is violated by existing rows: " + duplicates.joined(separator: ", "))
        }
    }

    // MARK: 6. Z_PRIMARYKEY

    func rewritePrimaryKeys() throws {
        let oldRows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        var oldMax: [Int: Int64] = [:]
        for row in oldRows { oldMax[row["Z_ENT"]] = row["Z_MAX"] ?? 0 }
        var sourceByDestination: [String: EntityLayout] = [:]
        for entity in sourceLayout.entities {
            if let target = entityMap[entity.number] { sourceByDestination[target.name] = entity }
        }
        try execute("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000", tables: [])
        for entity in destinationLayout.entities {
            var zMax = sourceByDestination[entity.name].flatMap { oldMax[$0.number] } ?? 0
            if entity.superNumber == 0 {
                // Rows that moved here keep the table's highest key above Z_MAX.
                let feeding = sourceLayout.entities.filter { entityMap[$0.number]?.table == entity.table && $0.superNumber == 0 }
                for root in feeding { zMax = max(zMax, (oldMax[root.number] ?? 0) + (offsets[root.table]?[entity.table] ?? 0)) }
                zMax = max(zMax, try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(Z_PK), 0) FROM \(entity.table)") ?? 0)
            }
            try execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                        [entity.number, entity.name, entity.superNumber, zMax], tables: [])
        }
    }
}
