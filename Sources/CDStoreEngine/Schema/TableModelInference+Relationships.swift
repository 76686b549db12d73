import CDStoreJSON
import CDStoreModel
internal import GRDB

/// The relationships that span tables, added once every entity table's own names are taken: to-manys without
/// inverse (hidden to-ones), the ordered inverses of to-ones with a `Z_FOK_` column, and join tables.
extension TableInference {
    func addHiddenToManys() {
        for hidden in pendingHiddenToManys {
            let name = claim(hidden.name, in: hidden.source)
            var relationship = Relationship(name: name, destination: hidden.owner.name, isToMany: true)
            relationship.isOrdered = hidden.columns.orderKey != nil
            relationship.isOptional = true
            hidden.source.relationships.append(relationship)
            hidden.source.toManys[name] = .foreignKey(table: hidden.owner.table, foreignKey: hidden.columns.foreignKey,
                                                      entityKey: hidden.columns.entityKey, orderKey: hidden.columns.orderKey)
            hidden.owner.hiddenToOnes["\(hidden.source.number)\(name)"] = hidden.columns
        }
    }

    func addOrderedInverses() {
        for pending in pendingOrderedInverses {
            let name = claim(ColumnNaming.upper(pending.source.name) + "_" + pending.name, in: pending.destination)
            var inverse = Relationship(name: name, destination: pending.source.name, inverseName: pending.name, isToMany: true)
            inverse.isOrdered = true
            inverse.isOptional = true
            pending.destination.relationships.append(inverse)
            pending.destination.toManys[name] = .foreignKey(table: pending.source.table, foreignKey: pending.columns.foreignKey,
                                                            entityKey: pending.columns.entityKey,
                                                            orderKey: pending.columns.orderKey)
            if let index = pending.source.relationships.firstIndex(where: { $0.name == pending.name }) {
                pending.source.relationships[index].inverseName = name
                pending.source.relationships[index].inverseEntity = pending.destination.name
            }
        }
    }

    /// Every join table `Z_<a><R>` whose entities are in the model (coredata-format.md §1.6 "Join table").
    func readJoinTables() throws {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' ORDER BY name")
        for table in names where NameRules.isIdentifier(table) {
            guard let (number, relationship) = Self.joinParts(table), let declaring = byNumber[number] else { continue }
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
            let columns = info.map { (name: $0["name"] as String, type: ($0["type"] as String?) ?? "", key: $0["pk"] as Int? ?? 0) }
            guard columns.allSatisfy({ NameRules.isIdentifier($0.name) }) else { continue }
            let keyed = columns.filter { $0.key > 0 }.sorted { $0.key < $1.key }.map(\.name)
            let layout = TableLayout(name: table, columns: columns.map { .init(name: $0.name, type: $0.type) },
                                     primaryKey: keyed)
            let added: Bool
            if columns.contains(where: { $0.name == "REFLEXIVE" }) {
                added = addReflexive(table, relationship, on: declaring, columns: columns.map(\.name))
            } else {
                // The two key columns in `CREATE TABLE` order: the declaring side's first (§1.6).
                let keys = columns.map(\.name).filter { !$0.hasPrefix("Z_FOK_") }
                added = keys.count == 2 && addManyToMany(table, relationship, on: declaring, keys: keys,
                                                         orders: columns.map(\.name).filter { $0.hasPrefix("Z_FOK_") })
            }
            if added { joinTableLayouts.append((declaring.number, layout)) }
        }
    }

    private func addReflexive(_ table: String, _ relationshipName: String, on entity: InferredNode, columns: [String]) -> Bool {
        guard let own = columns.first(where: { $0 != "REFLEXIVE" && $0 != "FOK_REFLEXIVE" && !$0.hasPrefix("Z_FOK_") })
        else { return false }
        let name = claim(relationshipName, in: entity)
        var relationship = Relationship(name: name, destination: entity.name, inverseName: name, isToMany: true)
        relationship.isOrdered = columns.contains("FOK_REFLEXIVE")
        relationship.isOptional = true
        entity.relationships.append(relationship)
        entity.toManys[name] = .joinTable(table: table, sourceColumn: own, destinationColumn: "REFLEXIVE",
                                          orderColumn: relationship.isOrdered ? "FOK_REFLEXIVE" : nil)
        return true
    }

    /// `R` (on entity a, named by the table) and its inverse `S` (on entity b). `S`'s column `Z_<b><R>` is the key
    /// column that repeats `R`; the other, `Z_<a><S>`, holds a's keys and names `S`. When both or neither repeat
    /// `R`, `CREATE TABLE` order decides. `Z_FOK_<b>…` orders `R`, `Z_FOK_<a>…` orders `S`.
    private func addManyToMany(_ table: String, _ r: String, on a: InferredNode, keys: [String], orders: [String]) -> Bool {
        let parts = keys.compactMap(Self.joinParts)
        guard parts.count == 2 else { return false }
        let repeatsR = parts.map { Self.sameName($0.1, r) }
        let sIndex = repeatsR[0] != repeatsR[1] ? (repeatsR[1] ? 1 : 0) : 1
        let rColumn = keys[1 - sIndex], sColumn = keys[sIndex]
        guard let b = byNumber[parts[sIndex].0] else { return false }
        let s = parts[1 - sIndex].1
        var rOrder: String?, sOrder: String?
        for order in orders {
            guard let (number, rest) = Self.joinParts("Z_" + order.dropFirst(6)) else { continue }
            let ordersR = a.number != b.number ? number == b.number : Self.sameName(rest, r)
            if ordersR { rOrder = order } else if number == a.number { sOrder = order }
        }
        let rName = claim(r, in: a)
        let sName = claim(s, in: b)
        var forward = Relationship(name: rName, destination: b.name, inverseName: sName, isToMany: true)
        forward.isOrdered = rOrder != nil
        forward.isOptional = true
        var backward = Relationship(name: sName, destination: a.name, inverseName: rName, isToMany: true)
        backward.isOrdered = sOrder != nil
        backward.isOptional = true
        a.relationships.append(forward)
        b.relationships.append(backward)
        a.toManys[rName] = .joinTable(table: table, sourceColumn: rColumn, destinationColumn: sColumn, orderColumn: rOrder)
        b.toManys[sName] = .joinTable(table: table, sourceColumn: sColumn, destinationColumn: rColumn, orderColumn: sOrder)
        return true
    }

    /// `Z_<n><REST>` → (n, `REST`), for join tables and their columns.
    static func joinParts(_ name: String) -> (Int, String)? {
        guard name.hasPrefix("Z_") else { return nil }
        let digits = name.dropFirst(2).prefix { $0.isASCII && $0.isNumber }
        let rest = name.dropFirst(2 + digits.count)
        guard !digits.isEmpty, !rest.isEmpty, let number = Int(digits) else { return nil }
        return (number, String(rest))
    }

    /// Whether `column` is `name`, or `name` with the digits Core Data's name generator appends.
    static func sameName(_ column: String, _ name: String) -> Bool {
        column == name || (column.hasPrefix(name) && column.dropFirst(name.count).allSatisfy { $0.isASCII && $0.isNumber })
    }
}
