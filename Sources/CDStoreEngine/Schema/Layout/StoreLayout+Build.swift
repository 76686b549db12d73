import CDStoreJSON
import CDStoreModel

extension StoreLayout {
    /// Settings of the layout computation that the model alone does not give.
    package struct Options: Sendable {
        /// For each entity name, the names of its properties (inherited ones included) in the order of the
        /// compiled model's property dictionary (`NSProperties` of the keyed archive, coredata-format.md §4.4).
        ///
        /// That order seeds the legacy L-tables that decide which side of a same-entity many-to-many names the
        /// join table (§1.6 step 3). A model read from Xcode XML has no such order; leave this empty and name
        /// order is used, which gives the same result on every real store checked. Names missing from a list
        /// follow it in name order; unknown names are ignored.
        package var propertyOrder: [String: [String]]
        /// Which generation of Core Data's index names to produce (§1.8).
        package var indexStyle: IndexStyle
        /// Added to every entity number: 0 for an ordinary model, 16000 for ancillary models (§1.2).
        package var entityNumberOffset: Int

        /// Options for a model read from XML, indexed as current Core Data does.
        package init(propertyOrder: [String: [String]] = [:], indexStyle: IndexStyle = .current,
                    entityNumberOffset: Int = 0) {
            self.propertyOrder = propertyOrder
            self.indexStyle = indexStyle
            self.entityNumberOffset = entityNumberOffset
        }
    }

    /// Generations of Core Data's index set (§1.8).
    package enum IndexStyle: Sendable, Equatable {
        /// Current Core Data (seen from framework 637 on): join tables get `<JOIN>_<COL2>_INDEX`, attributes
        /// marked `indexed` get `Z_<Entity>_<attr>`, uniqueness constraints and fetch indexes their indexes.
        case current
        /// iOS 6/7-era stores (framework 419, 519): attributes marked `indexed` get `<TABLE>_<COLUMN>_INDEX`,
        /// join tables only their primary key.
        case legacy

        /// The style of a store written by `NSPersistenceFrameworkVersion` `version`. The switch lies between
        /// 519 (legacy) and 637 (current) in the samples; 600 is a guess.
        package static func forFrameworkVersion(_ version: Int) -> IndexStyle {
            version < 600 ? .legacy : .current
        }
    }

    /// Computes the layout Core Data gives `model` in a new store (coredata-format.md §1.3–1.8).
    package init(model: ManagedObjectModel) {
        self.init(model: model, options: Options())
    }

    /// Computes the layout Core Data gives `model` in a new store, with `options`.
    package init(model: ManagedObjectModel, options: Options) {
        let builder = LayoutBuilder(model: model, options: options)
        builder.runPass1()
        builder.runPass2()
        let entities = builder.nodes.map { builder.entityLayout(of: $0) }
        let tables = builder.tableLayouts()
        let indexes = Self.indexes(model: model, entities: entities, tables: tables, style: options.indexStyle)
        self.init(entities: entities, tables: tables, indexes: indexes)
    }

    /// Core Data's declared SQL type for an attribute type (coredata-format.md §1.5). Types that never have a
    /// column (Undefined, ObjectID, Composite) map to a fallback and are not given columns by the layout.
    package static func sqlType(_ type: AttributeType) -> String {
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

extension LayoutBuilder {
    /// The public description of one entity after both passes.
    func entityLayout(of node: EntityNode) -> EntityLayout {
        var attributeColumns: [String: String] = [:]
        var toOnes: [String: ToOneLayout] = [:]
        var hiddenToOnes: [String: ToOneLayout] = [:]
        var toManys: [String: ToManyLayout] = [:]
        for (key, property) in node.orderedSQL where key == property.name {
            switch property.kind {
            case .fixedKey:
                break
            case .attribute:
                attributeColumns[property.name] = property.column
            case .toOne:
                guard let column = property.column else { continue }
                let layout = ToOneLayout(destination: property.destination?.name ?? "", foreignKey: column,
                                         entityKey: property.entityKeyColumn, orderKey: property.orderKeyColumn)
                if property.isHidden { hiddenToOnes[property.name] = layout } else { toOnes[property.name] = layout }
            case .toMany:
                guard let inverse = property.inverse, inverse.kind == .toOne, let column = inverse.column,
                      let owner = inverse.entity else { continue }
                toManys[property.name] = .foreignKey(table: tableName(of: owner), foreignKey: column,
                                                     entityKey: inverse.entityKeyColumn,
                                                     orderKey: inverse.orderKeyColumn)
            case .manyToMany:
                if let layout = joinLayout(of: property) { toManys[property.name] = layout }
            }
        }
        let n = node.numbered
        return EntityLayout(name: n.entity.name, number: n.number, superNumber: n.superNumber,
                            subtreeMax: n.subtreeMax, rootName: n.rootName, table: tableName(of: node),
                            isAbstract: n.entity.isAbstract, attributeColumns: attributeColumns, toOnes: toOnes,
                            toManys: toManys, hiddenToOnes: hiddenToOnes)
    }

    /// A many-to-many side's join-table storage (§1.6 "Join table"). The side's own column (`Z_<a>`+UPPER(inverse))
    /// holds the Z_PK of the object that has the relationship; the inverse's column the related object's; the
    /// related object's position in this (ordered) relationship is the inverse's `Z_FOK_` column.
    private func joinLayout(of property: SQLProperty) -> ToManyLayout? {
        guard let inverse = property.inverse, let table = property.table ?? inverse.table,
              let source = property.column else { return nil }
        if inverse === property {
            // Reflexive: `Z_<n>R` and literally `REFLEXIVE` (+ `Z_FOK_<n>R`, `FOK_REFLEXIVE`). By analogy with the
            // two-sided case `FOK_REFLEXIVE` orders the REFLEXIVE object in the other's list [UNCERTAIN: no sample].
            return .joinTable(table: table, sourceColumn: source, destinationColumn: "REFLEXIVE",
                              orderColumn: property.joinOrderColumn == nil ? nil : "FOK_REFLEXIVE")
        }
        guard let destination = inverse.column else { return nil }
        return .joinTable(table: table, sourceColumn: source, destinationColumn: destination,
                          orderColumn: inverse.joinOrderColumn)
    }

    /// Entity tables in root `Z_ENT` order, each followed by the join tables its hierarchy names.
    func tableLayouts() -> [TableLayout] {
        var joinTables: [String: [(sequence: Int, table: TableLayout)]] = [:]
        var seen: Set<ObjectIdentifier> = []
        for node in nodes {
            for (_, property) in node.orderedSQL where property.kind == .manyToMany {
                guard !seen.contains(ObjectIdentifier(property)) else { continue }
                guard let own = property.table != nil ? property : property.inverse, let table = own.table,
                      let inverse = own.inverse, let ownColumn = own.column, let entity = own.entity else { continue }
                seen.insert(ObjectIdentifier(own))
                seen.insert(ObjectIdentifier(inverse))
                var names: [String]
                if own === inverse {
                    names = [ownColumn, "REFLEXIVE"]
                    if let order = own.joinOrderColumn { names += [order, "FOK_REFLEXIVE"] }
                } else {
                    guard let inverseColumn = inverse.column else { continue }
                    names = [ownColumn, inverseColumn] + [own.joinOrderColumn, inverse.joinOrderColumn].compactMap { $0 }
                }
                let layout = TableLayout(name: table,
                                         columns: names.map { TableLayout.Column(name: $0, type: "INTEGER") },
                                         primaryKey: Array(names.prefix(2)))
                joinTables[entity.numbered.rootName, default: []].append((own.tableSequence, layout))
            }
        }
        var tables: [TableLayout] = []
        for node in nodes where node.parent == nil {
            let fixed = ["Z_PK", "Z_ENT", "Z_OPT"].map { TableLayout.Column(name: $0, type: "INTEGER") }
            let columns = Self.orderedColumns(columnsByRoot[node.name] ?? [])
            tables.append(TableLayout(name: tableName(of: node), columns: fixed + columns, primaryKey: []))
            let joins = (joinTables[node.name] ?? []).sorted { $0.sequence < $1.sequence }
            tables += joins.map(\.table)
        }
        return tables
    }

    /// Column order after `Z_PK, Z_ENT, Z_OPT` (§1.7, cosmetic): by type rank — INTEGER < TIMESTAMP/FLOAT <
    /// DECIMAL < VARCHAR < BLOB (DECIMAL after TIMESTAMP/FLOAT as in every sample) —, then by owning entity in
    /// `Z_ENT` order; within an entity's INTEGER columns its attributes by name, then its relationships' columns
    /// by relationship name (FK, entity key, `Z_FOK_`), then its hidden to-ones.
    static func orderedColumns(_ records: [ColumnRecord]) -> [TableLayout.Column] {
        func rank(_ type: String) -> Int {
            switch type {
            case "INTEGER": 0
            case "TIMESTAMP", "FLOAT": 1
            case "DECIMAL": 2
            case "VARCHAR": 3
            case "BLOB": 4
            default: 5
            }
        }
        let sorted = records.enumerated().sorted { x, y in
            let a = x.element, b = y.element
            if rank(a.type) != rank(b.type) { return rank(a.type) < rank(b.type) }
            if a.owner != b.owner { return a.owner < b.owner }
            if a.group != b.group { return a.group.rawValue < b.group.rawValue }
            if a.sortName != b.sortName { return utf16Precedes(a.sortName, b.sortName) }
            if a.sequence != b.sequence { return a.sequence < b.sequence }
            return x.offset < y.offset
        }
        return sorted.map { TableLayout.Column(name: $0.element.name, type: $0.element.type) }
    }
}
