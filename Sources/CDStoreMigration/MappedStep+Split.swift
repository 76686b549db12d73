import CDStoreEngine
import CDStoreModel
import CDStorePredicate
internal import GRDB

extension MappedStep {
    /// Before the rows move: copies the key and the copied columns of each source object `split` takes (those its
    /// filter passes; `rejected` names the others) into its temporary table. Returns how many it takes.
    func capture(_ split: SplitMapping, db: Database, sourceLayout: StoreLayout, record: (String) throws -> Void,
                 rejected: (PredicateNode) throws -> [Int64]) throws -> Int {
        let columns = split.copies.indices.map { "c\($0)" }
        try db.execute(sql: "CREATE TEMP TABLE \(split.table) (pk INTEGER PRIMARY KEY\(columns.map { ", \($0)" }.joined()))")
        guard let layout = sourceLayout.entity(named: split.sourceEntity),
              try db.tableExists(layout.table) else { return 0 }
        let sourceColumns = split.copies.map { layout.attributeColumns[$0.sourceAttribute].map { "t.\($0)" } ?? "NULL" }
        let sql = "INSERT INTO temp.\(split.table) (pk\(columns.map { ", \($0)" }.joined())) "
            + "SELECT t.Z_PK\(sourceColumns.map { ", \($0)" }.joined()) FROM \(layout.table) t WHERE t.Z_ENT = ?"
        try record(sql)
        try db.execute(sql: sql, arguments: [layout.number])
        if let filter = split.filter {
            let delete = try db.makeStatement(sql: "DELETE FROM temp.\(split.table) WHERE pk = ?")
            for pk in try rejected(filter) { try delete.execute(arguments: [pk]) }
        }
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM temp.\(split.table)") ?? 0
    }

    /// After the rows move: each split's objects, keyed after the highest `Z_PK` of their table, with the model's
    /// defaults where the mapping sets nothing and their to-ones set to the object their source object became
    /// (when its mapping kept it). `keyOffset` gives how far the
    /// runner moved a source table's keys in a destination table (0 when they were kept).
    func insertSplitObjects(db: Database, destination: ManagedObjectModel, destinationLayout: StoreLayout, sourceLayout: StoreLayout,
                            keyOffset: (_ sourceTable: String, _ destinationTable: String) -> Int64,
                            record: (MigrationStatement) throws -> Void) throws {
        for split in splits {
            defer { try? db.execute(sql: "DROP TABLE temp.\(split.table)") }
            guard let layout = destinationLayout.entity(named: split.destinationEntity),
                  let root = destinationLayout.entity(named: layout.rootName) else { continue }
            let keeper = destinationLayout.entity(named: split.keeperDestination)
            var offset: Int64 = 0
            if let from = sourceLayout.entity(named: split.sourceEntity), let keeper { offset = keyOffset(from.table, keeper.table) }
            let base = max(try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(Z_PK), 0) FROM \(layout.table)") ?? 0,
                           try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root.number]) ?? 0)
            let rank = "ROW_NUMBER() OVER (ORDER BY x.pk)"
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            var values = ["\(base) + \(rank)", String(layout.number), "1"]
            for (index, copy) in split.copies.enumerated() {
                guard let column = layout.attributeColumns[copy.attribute] else { continue }
                columns.append(column)
                values.append("x.c\(index)")
            }
            // What the mapping does not set, a new object has from the model: its default values.
            var defaults: [DatabaseValue] = []
            let copied = Set(split.copies.map(\.attribute))
            if let entity = destination.entity(named: split.destinationEntity) {
                for attribute in destination.attributes(of: entity) where !copied.contains(attribute.name) && attribute.defaultValue != nil {
                    guard let column = layout.attributeColumns[attribute.name] else { continue }
                    columns.append(column)
                    values.append("?")
                    defaults.append(try DefaultValues.storedDefault(for: attribute))
                }
            }
            for name in split.linksToKeeper {
                guard let toOne = layout.toOnes[name], let keeper else { continue }
                let target = "(SELECT k.Z_PK FROM \(keeper.table) k WHERE k.Z_PK = x.pk + \(offset) AND k.Z_ENT = \(keeper.number))"
                columns.append(toOne.foreignKey)
                values.append(target)
                if let entityKey = toOne.entityKey {
                    columns.append(entityKey)
                    values.append("CASE WHEN \(target) IS NULL THEN NULL ELSE \(keeper.number) END")
                }
                if let orderKey = toOne.orderKey {
                    columns.append(orderKey)
                    values.append(rank)
                }
            }
            let sql = "INSERT INTO \(layout.table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
                + "FROM temp.\(split.table) x ORDER BY x.pk"
            try record(MigrationStatement(sql: sql, tables: [layout.table], isTemporary: false))
            try db.execute(sql: sql, arguments: StatementArguments(defaults))
            let raise = "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, (SELECT COALESCE(MAX(Z_PK), 0) FROM \(layout.table))) WHERE Z_ENT = ?"
            try record(MigrationStatement(sql: raise, tables: [], isTemporary: false))
            try db.execute(sql: raise, arguments: [root.number])
        }
    }
}
