import CDStoreJSON
import CDStoreModel
internal import GRDB

/// A hidden to-one column `Z<n><NAME>`: to-many `NAME` of entity n without inverse, read once every table's
/// own names are taken.
struct HiddenToMany {
    var source: InferredNode
    var name: String
    var owner: InferredNode
    var columns: ToOneLayout
}

/// A to-one with a `Z_FOK_` column, whose inverse (an ordered to-many on the destination) is added last.
struct OrderedInverse {
    var source: InferredNode
    var name: String
    var destination: InferredNode
    var columns: ToOneLayout
}

/// Reading one entity table: which columns are attributes, foreign keys and their companions, and which
/// entity of the hierarchy owns each (see ``InferredModel``).
extension TableInference {
    func readColumns(of root: InferredNode) throws {
        let table = root.table
        let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
        let all = info.map { (name: $0["name"] as String, type: ($0["type"] as String?) ?? "") }
        entityTableLayouts[table] = TableLayout(name: table, columns: all.map { .init(name: $0.name, type: $0.type) },
                                                primaryKey: [])
        let columns = all.filter { !["Z_PK", "Z_ENT", "Z_OPT"].contains($0.name) && NameRules.isIdentifier($0.name) }
        let integers = Set(columns.filter { $0.type.uppercased() == "INTEGER" }.map(\.name))
        let indexes = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?",
                                              arguments: [table]))
        var entityKeys: [String: (column: String, number: Int)] = [:]
        var orderKeys: [String: String] = [:]
        for column in integers {
            if let (number, base) = Self.entityKeyParts(column), integers.contains(base), byNumber[number] != nil {
                entityKeys[base] = (column, number)
            }
            if let base = Self.orderKeyBase(column), integers.contains(base) { orderKeys[base] = column }
        }
        let companions = Set(entityKeys.values.map(\.column)).union(orderKeys.values)
        let owners = try owners(of: columns.map(\.name), in: root)
        var consumed = Set<String>()
        for column in columns where integers.contains(column.name) && !companions.contains(column.name) {
            let name = column.name
            let layout = ToOneLayout(destination: "", foreignKey: name, entityKey: entityKeys[name]?.column,
                                     orderKey: orderKeys[name])
            let owner = owners[name] ?? root
            if let (number, relationship) = Self.hiddenParts(name), let source = byNumber[number] {
                var columns = layout
                columns.destination = source.name
                pendingHiddenToManys.append(HiddenToMany(source: source, name: relationship, owner: owner, columns: columns))
            } else if let key = entityKeys[name], let destination = byNumber[key.number] {
                addToOne(name, owner: owner, destination: destination, layout: layout)
            } else if orderKeys[name] != nil || indexes.contains("\(table)_\(name)_INDEX") {
                guard let destination = try destination(of: name, in: root) else {
                    undetermined.append("\(table).\(name)")
                    continue
                }
                addToOne(name, owner: owner, destination: destination, layout: layout)
            } else {
                continue
            }
            consumed.formUnion([name, layout.entityKey, layout.orderKey].compactMap { $0 })
        }
        for column in columns where !consumed.contains(column.name) {
            let owner = owners[column.name] ?? root
            let name = claim(Self.propertyName(column.name), in: owner)
            owner.attributes.append(Attribute(name: name, type: Self.attributeType(declared: column.type), isOptional: true))
            owner.attributeColumns[name] = column.name
        }
    }

    private func addToOne(_ column: String, owner: InferredNode, destination: InferredNode, layout: ToOneLayout) {
        let name = claim(Self.propertyName(column), in: owner)
        var relationship = Relationship(name: name, destination: destination.name)
        relationship.isOptional = true
        owner.relationships.append(relationship)
        var columns = layout
        columns.destination = destination.name
        owner.toOnes[name] = columns
        if columns.orderKey != nil {
            pendingOrderedInverses.append(OrderedInverse(source: owner, name: name, destination: destination, columns: columns))
        }
    }

    /// The destination of a foreign key without entity-key companion: an entity without sub-entities, named
    /// like the column or the only one whose objects hold every value (see ``InferredModel``).
    private func destination(of column: String, in root: InferredNode) throws -> InferredNode? {
        let leaves = nodes.filter(\.children.isEmpty)
        let hint = Self.propertyName(column)
        var named = leaves.filter { ColumnNaming.upper($0.name) == hint }
        if named.isEmpty {
            let trimmed = String(hint.reversed().drop { $0.isNumber }.reversed())
            named = leaves.filter { ColumnNaming.upper($0.name) == trimmed }
        }
        // A name that says the destination settles it: values that point nowhere are dangling references, which
        // `verify` reports, not a reason to read the column as a number.
        if named.count == 1 { return named[0] }
        guard try Int.fetchOne(db, sql: "SELECT COUNT(\(column)) FROM \(root.table)") ?? 0 > 0 else { return nil }
        func holdsEveryValue(_ entity: InferredNode) throws -> Bool {
            // Core Data reads a table of one entity without looking at Z_ENT, and so does this check.
            let own = entity.root.children.isEmpty ? "" : " AND d.Z_ENT = \(entity.number)"
            let missing = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM \(root.table) s WHERE s.\(column) IS NOT NULL AND NOT EXISTS \
                (SELECT 1 FROM \(entity.table) d WHERE d.Z_PK = s.\(column)\(own))
                """) ?? 1
            return missing == 0
        }
        // Only tables whose largest key reaches the column's largest value can hold every value; a second fit
        // settles that there is no answer.
        guard let largest = try Int64.fetchOne(db, sql: "SELECT MAX(\(column)) FROM \(root.table)") else { return nil }
        var fitting: [InferredNode] = []
        for entity in leaves where try largestKey(of: entity.table) >= largest {
            if try holdsEveryValue(entity) { fitting.append(entity) }
            if fitting.count > 1 { return nil }
        }
        return fitting.first
    }

    private func largestKey(of table: String) throws -> Int64 {
        if let known = largestKeys[table] { return known }
        let key = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table)") ?? 0
        largestKeys[table] = key
        return key
    }

    /// The entity of `root`'s hierarchy that owns each column: the nearest common ancestor of the entities whose
    /// rows hold a value in it (missing: the root).
    private func owners(of columns: [String], in root: InferredNode) throws -> [String: InferredNode] {
        guard !root.children.isEmpty, !columns.isEmpty else { return [:] }
        let counts = columns.map { "COUNT(\($0))" }.joined(separator: ", ")
        var holders: [String: [InferredNode]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, \(counts) FROM \(root.table) GROUP BY Z_ENT") {
            guard let number: Int = row[0], let node = byNumber[number], node.root === root else { continue }
            for (offset, column) in columns.enumerated() where (row[offset + 1] as Int? ?? 0) > 0 {
                holders[column, default: []].append(node)
            }
        }
        return holders.compactMapValues(Self.nearestCommonAncestor)
    }

    static func nearestCommonAncestor(_ nodes: [InferredNode]) -> InferredNode? {
        guard let first = nodes.first else { return nil }
        return first.lineage.first { candidate in nodes.allSatisfy { $0.lineage.contains { $0 === candidate } } }
    }

    // MARK: Names

    /// A column's property name: without its leading `Z`.
    static func propertyName(_ column: String) -> String {
        column.hasPrefix("Z") && column.count > 1 ? String(column.dropFirst()) : column
    }

    /// `Z<n>_<REST>` → (n, `Z<REST>`): an entity-key column and the foreign key it goes with.
    static func entityKeyParts(_ column: String) -> (Int, String)? {
        guard column.hasPrefix("Z") else { return nil }
        let digits = column.dropFirst().prefix { $0.isASCII && $0.isNumber }
        let rest = column.dropFirst(1 + digits.count)
        guard !digits.isEmpty, rest.hasPrefix("_"), rest.count > 1, let number = Int(digits) else { return nil }
        return (number, "Z" + rest.dropFirst())
    }

    /// `Z_FOK_<REST>` → `Z<REST>`: an order column and the foreign key it goes with.
    static func orderKeyBase(_ column: String) -> String? {
        guard column.hasPrefix("Z_FOK_"), column.count > 6 else { return nil }
        return "Z" + column.dropFirst(6)
    }

    /// `Z<n><NAME>` (a letter after the digits) → (n, `NAME`): a hidden to-one, i.e. to-many `NAME` of entity n.
    /// Attribute and to-one columns never have a digit after the `Z` (names begin with a letter).
    static func hiddenParts(_ column: String) -> (Int, String)? {
        guard column.hasPrefix("Z") else { return nil }
        let digits = column.dropFirst().prefix { $0.isASCII && $0.isNumber }
        let rest = column.dropFirst(1 + digits.count)
        guard !digits.isEmpty, let first = rest.first, first != "_", let number = Int(digits) else { return nil }
        return (number, String(rest))
    }

    /// The attribute type of a declared column type (coredata-format.md §1.5, then SQLite's affinity rules).
    static func attributeType(declared: String) -> AttributeType {
        let type = declared.uppercased()
        switch type {
        case "INTEGER": return .integer64
        case "FLOAT": return .double
        case "DECIMAL": return .decimal
        case "VARCHAR": return .string
        case "TIMESTAMP": return .date
        case "BLOB", "": return .binary
        default: break
        }
        if type.contains("INT") { return .integer64 }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return .string }
        if type.contains("BLOB") { return .binary }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .double }
        return .decimal
    }
}
