import CDStoreModel

extension StoreLayout {
    /// Computes the layout Core Data gives `model`.
    ///
    /// PROVISIONAL: numbering is Core Data's, columns are `Z` + upper-cased names without uniquing, and
    /// relationships are laid out naively. To be replaced by the full algorithm.
    public init(model: ManagedObjectModel) {
        var entities: [EntityLayout] = []
        var tables: [TableLayout] = []
        let roots = model.entities.filter { model.parent(of: $0) == nil }.sorted { $0.name.lowercased() < $1.name.lowercased() }
        var next = 1
        for root in roots {
            let table = "Z" + root.name.uppercased()
            var columns = [TableLayout.Column(name: "Z_PK", type: "INTEGER"), .init(name: "Z_ENT", type: "INTEGER"),
                           .init(name: "Z_OPT", type: "INTEGER")]
            for entity in model.subtree(of: root) {
                let number = next
                next += 1
                let subtreeCount = model.subtree(of: entity).count
                var attributeColumns: [String: String] = [:]
                for attribute in model.attributes(of: entity) where !attribute.isTransient {
                    let column = "Z" + attribute.name.uppercased()
                    attributeColumns[attribute.name] = column
                    if !columns.contains(where: { $0.name == column }) {
                        columns.append(.init(name: column, type: Self.sqlType(attribute.type)))
                    }
                }
                entities.append(EntityLayout(
                    name: entity.name, number: number,
                    superNumber: entity.parentName.flatMap { p in entities.first { $0.name == p }?.number } ?? 0,
                    subtreeMax: number + subtreeCount - 1, rootName: root.name, table: table,
                    isAbstract: entity.isAbstract, attributeColumns: attributeColumns, toOnes: [:], toManys: [:]))
            }
            tables.append(TableLayout(name: table, columns: columns, primaryKey: []))
        }
        self.init(entities: entities, tables: tables, indexes: [])
    }

    /// Core Data's declared SQL type for an attribute type (coredata-format.md §1.5).
    public static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .string, .uri, .objectID: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binary, .uuid, .transformable: "BLOB"
        case .undefined, .composite: "BLOB"
        }
    }
}
