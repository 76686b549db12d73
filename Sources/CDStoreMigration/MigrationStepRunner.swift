import CDStoreEngine
import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// One SQL statement a migration issued.
package struct MigrationStatement: Sendable, Equatable {
    /// The statement.
    package var sql: String
    /// The store tables it creates, changes or drops (empty for `Z_PRIMARYKEY`/`Z_METADATA` bookkeeping).
    package var tables: [String]
    /// Whether it only touches cdstore's temporary working tables (not the store file).
    package var isTemporary: Bool
}

/// Runs one migration step (source model → destination model) inside the caller's transaction.
///
/// How rows move (coredata-format.md §5.3):
/// 1. Entity numbers: every destination entity that comes from a source entity keeps that entity's number,
///    new entities get numbers after the store's highest; when that leaves a sub-tree's numbers
///    non-consecutive (`Z_ENT BETWEEN` needs them consecutive) every entity is renumbered as a new store of the
///    destination model would number it, and the rows' `Z_ENT` (and entity-key columns) are rewritten.
/// 2. For every source table a temporary map `pk, ent → new_pk, new_ent` of the rows that survive (rows of
///    removed entities are dropped). `Z_PK` is kept, except for rows moving into a table that already holds
///    rows of another source table (an entity moved into another inheritance tree): those are shifted past
///    that table's highest `Z_PK`, and every reference to them follows.
/// 3. For every destination relationship a temporary link set `(src, dst, ord)`, read from wherever the
///    source model kept it (a to-one column, the inverse's column, a hidden to-one, a join table) — so
///    renames, to-one ↔ to-many, inverse changes and moved storage all come from the same place.
/// 4. A table whose rows, numbers and existing columns stay as they are gets `ALTER TABLE … ADD COLUMN` (and
///    `UPDATE` for values that change); any other table is rebuilt: old renamed aside, new one created with the
///    exact statement a new store gets, rows copied with `INSERT … SELECT`, old dropped.
/// 5. Indexes brought to the destination layout, `Z_PRIMARYKEY` rewritten (kept numbers, `Z_MAX` kept or
///    raised to the table's highest `Z_PK`, `Z_NAME` set to the entity's current name).
final class MigrationStepRunner {
    let db: Database
    let mapping: InferredMapping
    let sourceLayout: StoreLayout
    let freshDestinationLayout: StoreLayout
    private(set) var destinationLayout: StoreLayout
    let sourceName: String
    let destinationName: String
    let prefix: String
    let record: (MigrationStatement) throws -> Void
    private(set) var renumberedEntities = false

    var source: ManagedObjectModel { mapping.source }
    var destination: ManagedObjectModel { mapping.destination }
    var matcher: ModelMatcher { mapping.matcher }

    /// Source entity number → destination entity layout.
    var entityMap: [Int: EntityLayout] = [:]
    /// Source tables that keep their rows, numbers and keys unchanged under the same name.
    var identityTables: Set<String> = []
    /// Source table → its temporary map table.
    var mapTables: [String: String] = [:]
    /// `Entity.relationship` (declaring destination entity) → its temporary link table.
    var linkTables: [String: String] = [:]
    /// Current name of each source table (rebuilt tables are renamed aside first).
    var currentName: [String: String] = [:]
    var sourceEntityTables: [String] = []

    init(db: Database, mapping: InferredMapping, sourceLayout: StoreLayout, destinationLayout: StoreLayout,
         sourceName: String, destinationName: String, prefix: String,
         record: @escaping (MigrationStatement) throws -> Void) {
        self.db = db
        self.mapping = mapping
        self.sourceLayout = sourceLayout
        self.freshDestinationLayout = destinationLayout
        self.destinationLayout = destinationLayout
        self.sourceName = sourceName
        self.destinationName = destinationName
        self.prefix = prefix
        self.record = record
    }

    // MARK: - Statements

    func execute(_ sql: String, _ arguments: [DatabaseValueConvertible?] = [], tables: [String], temporary: Bool = false) throws {
        try record(MigrationStatement(sql: sql, tables: tables, isTemporary: temporary))
        try db.execute(sql: sql, arguments: StatementArguments(arguments))
    }

    func count(_ sql: String, _ arguments: [DatabaseValueConvertible?] = []) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
    }

    /// Refusals found while working out column values, reported together.
    var pendingRefusals: [String] = []

    func refuse(_ reason: String) -> StoreError {
        MigrationError.dataRefused(reason, from: sourceName, to: destinationName)
    }

    // MARK: - Run

    func run() throws {
        try assignEntityNumbers()
        try buildEntityMap()
        try buildRowMaps()
        try buildLinks()
        let values = try columnValues()
        try rewriteTables(values)
        try rewritePrimaryKeys()
        for table in Array(mapTables.values) + Array(linkTables.values) {
            try execute("DROP TABLE temp.\(table)", tables: [], temporary: true)
        }
    }

    // MARK: 1. Entity numbers

    func assignEntityNumbers() throws {
        let existing = try Int.fetchAll(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
        var numbers: [String: Int] = [:]
        var used: Set<Int> = []
        for entity in destination.entities {
            if let old = mapping.entities[entity.name], let number = sourceLayout.entity(named: old)?.number,
               used.insert(number).inserted {
                numbers[entity.name] = number
            }
        }
        var next = max(existing.max() ?? 0, sourceLayout.entities.map(\.number).max() ?? 0) + 1
        for entity in freshDestinationLayout.entities where numbers[entity.name] == nil {
            numbers[entity.name] = next
            next += 1
        }
        do {
            destinationLayout = try freshDestinationLayout.renumbered(byStoreNumbers: numbers) ?? freshDestinationLayout
        } catch {
            destinationLayout = freshDestinationLayout
            renumberedEntities = true
        }
    }

    // MARK: 2. Row maps

    func buildEntityMap() throws {
        let existingTables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        sourceEntityTables = sourceLayout.tables.filter { $0.primaryKey.isEmpty && existingTables.contains($0.name) }.map(\.name)
        for table in sourceLayout.tables where existingTables.contains(table.name) { currentName[table.name] = table.name }
        let sourceToDestination = Dictionary(mapping.entities.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for entity in sourceLayout.entities where sourceEntityTables.contains(entity.table) {
            guard let name = sourceToDestination[entity.name], let target = destinationLayout.entity(named: name) else { continue }
            if target.isAbstract && !entity.isAbstract {
                let rows = try count("SELECT COUNT(*) FROM \(entity.table) WHERE Z_ENT = ?", [entity.number])
                if rows > 0 {
                    throw refuse("entity '\(name)' becomes abstract but \(rows) objects of \(entity.name) exist")
                }
                continue
            }
            entityMap[entity.number] = target
        }
    }

    /// Offsets added to the `Z_PK` of rows of `source` table moving into `target` table.
    var offsets: [String: [String: Int64]] = [:]

    func buildRowMaps() throws {
        // Which source tables feed each destination table.
        var feeders: [String: Set<String>] = [:]
        for entity in sourceLayout.entities {
            if let target = entityMap[entity.number] { feeders[target.table, default: []].insert(entity.table) }
        }
        for (target, sources) in feeders {
            let ordered = sources.sorted { a, b in a == target ? true : b == target ? false : a < b }
            var offset: Int64 = 0
            for table in ordered {
                offsets[table, default: [:]][target] = offset
                offset += try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(Z_PK), 0) FROM \(table)") ?? 0
            }
        }
        for table in sourceEntityTables {
            let members = sourceLayout.entities.filter { $0.table == table }
            let mapped = members.filter { entityMap[$0.number] != nil }
            var identity = feeders[table] == [table]
            for member in members {
                if let target = entityMap[member.number] {
                    if target.table != table || target.number != member.number { identity = false }
                } else if try count("SELECT COUNT(*) FROM \(table) WHERE Z_ENT = ?", [member.number]) > 0 {
                    identity = false
                }
            }
            if identity { identityTables.insert(table) }
            let map = "\(prefix)map_\(table)"
            mapTables[table] = map
            try execute("CREATE TEMP TABLE \(map) (pk INTEGER PRIMARY KEY, ent INTEGER, new_pk INTEGER, new_ent INTEGER)",
                        tables: [], temporary: true)
            guard !mapped.isEmpty else { continue }
            let pkCases = mapped.map { "WHEN \($0.number) THEN \(offsets[table]?[entityMap[$0.number]!.table] ?? 0)" }.joined(separator: " ")
            let entCases = mapped.map { "WHEN \($0.number) THEN \(entityMap[$0.number]!.number)" }.joined(separator: " ")
            try execute("""
                INSERT INTO \(map) (pk, ent, new_pk, new_ent) SELECT Z_PK, Z_ENT, Z_PK + CASE Z_ENT \(pkCases) ELSE 0 END, \
                CASE Z_ENT \(entCases) END FROM \(table) WHERE Z_ENT IN (\(mapped.map { String($0.number) }.joined(separator: ", ")))
                """, tables: [], temporary: true)
        }
    }

    // MARK: 3. Links

    func declaringEntity(of relationship: String, from entity: Entity, in model: ManagedObjectModel) -> Entity {
        ([entity] + model.ancestors(of: entity)).first { $0.relationships.contains { $0.name == relationship } } ?? entity
    }

    func linkKey(_ entity: String, _ relationship: String) -> String { "\(entity).\(relationship)" }

    /// `SELECT src_pk, src_ent, dst_pk, dst_ent, ord` for the source links of `relationship` whose source object is
    /// exactly of `entity` (source layout); `reversed` swaps the ends (and drops the order).
    func sourceLinks(of relationship: Relationship, exact entity: EntityLayout, reversed: Bool) -> String? {
        guard let destination = sourceLayout.entity(named: relationship.destination),
              let ownMap = mapTables[entity.table], let otherMap = mapTables[destination.table] else { return nil }
        let range = "BETWEEN \(destination.number) AND \(destination.subtreeMax)"
        func select(_ order: String) -> String {
            reversed ? "SELECT md.new_pk AS src_pk, md.new_ent AS src_ent, ms.new_pk AS dst_pk, ms.new_ent AS dst_ent, NULL AS ord"
                : "SELECT ms.new_pk AS src_pk, ms.new_ent AS src_ent, md.new_pk AS dst_pk, md.new_ent AS dst_ent, \(order) AS ord"
        }
        if let toOne = entity.toOnes[relationship.name] {
            return "\(select("NULL")) FROM \(entity.table) s JOIN \(ownMap) ms ON ms.pk = s.Z_PK JOIN \(otherMap) md ON "
                + "md.pk = s.\(toOne.foreignKey) WHERE s.Z_ENT = \(entity.number) AND md.ent \(range)"
        }
        switch entity.toManys[relationship.name] {
        case .foreignKey(let table, let foreignKey, _, let orderKey)?:
            guard let tableMap = mapTables[table] else { return nil }
            return "\(select(orderKey.map { "t.\($0)" } ?? "NULL")) FROM \(table) t JOIN \(tableMap) md ON md.pk = t.Z_PK "
                + "JOIN \(ownMap) ms ON ms.pk = t.\(foreignKey) WHERE ms.ent = \(entity.number) AND md.ent \(range)"
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn)?:
            guard currentName[table] != nil else { return nil }
            return "\(select(orderColumn.map { "j.\($0)" } ?? "NULL")) FROM \(table) j JOIN \(ownMap) ms ON ms.pk = j.\(sourceColumn) "
                + "JOIN \(otherMap) md ON md.pk = j.\(destinationColumn) WHERE ms.ent = \(entity.number) AND md.ent \(range)"
        case nil:
            return nil
        }
    }

    func buildLinks() throws {
        var index = 0
        for entity in destination.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                index += 1
                let table = "\(prefix)link\(index)"
                linkTables[linkKey(entity.name, relationship.name)] = table
                try execute("CREATE TEMP TABLE \(table) (src_pk INTEGER, src_ent INTEGER, dst_pk INTEGER, dst_ent INTEGER, ord INTEGER)",
                            tables: [], temporary: true)
                guard let own = destinationLayout.entity(named: entity.name),
                      let target = destinationLayout.entity(named: relationship.destination) else { continue }
                let filter = "WHERE src_ent BETWEEN \(own.number) AND \(own.subtreeMax) AND dst_ent BETWEEN \(target.number) AND \(target.subtreeMax)"
                var selects: [String] = []
                for exact in destination.subtree(of: entity) {
                    guard let old = mapping.entities[exact.name].flatMap({ source.entity(named: $0) }),
                          let oldLayout = sourceLayout.entity(named: old.name),
                          let previous = mapping.sourceRelationship(for: relationship, of: exact.name, in: old),
                          let select = sourceLinks(of: previous, exact: oldLayout, reversed: false) else { continue }
                    selects.append(select)
                }
                if selects.isEmpty, let inverse = destination.inverse(of: relationship),
                   let inverseOwner = destination.entity(named: relationship.destination) {
                    for exact in destination.subtree(of: inverseOwner) {
                        guard let old = mapping.entities[exact.name].flatMap({ source.entity(named: $0) }),
                              let oldLayout = sourceLayout.entity(named: old.name),
                              let previous = mapping.sourceRelationship(for: inverse, of: exact.name, in: old),
                              let select = sourceLinks(of: previous, exact: oldLayout, reversed: true) else { continue }
                        selects.append(select)
                    }
                }
                for select in selects {
                    try execute("INSERT INTO \(table) SELECT * FROM (\(select)) \(filter)", tables: [], temporary: true)
                }
                guard !selects.isEmpty else { continue }
                try execute("CREATE INDEX temp.\(table)_src ON \(table) (src_pk, src_ent)", tables: [], temporary: true)
                try execute("CREATE INDEX temp.\(table)_dst ON \(table) (dst_pk, dst_ent)", tables: [], temporary: true)
                if !relationship.isToMany {
                    let many = try count("SELECT COUNT(*) FROM (SELECT 1 FROM \(table) GROUP BY src_pk, src_ent HAVING COUNT(*) > 1)")
                    if many > 0 {
                        throw refuse("relationship \(entity.name).\(relationship.name) becomes to-one but \(many) objects are "
                                     + "related to more than one \(relationship.destination)")
                    }
                } else if destination.inverse(of: relationship) == nil {
                    let many = try count("SELECT COUNT(*) FROM (SELECT 1 FROM \(table) GROUP BY dst_pk, dst_ent HAVING COUNT(*) > 1)")
                    if many > 0 {
                        throw refuse("relationship \(entity.name).\(relationship.name) loses its inverse but \(many) "
                                     + "\(relationship.destination) objects belong to more than one \(entity.name)")
                    }
                }
            }
        }
    }

    // MARK: 4. Column values

    /// A column value: SQL with `{pk}`, `{ent}` (the row's new key and entity number) and `{s}` (the source row).
    struct Value {
        var sql: String
        var arguments: [DatabaseValue] = []
        /// The column keeps its stored value.
        var isIdentity = false
    }

    /// Destination entity name → column → value, for every destination entity that has source rows.
    func columnValues() throws -> [String: [String: Value]] {
        var result: [String: [String: Value]] = [:]
        for entity in destinationLayout.entities {
            guard let modelEntity = destination.entity(named: entity.name),
                  let oldName = mapping.entities[entity.name], let old = source.entity(named: oldName),
                  let oldLayout = sourceLayout.entity(named: oldName), entityMap[oldLayout.number] != nil else { continue }
            var values: [String: Value] = ["Z_PK": Value(sql: "{pk}"), "Z_ENT": Value(sql: "{ent}"),
                                           "Z_OPT": Value(sql: "{s}.Z_OPT", isIdentity: true)]
            let tablesKept = identityTables.contains(oldLayout.table)
            for (name, column) in entity.attributeColumns.sorted(by: { $0.key < $1.key }) {
                values[column] = try attributeValue(name, column: column, entity: modelEntity, old: old, oldLayout: oldLayout)
            }
            for (name, toOne) in entity.toOnes {
                guard let relationship = destination.relationship(name, of: modelEntity) else { continue }
                let owner = declaringEntity(of: name, from: modelEntity, in: destination)
                guard let link = linkTables[linkKey(owner.name, name)] else { continue }
                let previous = mapping.sourceRelationship(for: relationship, of: modelEntity.name, in: old)
                let oldToOne = previous.flatMap { oldLayout.toOnes[$0.name] }
                let destinationKept = sourceLayout.entity(named: previous?.destination ?? "").map { identityTables.contains($0.table) } ?? false
                let kept = tablesKept && destinationKept && !renumberedEntities
                let lookup = "FROM \(link) l WHERE l.src_pk = {pk} AND l.src_ent = {ent} LIMIT 1)"
                values[toOne.foreignKey] = Value(sql: "(SELECT l.dst_pk \(lookup)", isIdentity: kept && oldToOne?.foreignKey == toOne.foreignKey)
                if let key = toOne.entityKey {
                    values[key] = Value(sql: "(SELECT l.dst_ent \(lookup)", isIdentity: kept && oldToOne?.entityKey == key)
                }
                if let key = toOne.orderKey, let inverse = destination.inverse(of: relationship),
                   let inverseLink = linkTables[linkKey(declaringEntity(of: inverse.name, from: destination.entity(named: relationship.destination)!, in: destination).name, inverse.name)] {
                    values[key] = Value(sql: "(SELECT COALESCE(l.ord, {pk}) FROM \(inverseLink) l WHERE l.dst_pk = {pk} AND l.dst_ent = {ent} LIMIT 1)",
                                        isIdentity: kept && oldToOne?.orderKey == key)
                }
            }
            for (key, hidden) in entity.hiddenToOnes {
                let name = String(key.drop(while: \.isNumber))
                guard let link = linkTables[linkKey(hidden.destination, name)] else { continue }
                let lookup = "FROM \(link) l WHERE l.dst_pk = {pk} AND l.dst_ent = {ent} LIMIT 1)"
                let kept = tablesKept && !renumberedEntities && oldLayout.hiddenToOnes[key] == hidden
                    && (sourceLayout.entity(named: mapping.entities[hidden.destination] ?? "").map { identityTables.contains($0.table) } ?? false)
                values[hidden.foreignKey] = Value(sql: "(SELECT l.src_pk \(lookup)", isIdentity: kept)
                if let entityKey = hidden.entityKey { values[entityKey] = Value(sql: "(SELECT l.src_ent \(lookup)", isIdentity: kept) }
                if let orderKey = hidden.orderKey { values[orderKey] = Value(sql: "(SELECT COALESCE(l.ord, {pk}) \(lookup)", isIdentity: kept) }
            }
            result[entity.name] = values
        }
        if !pendingRefusals.isEmpty { throw refuse(pendingRefusals.joined(separator: "; ")) }
        return result
    }

    func attributeValue(_ name: String, column: String, entity: Entity, old: Entity, oldLayout: EntityLayout) throws -> Value {
        guard let attribute = destination.attribute(name, of: entity) else {
            // A composite attribute's element: same key, same column.
            if let oldColumn = oldLayout.attributeColumns[name] {
                return Value(sql: "{s}.\(oldColumn)", isIdentity: oldColumn == column)
            }
            return Value(sql: "NULL")
        }
        if case .sql(let sql)? = mapping.override(name, of: entity.name) { return Value(sql: sql) }
        let previous = mapping.sourceAttribute(for: attribute, of: entity.name, in: old)
        let oldColumn = previous.flatMap { oldLayout.attributeColumns[$0.name] }
        let conversion = previous.flatMap { AttributeConversion.from($0.type, to: attribute.type) } ?? .identity
        var value = Value(sql: oldColumn.map { conversion.convert("{s}.\($0)") } ?? "NULL",
                          isIdentity: oldColumn == column && conversion.isIdentity)
        let stored: DatabaseValue
        do {
            stored = try DefaultValues.storedDefault(for: attribute)
        } catch var error as StoreError {
            error.entity = error.entity ?? entity.name
            throw error
        }
        let where_ = "FROM \(oldLayout.table) s WHERE s.Z_ENT = \(oldLayout.number)"
        if let oldColumn, let invalid = conversion.invalid {
            let condition = "s.\(oldColumn) IS NOT NULL AND \(invalid("s.\(oldColumn)"))"
            let bad = try count("SELECT COUNT(*) \(where_) AND \(condition)")
            if bad > 0 {
                let samples = try DatabaseValue.fetchAll(db, sql: "SELECT s.\(oldColumn) \(where_) AND \(condition) LIMIT 3")
                pendingRefusals.append("entity '\(entity.name)', attribute '\(name)': changing \(previous!.type.rawValue) to "
                             + "\(attribute.type.rawValue) is lossy for \(bad) rows (\(conversion.invalidReason): "
                             + samples.map { $0.description }.joined(separator: ", ") + ")")
                return value
            }
        }
        if oldColumn == nil, !stored.isNull {
            value = Value(sql: "?", arguments: [stored])
        } else if !attribute.isOptional, previous?.isOptional ?? true {
            if !stored.isNull {
                value = Value(sql: "COALESCE(\(value.sql), ?)", arguments: [stored])
            } else {
                let nulls = try count("SELECT COUNT(*) \(where_) AND \(value.sql.replacingOccurrences(of: "{s}", with: "s")) IS NULL")
                if nulls > 0 {
                    pendingRefusals.append("entity '\(entity.name)', attribute '\(name)' becomes non-optional without a default "
                                           + "value and \(nulls) rows are NULL")
                }
            }
        }
        return value
    }
}
