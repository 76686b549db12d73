import CDStoreJSON
import CDStoreModel

/// The SQLite layout Core Data gives a model: entity numbers, tables, columns and indexes.
///
/// The layout is a pure function of the model for a newly created store (coredata-format.md §1.3–1.8).
/// Reading a store that Core Data migrated must map entity numbers through its `Z_PRIMARYKEY` table instead.
///
/// ## Topics
/// - ``entities``, ``entity(named:)``, ``entity(number:)``
/// - ``tables``, ``indexes``, ``createStatements``
package struct StoreLayout: Sendable {
    /// Every entity, abstract ones and sub-entities included, in `Z_ENT` order.
    package var entities: [EntityLayout] { didSet { reindex() } }
    /// Entity tables (one per inheritance tree) and join tables, in the order they are created.
    package var tables: [TableLayout]
    /// Indexes, in the order they are created.
    package var indexes: [IndexLayout]
    /// Positions in ``entities`` by name and by number: every query, insert and migration looks entities up, and
    /// a model may have thousands.
    private var byName: [String: Int] = [:]
    private var byNumber: [Int: Int] = [:]

    /// Creates a layout from its parts.
    package init(entities: [EntityLayout], tables: [TableLayout], indexes: [IndexLayout]) {
        self.entities = entities
        self.tables = tables
        self.indexes = indexes
        reindex()
    }

    private mutating func reindex() {
        byName = [:]
        byNumber = [:]
        for (position, entity) in entities.enumerated() {
            if byName[entity.name] == nil { byName[entity.name] = position }
            if byNumber[entity.number] == nil { byNumber[entity.number] = position }
        }
    }

    /// The layout of the entity called `name`.
    package func entity(named name: String) -> EntityLayout? {
        byName[name].map { entities[$0] }
    }

    /// The layout of the entity numbered `number`.
    package func entity(number: Int) -> EntityLayout? {
        byNumber[number].map { entities[$0] }
    }

    /// The table called `name`.
    package func table(named name: String) -> TableLayout? {
        tables.first { $0.name == name }
    }

    /// `CREATE TABLE` statements, then `CREATE INDEX` statements, as Core Data would issue them.
    package var createStatements: [String] {
        tables.map(\.createSQL) + indexes.map(\.createSQL)
    }
}

/// Where one entity's objects and properties live.
package struct EntityLayout: Sendable, Equatable {
    /// The entity name.
    package var name: String
    /// Its `Z_ENT` number.
    package var number: Int
    /// The `Z_ENT` of its direct parent, 0 for a root entity (`Z_PRIMARYKEY.Z_SUPER`).
    package var superNumber: Int
    /// The last entity number of its subtree: "this entity or a sub-entity" is `Z_ENT BETWEEN number AND subtreeMax`.
    package var subtreeMax: Int
    /// The name of the root entity of its inheritance tree.
    package var rootName: String
    /// The table its objects live in (`Z` + the root's name in upper case).
    package var table: String
    /// Whether the entity is abstract.
    package var isAbstract: Bool
    /// Column of every stored attribute, inherited ones included, by attribute name.
    package var attributeColumns: [String: String]
    /// Columns of every stored to-one relationship, inherited ones included, by relationship name.
    package var toOnes: [String: ToOneLayout]
    /// Storage of every stored to-many relationship, inherited ones included, by relationship name.
    package var toManys: [String: ToManyLayout]
    /// The hidden to-ones Core Data adds to this entity for to-many relationships without inverse that point
    /// at it (or at an ancestor), by their internal name `<n><r>` (n = number of the entity declaring the
    /// to-many `r`). ``ToOneLayout/destination`` is that entity; the same columns are described from the
    /// to-many's side by ``ToManyLayout/foreignKey(table:foreignKey:entityKey:orderKey:)``.
    package var hiddenToOnes: [String: ToOneLayout] = [:]

    /// The entity numbers of this entity and its sub-entities.
    package var subtreeNumbers: ClosedRange<Int> { number...subtreeMax }
}

/// The columns of a to-one relationship, all in the source entity's table.
package struct ToOneLayout: Sendable, Equatable {
    /// The destination entity's name.
    package var destination: String
    /// Holds the destination object's `Z_PK`.
    package var foreignKey: String
    /// Holds the destination object's `Z_ENT`; present when the destination has sub-entities.
    package var entityKey: String?
    /// Holds the object's position in the inverse ordered to-many (`Z_FOK_…`); present when the inverse is ordered.
    /// Sort keys, not dense indexes: read with `ORDER BY`.
    package var orderKey: String?
}

/// How a to-many relationship is stored.
package enum ToManyLayout: Sendable, Equatable {
    /// The inverse to-one's columns in the destination's table (`table`, the destination hierarchy's table):
    /// `foreignKey` holds the source object's `Z_PK`, `entityKey` its `Z_ENT` (present when the entity that
    /// declares the to-many has sub-entities), `orderKey` the destination object's position in this to-many
    /// when it is ordered (`Z_FOK_…`). The case when the inverse is a to-one, and also the hidden to-one Core
    /// Data adds for a to-many with no inverse (columns `Z<n>NAME`, `Z<n>_<n>NAME`, `Z_FOK_<n>NAME`, see
    /// ``EntityLayout/hiddenToOnes``). Rows of the destination table whose `foreignKey` is NULL are unrelated.
    case foreignKey(table: String, foreignKey: String, entityKey: String?, orderKey: String?)
    /// A many-to-many relationship: each row of `table` links one source object (`sourceColumn`, a `Z_PK` of the
    /// entity that declares this relationship, or of one of its sub-entities) to one destination object
    /// (`destinationColumn`, a `Z_PK` in the destination's table); `orderColumn` is the destination's position in
    /// this relationship when it is ordered. Both sides of a pair share the table with the columns swapped
    /// (coredata-format.md §1.6: the column `Z_<a>`+UPPER(s) holds the pks of entity #a, which declares `r`).
    /// A reflexive relationship (its own inverse) has `sourceColumn` `Z_<n>NAME`, `destinationColumn`
    /// `REFLEXIVE` and, when ordered, `orderColumn` `FOK_REFLEXIVE` (no sample shows which of the two FOK
    /// columns Core Data reads; this one follows the two-sided rule).
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
}

/// A table and its columns.
package struct TableLayout: Sendable, Equatable {
    /// A column and its declared SQL type.
    package struct Column: Sendable, Equatable {
        package var name: String
        package var type: String
        package init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }
    /// The table name.
    package var name: String
    /// Columns in `CREATE TABLE` order (for entity tables `Z_PK`, `Z_ENT`, `Z_OPT` first).
    package var columns: [Column]
    /// Columns of a composite primary key (join tables); empty for entity tables, whose key is `Z_PK`.
    package var primaryKey: [String]

    /// The `CREATE TABLE` statement.
    package var createSQL: String {
        var parts = columns.map { column in
            column.name == "Z_PK" && primaryKey.isEmpty ? "Z_PK INTEGER PRIMARY KEY" : "\(column.name) \(column.type)"
        }
        if !primaryKey.isEmpty { parts.append("PRIMARY KEY (\(primaryKey.joined(separator: ", ")))") }
        return "CREATE TABLE \(name) ( \(parts.joined(separator: ", ")) )"
    }
}

/// An index Core Data creates.
package struct IndexLayout: Sendable, Equatable {
    /// The index name.
    package var name: String
    /// The table it indexes.
    package var table: String
    /// The indexed column terms, as written in the statement (e.g. `ZNAME COLLATE BINARY ASC`).
    package var columns: [String]
    /// Whether it is a `UNIQUE` index.
    package var isUnique: Bool

    /// The `CREATE INDEX` statement.
    package var createSQL: String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))"
    }
}
