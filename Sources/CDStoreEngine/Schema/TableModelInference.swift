import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// A model read back from a store's tables, with the layout that maps it onto them: what cdstore reads a store
/// with when it carries no model (no `Z_MODELCACHE`, a NULL, empty or unreadable one, no cdstore JSON model) and
/// none was given. Enough to read (`info`, `fetch`, `count`, `export`); writing needs the real model.
///
/// How the tables are read (coredata-format.md §1.2–1.6):
/// - **Entities** are the rows of `Z_PRIMARYKEY` below 16000, with their numbers, names and parents
///   (`Z_SUPER`). Rows from 16000 on are ancillary (persistent history, CloudKit mirroring): they are listed in
///   ``ancillaryEntities`` and left out of the model. A root's table is `Z` + its name in upper case; a root
///   whose table is missing takes the one unclaimed entity table whose `Z_ENT` values all fall in its subtree
///   (a rename Core Data did not record in `Z_PRIMARYKEY`), else it and its subtree are left out
///   (``entitiesLeftOut``).
/// - **Property names** are the column names without their leading `Z`, in upper case as the columns give them
///   (`ZFIRSTNAME` → `FIRSTNAME`, `ZACCOUNT1` → `ACCOUNT1`): nothing in a table says how a name was spelt.
///   Every column name is carried in ``layout``, so no name is recomputed with Core Data's naming rules.
/// - **Attribute types** come from the declared column types: INTEGER → Integer 64, FLOAT → Double,
///   DECIMAL → Decimal, VARCHAR → String, TIMESTAMP → Date, BLOB → Binary (UUID, Transformable and external
///   storage are not told apart); other declarations by SQLite's affinity rules. Everything is optional.
/// - **Sub-entities** share their root's table, and no declaration says which of them owns a column; the rows
///   do. A column goes to the nearest common ancestor of the entities whose rows hold a non-NULL value in it,
///   and to the root when no row does. So what an empty store shows on a root may move to a sub-entity once
///   rows exist.
/// - **To-one relationships** are INTEGER columns with foreign-key evidence: an entity-key companion
///   `Z<n>_<NAME>` (the destination is entity n, which has sub-entities), a `Z_FOK_<NAME>` order column (the
///   inverse is an ordered to-many), or Core Data's foreign-key index `<TABLE>_<COLUMN>_INDEX` (in stores from
///   framework 600 on only foreign keys get that name; older stores also give it to indexed attributes).
///   Without a companion the destination is an entity without sub-entities: the one whose upper-case name is
///   the column's name (trailing digits of a uniqued name dropped), else the one entity whose objects hold
///   every value of the column as `Z_PK` (ignoring `Z_ENT` in a table of one entity, as Core Data does). When
///   neither settles it (an empty column whose name is no entity's, values that fit several entities — keys
///   are only unique per table), the column stays an Integer 64 attribute and is listed in
///   ``undeterminedForeignKeys``.
/// - **Ordered to-manys**: a to-one with a `Z_FOK_` column gets its inverse, an ordered to-many on the
///   destination named `<SOURCE>_<NAME>` (its real name is nowhere in the tables).
/// - **To-manys without inverse** are Core Data's hidden to-one columns `Z<n><NAME>` (+ `Z<n>_<n><NAME>`,
///   `Z_FOK_<n><NAME>`): to-many `NAME` of entity n, whose destination is the entity that owns the column.
/// - **Many-to-manys** are the join tables `Z_<a><R>`: `R` on entity a (the name is exact: join tables are not
///   uniqued), and on the other side the relationship named by the column that holds entity a's keys
///   (`Z_<a><S>`); the column `Z_<b><R>` names entity b. `Z_FOK_` columns make the side they order ordered;
///   a `REFLEXIVE` column makes a relationship its own inverse.
///
/// A name taken twice in one hierarchy (a join-table name equal to a column name) gets `_2`, `_3`… appended.
/// Columns and entities whose names are not plain identifiers are left out: cdstore never puts such a name
/// into SQL.
package struct InferredModel: Sendable {
    /// An ancillary entity (`Z_ENT` ≥ 16000) of `Z_PRIMARYKEY`, kept out of the model.
    package struct AncillaryEntity: Sendable, Equatable {
        package var name: String
        package var number: Int
        /// Its table, `A` + its name in upper case.
        package var table: String
    }

    /// The inferred model.
    package var model: ManagedObjectModel
    /// Its layout: exactly the store's tables and column names.
    package var layout: StoreLayout
    /// Persistent-history and CloudKit-mirroring entities.
    package var ancillaryEntities: [AncillaryEntity]
    /// Entities of `Z_PRIMARYKEY` left out (no table, or a name that is not an identifier).
    package var entitiesLeftOut: [String]
    /// INTEGER columns (`TABLE.COLUMN`) with foreign-key evidence whose destination could not be told: kept as
    /// Integer 64 attributes.
    package var undeterminedForeignKeys: [String]
}

/// Infers a store's model from its tables; see ``InferredModel`` for the rules.
package enum TableModelInference {
    /// Reads the store at `path` (read-only) and infers its model.
    package static func infer(storeAt path: String) throws -> InferredModel {
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: Store.configuration(readOnly: true))
            return try database.read { try infer($0) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "cannot read \(path): \(Store.describe(error))")
        }
    }

    /// Infers the model of the store open on `db`.
    static func infer(_ db: Database) throws -> InferredModel {
        let inference = try TableInference(db)
        try inference.run()
        return inference.result()
    }
}

/// One entity while its model is inferred: its place in the tree and its own properties with their columns.
final class InferredNode {
    let name: String
    let number: Int
    weak var parent: InferredNode?
    var children: [InferredNode] = []
    /// The hierarchy's table (set on every node of the tree).
    var table = ""
    var attributes: [Attribute] = []
    var relationships: [Relationship] = []
    var attributeColumns: [String: String] = [:]
    var toOnes: [String: ToOneLayout] = [:]
    var toManys: [String: ToManyLayout] = [:]
    var hiddenToOnes: [String: ToOneLayout] = [:]

    init(name: String, number: Int) {
        self.name = name
        self.number = number
    }

    var root: InferredNode { parent?.root ?? self }
    /// This node and its ancestors, nearest first.
    var lineage: [InferredNode] { [self] + (parent?.lineage ?? []) }
    var subtree: [InferredNode] { [self] + children.flatMap(\.subtree) }
}

/// The state of one inference: the entity tree, then each table's columns, then the relationships that span
/// tables (hidden to-ones, ordered inverses, join tables).
final class TableInference {
    let db: Database
    /// Kept entities in `Z_ENT` order.
    private(set) var nodes: [InferredNode] = []
    private(set) var byNumber: [Int: InferredNode] = [:]
    var ancillary: [InferredModel.AncillaryEntity] = []
    var leftOut: [String] = []
    var undetermined: [String] = []
    /// Property names taken in each hierarchy, by root number.
    private var taken: [Int: Set<String>] = [:]
    /// Relationships that name or link properties of other hierarchies, added once every column is read.
    var pendingHiddenToManys: [HiddenToMany] = []
    var pendingOrderedInverses: [OrderedInverse] = []
    /// Join tables with the number of the entity that names them.
    var joinTableLayouts: [(entity: Int, table: TableLayout)] = []
    var entityTableLayouts: [String: TableLayout] = [:]
    /// `MAX(Z_PK)` of entity tables, asked once each.
    var largestKeys: [String: Int64] = [:]

    init(_ db: Database) throws {
        self.db = db
    }

    func run() throws {
        try readEntities()
        for root in nodes where root.parent == nil { try readColumns(of: root) }
        addHiddenToManys()
        addOrderedInverses()
        try readJoinTables()
    }

    /// A name for a new property of `node`'s hierarchy: `name`, or `name_2`, `name_3`… when it is taken.
    func claim(_ name: String, in node: InferredNode) -> String {
        let root = node.root.number
        var candidate = name
        var n = 1
        while taken[root, default: []].contains(candidate) {
            n += 1
            candidate = "\(name)_\(n)"
        }
        taken[root, default: []].insert(candidate)
        return candidate
    }

    // MARK: Entities

    private func readEntities() throws {
        var all: [(node: InferredNode, superNumber: Int)] = []
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard let number: Int = row["Z_ENT"] else { continue }
            let name: String = row["Z_NAME"] ?? ""
            if number >= 16000 {
                ancillary.append(.init(name: name, number: number, table: "A" + ColumnNaming.upper(name)))
            } else if NameRules.isIdentifier(name), byNumber[number] == nil {
                let node = InferredNode(name: name, number: number)
                all.append((node, row["Z_SUPER"] ?? 0))
                byNumber[number] = node
            } else {
                leftOut.append(name)
            }
        }
        for (node, superNumber) in all where superNumber != 0 {
            // A parent that is missing, or one that would close a cycle, makes the entity a root.
            guard let parent = byNumber[superNumber], !parent.lineage.contains(where: { $0 === node }) else { continue }
            node.parent = parent
            parent.children.append(node)
        }
        let tables = try entityTables()
        var claimed = Set<String>()
        var withoutTable: [InferredNode] = []
        for (node, _) in all where node.parent == nil {
            let table = "Z" + ColumnNaming.upper(node.name)
            if tables.contains(table) {
                assign(table, to: node)
                claimed.insert(table)
            } else {
                withoutTable.append(node)
            }
        }
        for root in withoutTable {
            let numbers = Set(root.subtree.map(\.number))
            var fitting: [String] = []
            for table in tables.subtracting(claimed).sorted() {
                let values = try Int.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM \(table) WHERE Z_ENT IS NOT NULL")
                if !values.isEmpty, values.allSatisfy(numbers.contains) { fitting.append(table) }
            }
            if fitting.count == 1 {
                assign(fitting[0], to: root)
                claimed.insert(fitting[0])
            } else {
                leftOut += root.subtree.map(\.name)
                for node in root.subtree { byNumber[node.number] = nil }
            }
        }
        nodes = all.map(\.node).filter { byNumber[$0.number] === $0 }
    }

    private func assign(_ table: String, to root: InferredNode) {
        for node in root.subtree { node.table = table }
    }

    /// Tables shaped like entity tables (`Z…` with `Z_PK` and `Z_ENT`, not a join or system table).
    private func entityTables() throws -> Set<String> {
        var result = Set<String>()
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'")
        for name in names where !name.hasPrefix("Z_") && NameRules.isIdentifier(name) {
            let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { $0["name"] as String })
            if columns.contains("Z_PK") && columns.contains("Z_ENT") { result.insert(name) }
        }
        return result
    }

    // MARK: Result

    func result() -> InferredModel {
        var entities: [Entity] = []
        var layouts: [EntityLayout] = []
        for node in nodes {
            var entity = Entity(name: node.name, parentName: node.parent?.name)
            entity.attributes = node.attributes.sorted { LayoutBuilder.utf16Precedes($0.name, $1.name) }
            entity.relationships = node.relationships.sorted { LayoutBuilder.utf16Precedes($0.name, $1.name) }
            entities.append(entity)
            var layout = EntityLayout(name: node.name, number: node.number, superNumber: node.parent?.number ?? 0,
                                      subtreeMax: node.subtree.map(\.number).max() ?? node.number,
                                      rootName: node.root.name, table: node.table, isAbstract: false,
                                      attributeColumns: [:], toOnes: [:], toManys: [:])
            // Inherited storage first, so that the entity's own entries are the ones kept.
            for ancestor in node.lineage.reversed() {
                layout.attributeColumns.merge(ancestor.attributeColumns) { $1 }
                layout.toOnes.merge(ancestor.toOnes) { $1 }
                layout.toManys.merge(ancestor.toManys) { $1 }
                layout.hiddenToOnes.merge(ancestor.hiddenToOnes) { $1 }
            }
            layouts.append(layout)
        }
        var tables: [TableLayout] = []
        for root in nodes where root.parent == nil {
            if let table = entityTableLayouts[root.table] { tables.append(table) }
            let numbers = Set(root.subtree.map(\.number))
            tables += joinTableLayouts.filter { numbers.contains($0.entity) }.map(\.table)
        }
        return InferredModel(model: ManagedObjectModel(entities: entities),
                             layout: StoreLayout(entities: layouts, tables: tables, indexes: []),
                             ancillaryEntities: ancillary, entitiesLeftOut: leftOut, undeterminedForeignKeys: undetermined)
    }
}
