import CDStoreJSON
import CDStoreModel

/// One stored SQL property of an entity while the layout is built: Core Data's `NSSQLProperty` family.
///
/// Objects are shared: a sub-entity's table of properties starts as a copy of its parent's, so an inherited
/// relationship is the same object in both and links made in pass 2 are seen by the whole subtree.
final class SQLProperty {
    enum Kind { case fixedKey, attribute, toOne, toMany, manyToMany }

    let kind: Kind
    /// The property name; `<n><r>` for a hidden to-one.
    let name: String
    /// The declaring entity (for a hidden to-one: the entity whose table holds it).
    let entity: EntityNode?
    /// The declared destination of a relationship.
    let destination: EntityNode?
    /// The model relationship; nil for attributes, fixed keys and hidden to-ones.
    let relationship: Relationship?
    /// Whether a to-many keeps order (for a hidden to-one: whether its to-many does).
    let isOrdered: Bool

    /// Attribute column, to-one FK column, or a many-to-many side's join-table column.
    var column: String?
    /// Attribute SQL type.
    var sqlType: String?
    /// To-one entity-key column `Z<n>_…`.
    var entityKeyColumn: String?
    /// To-one `Z_FOK_` column and its key `_Z_FOK_…`.
    var orderKeyColumn: String?
    /// Many-to-many side's `Z_FOK_<n>…` column in the join table.
    var joinOrderColumn: String?
    /// Keys of a to-one's own columns (`_` + column) in the legacy tables.
    var keys: [String] = []
    /// The join table a many-to-many side names.
    var table: String?
    /// Sequence number of the join table, in the order tables were named.
    var tableSequence = 0
    /// Whether this is a hidden to-one made for a to-many without inverse.
    var isHidden = false
    /// The linked inverse (pass 2). Every property is kept alive by ``LayoutBuilder/allProperties``.
    weak var inverse: SQLProperty?

    init(kind: Kind, name: String, entity: EntityNode? = nil, destination: EntityNode? = nil,
         relationship: Relationship? = nil, isOrdered: Bool = false) {
        self.kind = kind
        self.name = name
        self.entity = entity
        self.destination = destination
        self.relationship = relationship
        self.isOrdered = isOrdered
    }

    var isRelationship: Bool { kind == .toOne || kind == .toMany || kind == .manyToMany }

    /// The key of the `Z_FOK_` column in the legacy tables.
    var orderKey: String? { orderKeyColumn.map { "_" + $0 } }
}

/// One entity while the layout is built: its numbering, its SQL properties by key (Core Data's
/// `_propertiesByName`, in insertion order), its L-table and its hierarchy's name generator.
final class EntityNode {
    let numbered: EntityNumbering.Numbered
    /// The entity's attributes and relationships, inherited ones included, in property-dictionary order.
    let properties: [ModelProperty]
    weak var parent: EntityNode?
    var subentities: [EntityNode] = []
    private(set) var sql: [String: SQLProperty] = [:]
    private(set) var sqlOrder: [String] = []
    var legacyTable = LTable()
    var generator = ColumnNameGenerator()

    init(numbered: EntityNumbering.Numbered, properties: [ModelProperty]) {
        self.numbered = numbered
        self.properties = properties
    }

    var name: String { numbered.entity.name }
    var number: Int { numbered.number }

    /// Records `property` under `key` (replacing keeps the original insertion place, as a dictionary would).
    func set(_ key: String, _ property: SQLProperty) {
        if sql[key] == nil { sqlOrder.append(key) }
        sql[key] = property
    }

    /// Starts this entity's tables as a copy of its parent's.
    func inherit(from parent: EntityNode) {
        sql = parent.sql
        sqlOrder = parent.sqlOrder
        generator = parent.generator
        for key in parent.legacyTable.keys { legacyTable.add(key) }
    }

    /// The SQL properties in insertion order.
    var orderedSQL: [(key: String, property: SQLProperty)] {
        sqlOrder.map { ($0, sql[$0]!) }
    }
}

/// An attribute or relationship of an entity, own or inherited, as pass 1 reads it.
enum ModelProperty {
    case attribute(Attribute)
    case relationship(Relationship)

    var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        }
    }
}

/// A column of an entity table with what decides its place in `CREATE TABLE` (§1.7).
struct ColumnRecord {
    enum Group: Int { case attribute = 0, relationship = 1, hidden = 2 }
    var name: String
    var type: String
    /// Number of the entity that owns the column.
    var owner: Int
    var group: Group
    /// Attribute or relationship name.
    var sortName: String
    /// FK 0, entity key 1, `Z_FOK_` 2.
    var sequence: Int
}

/// Builds a ``StoreLayout``: the state shared by pass 1 and pass 2 (coredata-format.md §1.5, §1.6).
final class LayoutBuilder {
    let model: ManagedObjectModel
    let numbering: EntityNumbering
    /// Entities in `Z_ENT` order.
    private(set) var nodes: [EntityNode] = []
    private var nodeByName: [String: EntityNode] = [:]
    /// Every SQL property made, to keep them alive (links between them are weak).
    var allProperties: [SQLProperty] = []
    /// Entity-table columns by root entity name, in creation order.
    var columnsByRoot: [String: [ColumnRecord]] = [:]
    /// Counter for join-table naming order.
    var tablesNamed = 0

    init(model: ManagedObjectModel, options: StoreLayout.Options) {
        self.model = model
        numbering = EntityNumbering(model: model, offset: options.entityNumberOffset)
        for numbered in numbering.entities {
            let node = EntityNode(numbered: numbered,
                                  properties: Self.propertyDictionary(of: numbered.entity, in: model,
                                                                      order: options.propertyOrder[numbered.entity.name]))
            nodes.append(node)
            nodeByName[node.name] = node
        }
        for node in nodes {
            if node.numbered.superNumber != 0 {
                node.parent = nodes[node.numbered.superNumber - numbering.entities[0].number]
            }
            node.subentities = node.numbered.subentityNames.compactMap { nodeByName[$0] }
        }
    }

    func node(named name: String) -> EntityNode? { nodeByName[name] }

    /// The table of `node`'s hierarchy: `Z` + upper(root name) (§1.4).
    func tableName(of node: EntityNode) -> String {
        "Z" + ColumnNaming.upper(node.numbered.rootName)
    }

    /// Records a column of `node`'s table.
    func addColumn(_ record: ColumnRecord, to node: EntityNode) {
        columnsByRoot[node.numbered.rootName, default: []].append(record)
    }

    func make(_ property: SQLProperty) -> SQLProperty {
        allProperties.append(property)
        return property
    }

    /// The entity's "property dictionary": all its attributes and relationships (inherited and transient ones
    /// included; fetched properties have no part) in the order of the archive's `NSProperties` when known, else
    /// by name — §1.6 step 3 says name order gives the same result on every real store checked.
    static func propertyDictionary(of entity: Entity, in model: ManagedObjectModel,
                                   order: [String]?) -> [ModelProperty] {
        var byName: [String: ModelProperty] = [:]
        for attribute in model.attributes(of: entity) { byName[attribute.name] = .attribute(attribute) }
        for relationship in model.relationships(of: entity) { byName[relationship.name] = .relationship(relationship) }
        var names: [String] = []
        var seen: Set<String> = []
        for name in order ?? [] where byName[name] != nil && seen.insert(name).inserted { names.append(name) }
        names += byName.keys.filter { !seen.contains($0) }.sorted(by: utf16Precedes)
        return names.map { byName[$0]! }
    }

    /// Ordering by UTF-16 code units (`by_name` of §1.5: "by name (UTF-16 code-unit order)").
    static func utf16Precedes(_ a: String, _ b: String) -> Bool {
        Array(a.utf16).lexicographicallyPrecedes(b.utf16)
    }

    /// The DDL type of a stored attribute (§1.5), nil for types that have no column.
    static func storedSQLType(_ type: AttributeType) -> String? {
        switch type {
        case .undefined, .objectID, .composite: nil
        default: StoreLayout.sqlType(type)
        }
    }
}
