import CDStoreJSON
import CDStoreModel
internal import GRDB

/// Everything about inserting objects of one entity that never changes within a command, worked out when the
/// first record of that entity arrives: the stored attributes with their columns, parsed defaults and validation
/// rules; property lookup by name; the INSERT statement (prepared once) with the to-one foreign keys it writes
/// itself; and the uniqueness keys an object may merge on.
///
/// A flat record then costs one INSERT and no text is built for it unless it fails.
final class EntityWritePlan {
    /// A stored attribute of the entity, in INSERT column order. A class: the per-record loops read it in place.
    final class Column {
        let attribute: Attribute
        let column: String
        /// The model's default, stored; or the error a record that leaves the attribute out gets.
        let defaultValue: Result<DatabaseValue, StoreError>
        let rule: AttributeRule
        let kind: Kind
        let isDerived: Bool

        /// The types whose common inputs ``EntityWritePlan/storedValue(_:_:)`` converts itself.
        enum Kind {
            case integer(ClosedRange<Int64>)
            case double
            case string
            case date
            case boolean
            case other
        }

        init(attribute: Attribute, column: String, defaultValue: Result<DatabaseValue, StoreError>, rule: AttributeRule) {
            self.attribute = attribute
            self.column = column
            self.defaultValue = defaultValue
            self.rule = rule
            isDerived = attribute.isDerived
            switch attribute.type {
            case .integer16, .integer32, .integer64: kind = .integer(attribute.type.integerRange!)
            case .double: kind = .double
            case .string: kind = .string
            case .date: kind = .date
            case .boolean: kind = .boolean
            default: kind = .other
            }
        }
    }

    /// A to-one whose foreign key (and entity column) the INSERT writes: its target is known before the row is.
    struct DirectToOne {
        let relationship: Relationship
        /// 1-based INSERT parameter of the foreign key; the entity column, when there is one, follows it.
        let parameter: Int32
        let hasEntityColumn: Bool
    }

    /// The properties of a uniqueness constraint (or of the mapping's identity) and the query that finds the
    /// object holding given values for them.
    struct MergeKey {
        enum Part {
            case attribute(slot: Int)
            case toOne(name: String)
        }
        let properties: [String]
        /// Nil when a property of the key is not stored (no key to look up).
        let parts: [Part]?
        /// The columns the lookup constrains.
        let columns: Set<String>
        let sql: String
        /// Whether a match merges (identity attributes, or constraints under upsert) rather than being refused.
        let merges: Bool
        /// The column slots of a key made of attributes only (nil when it includes a relationship or is not stored:
        /// such keys are checked against the tables alone, as the parent of a waiting row is not known yet). Kept,
        /// not computed: rows waiting for their parent are compared with each new row.
        let attributeSlots: [Int]?

        init(properties: [String], parts: [Part]?, columns: Set<String>, sql: String, merges: Bool) {
            self.properties = properties
            self.columns = columns
            self.parts = parts
            self.sql = sql
            self.merges = merges
            let slots = parts?.compactMap { part -> Int? in
                if case .attribute(let slot) = part { return slot } else { return nil }
            }
            attributeSlots = slots?.count == parts?.count ? slots : nil
        }
    }

    let entity: Entity
    let layout: EntityLayout
    /// The layout's entity number and table, kept apart: reading them through ``layout`` copied the whole layout
    /// for every record.
    let entityNumber: Int
    let table: String
    let rootNumber: Int
    let columns: [Column]
    /// Slot in ``columns`` of each stored attribute; transient attributes map to nil.
    let attributeSlots: [String: Int?]
    let relationships: [String: Relationship]
    /// The entity's attributes and relationships, inherited ones included, for records read through a mapping.
    let properties: EntityProperties
    /// Model-order relationship names, for messages.
    let propertyNames: [String]
    let directToOnes: [String: DirectToOne]
    let insertSQL: String
    /// ``insertSQL`` prepared on the connection of the write that uses this plan.
    var insertStatement: RawStatement?
    /// The INSERTs of several rows at once, by number of rows, prepared when first used.
    private var multiRowStatements: [Int: RawStatement] = [:]
    /// Rows per multi-row INSERT. One statement per row costs SQLite a cursor on the table and on each index, and
    /// its halt logic, every time; at 32 rows per statement that shared work is mostly gone (ADR 0013: 17.7 k
    /// instructions per row alone, 14.5 k at 32, 14.4 k at 100).
    static let rowsPerBatch = 32
    let mergeKeys: [MergeKey]
    /// ``keysEnforcedByIndexes(db:)``, once read.
    private var enforcedKeys: Set<Int>?
    /// Indexes in ``mergeKeys`` of the keys whose lookups an index serves while plain indexes are dropped
    /// (``DeferredIndexes/isCovered(_:columns:)``).
    var coveredMergeKeys: Set<Int> = []
    /// The queries of ``mergeKeys``, by index, prepared on the write's connection when first used: looking a
    /// statement up by its SQL text once per object showed in the graph load's profile.
    private var mergeStatements: [Int: RawStatement] = [:]
    /// Composite attributes by name: a record gives one as an object (`"home": {"city": …}`), whose members go to
    /// the element columns (slots named by path, `home.city`, which a record may also give directly).
    let compositeAttributes: [String: Attribute]
    /// The JSON mapping of this entity, when one is in use.
    let mapping: JSONMapping.EntityMapping?
    /// Where input keys that name no property are counted, when they are ignored (``UnknownKeyPolicy``); nil
    /// makes them errors.
    let ignoredKeys: IgnoredKeyTally?
    /// The keys of the last record sorted and where they went: records of one input almost always repeat their
    /// keys in the same order, and comparing a key with the last one's is cheaper than hashing it.
    var lastKeys: [String] = []
    var lastPlaces: [FieldPlace] = []
    /// For ``directRow(_:)``: the field index of each column slot under ``lastKeys``, when they are all attributes.
    var lastInputOfSlot: [Int]?

    /// Where a record's field goes.
    enum FieldPlace {
        case attribute(Int)
        case relationship(Relationship)
        case ignored
        case unknown
    }

    /// Whether a record may turn out to be an existing object (uniqueness constraints or identity attributes).
    var mayMerge: Bool { !mergeKeys.isEmpty }
    /// The table and columns of ``insertSQL``, and the parameters of one row: a multi-row INSERT repeats the latter.
    private let insertTarget: String
    private let insertRow: String
    /// Parameters of the INSERT: Z_PK, Z_ENT, Z_OPT, the columns, the direct to-ones' columns.
    let parameterCount: Int

    init(entity: Entity, store: Store, options: InsertSettings, ignoredKeys: IgnoredKeyTally? = nil) throws {
        switch options.unknownKeys {
        case .ignored: self.ignoredKeys = ignoredKeys ?? IgnoredKeyTally()
        case .refused: self.ignoredKeys = nil
        case .ignoredUnderMapping:
            self.ignoredKeys = options.mapping.map { !$0.isEmpty } == true ? ignoredKeys ?? IgnoredKeyTally() : nil
        }
        let model = store.model
        guard let layout = store.layout.entity(named: entity.name) else {
            throw StoreError(.unknownName, "no table for this entity", entity: entity.name)
        }
        self.entity = entity
        self.layout = layout
        entityNumber = layout.number
        table = layout.table
        rootNumber = store.layout.entity(named: layout.rootName)?.number ?? layout.number

        var columns: [Column] = []
        var slots: [String: Int?] = [:]
        var composites: [String: Attribute] = [:]
        for attribute in model.attributes(of: entity).flatMap(Self.flattened) {
            if attribute.type == .composite, !attribute.isTransient { composites[attribute.name] = attribute }
            guard !attribute.isTransient, let column = layout.attributeColumns[attribute.name] else {
                if slots[attribute.name] == nil { slots[attribute.name] = .some(nil) }
                continue
            }
            let defaultValue: Result<DatabaseValue, StoreError>
            do {
                defaultValue = .success(try DefaultValues.storedDefault(for: attribute))
            } catch var error as StoreError {
                error.entity = entity.name
                defaultValue = .failure(error)
            }
            slots[attribute.name] = columns.count
            columns.append(Column(attribute: attribute, column: column, defaultValue: defaultValue,
                                  rule: store.validation.rule(for: attribute)))
        }
        self.columns = columns
        attributeSlots = slots
        compositeAttributes = composites
        properties = EntityProperties(entity, in: model)
        let relationshipList = model.relationships(of: entity)
        relationships = Dictionary(relationshipList.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        propertyNames = model.attributes(of: entity).filter { !$0.isTransient }.map(\.name) + relationshipList.map(\.name)

        var names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.column)
        var direct: [String: DirectToOne] = [:]
        for relationship in relationshipList where !relationship.isToMany && !relationship.isTransient {
            guard let toOne = layout.toOnes[relationship.name], toOne.orderKey == nil else { continue }
            // A one-to-one must also let go of the target's previous partner: that stays with RelationshipStorage.
            if let inverse = model.inverse(of: relationship), !inverse.isToMany { continue }
            direct[relationship.name] = DirectToOne(relationship: relationship, parameter: Int32(names.count + 1),
                                                    hasEntityColumn: toOne.entityKey != nil)
            names.append(toOne.foreignKey)
            if let entityKey = toOne.entityKey { names.append(entityKey) }
        }
        directToOnes = direct
        parameterCount = names.count
        insertTarget = "\(layout.table) (\(names.joined(separator: ", "))) VALUES "
        insertRow = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        insertSQL = "INSERT INTO " + insertTarget + insertRow

        let entityMapping = options.mapping?.mapping(for: entity, in: model)
        mapping = entityMapping == JSONMapping.EntityMapping() ? nil : entityMapping
        var keys = model.uniquenessConstraintsInHierarchy(of: entity).map { ($0, options.upsert) }
        if let identity = mapping?.identity, !identity.isEmpty { keys.insert((identity, true), at: 0) }
        let root = store.layout.entity(named: layout.rootName) ?? layout
        mergeKeys = keys.map { properties, merges in
            var parts: [MergeKey.Part]? = []
            var conditions: [String] = []
            var keyColumns: Set<String> = []
            for property in properties {
                if let slot = slots[property] ?? nil {
                    parts?.append(.attribute(slot: slot))
                    conditions.append("\(columns[slot].column) = ?")
                    keyColumns.insert(columns[slot].column)
                } else if let toOne = layout.toOnes[property] {
                    parts?.append(.toOne(name: property))
                    conditions.append("\(toOne.foreignKey) = ?")
                    keyColumns.insert(toOne.foreignKey)
                } else {
                    parts = nil
                }
            }
            let sql = "SELECT Z_PK, Z_ENT FROM \(layout.table) WHERE Z_ENT BETWEEN \(root.number) AND \(root.subtreeMax) AND "
                + conditions.joined(separator: " AND ") + " LIMIT 1"
            return MergeKey(properties: properties, parts: parts, columns: keyColumns, sql: sql, merges: merges)
        }
    }

    /// Indexes in ``mergeKeys`` of the keys that only refuse (no upsert, no identity), whose values the INSERT
    /// writes itself (attributes and direct to-ones: a to-one set by a later UPDATE would fail there instead), and
    /// whose columns are exactly those of a UNIQUE index of the table: SQLite refuses a duplicate of those by
    /// itself. Read from the store's schema once, on the write's connection.
    func keysEnforcedByIndexes(db: Database) throws -> Set<Int> {
        if let enforcedKeys { return enforcedKeys }
        var uniqueColumns: [Set<String>] = []
        for index in try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1", arguments: [table]) {
            let name: String = index["name"]
            let columns = try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
            uniqueColumns.append(Set(columns.compactMap { $0["name"] as String? }))
        }
        let keys = Set(mergeKeys.indices.filter { number in
            let key = mergeKeys[number]
            guard !key.merges, let parts = key.parts, uniqueColumns.contains(key.columns) else { return false }
            return parts.allSatisfy { part in
                if case .toOne(let name) = part { directToOnes[name] != nil } else { true }
            }
        })
        enforcedKeys = keys
        return keys
    }

    /// The prepared query of the merge key at `index` in ``mergeKeys``.
    func mergeStatement(_ index: Int, db: Database) throws -> RawStatement {
        if let prepared = mergeStatements[index] { return prepared }
        let prepared = try RawStatement(mergeKeys[index].sql, db: db)
        mergeStatements[index] = prepared
        return prepared
    }

    /// The INSERT of ``rowsPerBatch`` rows in one statement (their parameters one row after the other), prepared
    /// on first use.
    ///
    /// It is `INSERT OR FAIL`: a plain INSERT of several rows keeps a statement journal, the pages it changes copied
    /// before each change so that a failing row can undo the rows before it, and SQLite wrote that journal to a
    /// temporary file: two million `pwrite` calls for a million rows, a second of system time. A failure fails the
    /// whole insert anyway, whose transaction is rolled back.
    func batchInsert(db: Database) throws -> RawStatement {
        try multiRowInsert(rows: Self.rowsPerBatch, db: db)
    }

    /// The INSERT OR FAIL of `rows` rows in one statement (at most ``rowsPerBatch``), prepared on first use.
    func multiRowInsert(rows: Int, db: Database) throws -> RawStatement {
        if let prepared = multiRowStatements[rows] { return prepared }
        let sql = "INSERT OR FAIL INTO " + insertTarget + Array(repeating: insertRow, count: rows).joined(separator: ", ")
        let prepared = try RawStatement(sql, db: db)
        multiRowStatements[rows] = prepared
        return prepared
    }

    /// The attribute and relationship names, for "did you mean" suggestions.
    var candidateNames: [String] { propertyNames }
}
