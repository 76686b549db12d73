import CDStoreJSON
import CDStoreModel

/// The indexes Core Data creates (coredata-format.md §1.8), checked against the `sqlite_master` of the corpus
/// stores: per table, in table order, first (legacy style) the `indexed` attributes, then one index per to-one
/// FK column in column order, then `Z_ENT` when the table holds more than one entity, then uniqueness
/// constraints, fetch indexes and `indexed` attributes (current style); a join table gets the reverse index.
extension StoreLayout {
    static func indexes(model: ManagedObjectModel, entities: [EntityLayout], tables: [TableLayout],
                        style: IndexStyle) -> [IndexLayout] {
        var indexes: [IndexLayout] = []
        let membersByTable = Dictionary(grouping: entities, by: \.table)
        for table in tables {
            if table.primaryKey.isEmpty {
                let members = membersByTable[table.name] ?? []
                indexes += entityTableIndexes(table, members: members, model: model, style: style)
            } else if style == .current, table.primaryKey.count == 2 {
                // `<JOIN>_<COL2>_INDEX ON <JOIN> (COL2, COL1)`: lookups from the second side.
                let (first, second) = (table.primaryKey[0], table.primaryKey[1])
                indexes.append(IndexLayout(name: "\(table.name)_\(second)_INDEX", table: table.name,
                                           columns: [second, first], isUnique: false))
            }
        }
        return indexes
    }

    private static func entityTableIndexes(_ table: TableLayout, members: [EntityLayout], model: ManagedObjectModel,
                                           style: IndexStyle) -> [IndexLayout] {
        var result: [IndexLayout] = []
        let columnOrder = table.columns.map(\.name)
        func simple(_ column: String) -> IndexLayout {
            IndexLayout(name: "\(table.name)_\(column)_INDEX", table: table.name, columns: [column], isUnique: false)
        }
        let modelEntities = members.map { model.entity(named: $0.name) }
        if style == .legacy {
            // Before fetch indexes existed, an `indexed` attribute got a plain `<TABLE>_<COLUMN>_INDEX`.
            var indexed: Set<String> = []
            for (member, entity) in zip(members, modelEntities) {
                for attribute in entity?.attributes ?? [] where attribute.isIndexed {
                    if let column = member.attributeColumns[attribute.name] { indexed.insert(column) }
                }
            }
            result += columnOrder.filter(indexed.contains).map(simple)
        }
        // Every to-one FK column, hidden to-ones included; entity-key and Z_FOK_ columns get none.
        var foreignKeys: Set<String> = []
        for member in members {
            for toOne in member.toOnes.values { foreignKeys.insert(toOne.foreignKey) }
            for toOne in member.hiddenToOnes.values { foreignKeys.insert(toOne.foreignKey) }
        }
        result += columnOrder.filter(foreignKeys.contains).map(simple)
        if members.count > 1 { result.append(simple("Z_ENT")) }
        guard style == .current else { return result }
        for (member, entity) in zip(members, modelEntities) {
            guard let entity else { continue }
            result += propertyIndexes(of: entity, layout: member, table: table.name)
        }
        return result
    }

    /// Uniqueness constraints, fetch indexes and `indexed` attributes an entity declares itself.
    private static func propertyIndexes(of entity: Entity, layout: EntityLayout, table: String) -> [IndexLayout] {
        var result: [IndexLayout] = []
        func column(_ property: String) -> String? {
            layout.attributeColumns[property] ?? layout.toOnes[property]?.foreignKey
        }
        for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
            // `Z_<Entity>_UNIQUE_<p1>_<p2>…`, properties sorted by name.
            let names = constraint.sorted { Array($0.utf16).lexicographicallyPrecedes($1.utf16) }
            let columns = names.compactMap(column)
            guard columns.count == names.count else { continue }
            result.append(IndexLayout(name: "Z_\(entity.name)_UNIQUE_" + names.joined(separator: "_"), table: table,
                                      columns: columns.map { "\($0) COLLATE BINARY ASC" }, isUnique: true))
        }
        for fetchIndex in entity.fetchIndexes where !fetchIndex.elements.isEmpty {
            // Only B-tree indexes over properties; R-tree and expression elements are not laid out.
            var terms: [String] = []
            for element in fetchIndex.elements {
                guard element.type == "Binary", let property = element.property, let name = column(property) else {
                    break
                }
                terms.append("\(name) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")")
            }
            guard terms.count == fetchIndex.elements.count else { continue }
            result.append(IndexLayout(name: "Z_\(entity.name)_\(fetchIndex.name)", table: table, columns: terms,
                                      isUnique: false))
        }
        for attribute in entity.attributes where attribute.isIndexed {
            guard let name = layout.attributeColumns[attribute.name] else { continue }
            result.append(IndexLayout(name: "Z_\(entity.name)_\(attribute.name)", table: table,
                                      columns: ["\(name) COLLATE BINARY ASC"], isUnique: false))
        }
        return result
    }
}
