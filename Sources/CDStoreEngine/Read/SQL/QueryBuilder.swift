import CDStoreJSON
import CDStoreModel
import CDStorePredicate
package import GRDB
internal import GRDBSQLite

/// Builds the SQL of one fetch request from the store's layout: which table, which columns, which rows, in
/// which order. Values from the request are always bound, never spliced into the SQL text.
package struct QueryBuilder {
    let model: ManagedObjectModel
    let layout: StoreLayout
    package let entity: Entity
    package let entityLayout: EntityLayout
    let request: ObjectFetchRequest
    /// Attributes selected, with their column, for the requested entity and every sub-entity it includes.
    let selected: [(attribute: Attribute, column: String)]
    /// Attribute names of each concrete entity number, in output order.
    package let attributesByEntity: [Int: (name: String, attributes: [Attribute])]
    /// Per concrete entity number, its attributes with their result column: worked out once, not per row.
    package let valueColumns: [Int: [(attribute: Attribute, position: Int)]]
    package let condition: SQLFragment
    /// Where Binary values kept outside the store live (`.<store>_SUPPORT/_EXTERNAL_DATA`).
    package let externalData: ExternalDataLocation?
    package let order: [String]
    /// Values bound in ``order`` (after the condition's).
    package let orderArguments: [DatabaseValue]

    package var table: String { entityLayout.table }

    /// SQLite's default `SQLITE_MAX_VARIABLE_NUMBER` (since 3.32), less room for the sort's and window's values.
    static let maximumBoundValues = 32_000

    package init(store: Store, request: ObjectFetchRequest) throws {
        externalData = store.externalDataLocation
        model = store.model
        layout = store.layout
        self.request = request
        entity = try store.resolveEntity(request.entity)
        guard let entityLayout = layout.entity(named: entity.name) else {
            throw StoreError(.unknownName, "no table for this entity", entity: entity.name)
        }
        self.entityLayout = entityLayout
        let included = request.includesSubentities ? model.subtree(of: entity) : [entity]
        var selected: [(Attribute, String)] = []
        var seenColumns: Set<String> = []
        var byEntity: [Int: (String, [Attribute])] = [:]
        for member in included {
            guard let memberLayout = layout.entity(named: member.name) else { continue }
            // A composite's elements are columns of their own, read under their paths (`home.city`), and an enum's
            // raw value under the property's name (``Attribute/recordAttributes``).
            var attributes: [Attribute] = []
            for attribute in model.attributes(of: member) {
                for (path, named) in zip(attribute.columnAttributes.map(\.name), attribute.recordAttributes) {
                    guard let column = memberLayout.attributeColumns[path] else { continue }
                    attributes.append(named)
                    if seenColumns.insert(column).inserted { selected.append((named, column)) }
                }
            }
            byEntity[memberLayout.number] = (member.name, attributes)
        }
        self.selected = selected
        attributesByEntity = byEntity
        var positions: [String: Int] = [:]
        for (i, item) in selected.enumerated() where positions[item.0.name] == nil { positions[item.0.name] = i + 2 }
        valueColumns = byEntity.mapValues { entry in
            entry.1.compactMap { attribute in positions[attribute.name].map { (attribute, $0) } }
        }

        var conditions: [SQLFragment] = []
        if let entityFilter = Self.entityFilter(entityLayout, includesSubentities: request.includesSubentities,
                                                layout: layout) {
            conditions.append(entityFilter)
        }
        if let primaryKeys = request.primaryKeys {
            conditions.append(primaryKeys.isEmpty ? SQLFragment("0")
                : SQLFragment("t.Z_PK IN (\(Array(repeating: "?", count: primaryKeys.count).joined(separator: ", ")))",
                              primaryKeys.map(\.databaseValue)))
        }
        let aliases = AliasGenerator()
        if let predicate = request.predicate {
            conditions.append(try PredicateCompiler(model: model, layout: layout, entity: entity, aliases: aliases)
                .compile(predicate))
        }
        var condition = conditions.isEmpty ? SQLFragment("1") : SQLFragment.join(conditions.map {
            SQLFragment("(\($0.sql))", $0.arguments)
        }, separator: " AND ")
        // SQLite binds at most 32,766 values in one statement (SQLITE_MAX_VARIABLE_NUMBER); say so in the model's
        // terms rather than with SQLite's "too many SQL variables".
        if condition.arguments.count > Self.maximumBoundValues {
            throw StoreError(.invalidInput, "the predicate has \(condition.arguments.count) values, more than the "
                             + "\(Self.maximumBoundValues) SQLite takes in one query; split the request or use fewer values",
                             entity: entity.name)
        }

        // Sort keys are attributes or to-one key paths (`department.name`), the latter as correlated scalar
        // subqueries that are NULL, and so sort first, when a related object is missing.
        var order: [String] = []
        var orderArguments: [DatabaseValue] = []
        var sortKeys: [(SQLFragment, ascending: Bool)] = []
        let resolver = KeyPathResolver(model: model, layout: layout, aliases: aliases)
        let scope = Scope(alias: "t", entity: entity, layout: entityLayout)
        for descriptor in request.sort {
            let resolved: (fragment: SQLFragment, attribute: Attribute?)
            do {
                resolved = try resolver.scalar(descriptor.keyPath, from: scope)
            } catch let error as StoreError {
                throw StoreError(error.code, "'\(descriptor.keyPath)': " + error.message, entity: entity.name)
                    .about(.sort)
            }
            guard let attribute = resolved.attribute else {
                throw StoreError(.invalidInput, "'\(descriptor.keyPath)': it is a relationship, not an attribute",
                                 entity: entity.name).about(.sort)
            }
            let collated = descriptor.caseInsensitive && attribute.type == .string
                ? "\(SQLFunctions.caseFold)(\(resolved.fragment.sql))" : resolved.fragment.sql
            order.append(collated + (descriptor.ascending ? " ASC" : " DESC"))
            orderArguments += resolved.fragment.arguments
            sortKeys.append((SQLFragment(collated, resolved.fragment.arguments), descriptor.ascending))
        }
        order.append("t.Z_PK ASC")
        if let after = request.afterPrimaryKey {
            let keyset = Self.keyset(after: after, sortKeys: sortKeys, table: entityLayout.table)
            condition = SQLFragment("(\(condition.sql)) AND \(keyset.sql)", condition.arguments + keyset.arguments)
        }
        self.condition = condition
        self.order = order
        self.orderArguments = orderArguments
    }

    /// The rows after the anchor row (primary key `after`) in the order `sortKeys` then `Z_PK`: the anchor's sort
    /// values come from a subquery on the same table, aliased `t` so that each sort expression (a column, or a
    /// correlated subquery for a to-one key path) reads the anchor row there. SQLite sorts NULL first ascending
    /// and last descending, which the NULL terms follow.
    static func keyset(after: Int64, sortKeys: [(SQLFragment, ascending: Bool)], table: String) -> SQLFragment {
        let pk = after.databaseValue
        var alternatives: [SQLFragment] = []
        var equalSoFar: [SQLFragment] = []
        for (key, ascending) in sortKeys {
            let anchor = SQLFragment("(SELECT \(key.sql) FROM \(table) t WHERE t.Z_PK = ?)", key.arguments + [pk])
            let past = ascending
                ? SQLFragment("(\(key.sql) > \(anchor.sql) OR (\(anchor.sql) IS NULL AND \(key.sql) IS NOT NULL))",
                              key.arguments + anchor.arguments + anchor.arguments + key.arguments)
                : SQLFragment("(\(key.sql) < \(anchor.sql) OR (\(anchor.sql) IS NOT NULL AND \(key.sql) IS NULL))",
                              key.arguments + anchor.arguments + anchor.arguments + key.arguments)
            alternatives.append(SQLFragment.join(equalSoFar + [past], separator: " AND "))
            equalSoFar.append(SQLFragment("\(key.sql) IS \(anchor.sql)", key.arguments + anchor.arguments))
        }
        alternatives.append(SQLFragment.join(equalSoFar + [SQLFragment("t.Z_PK > ?", [pk])], separator: " AND "))
        let joined = SQLFragment.join(alternatives.map { SQLFragment("(\($0.sql))", $0.arguments) }, separator: " OR ")
        return SQLFragment("(\(joined.sql))", joined.arguments)
    }

    /// `Z_ENT = n` or `Z_ENT BETWEEN n AND m`, unless the table holds only this entity's objects anyway.
    static func entityFilter(_ entity: EntityLayout, includesSubentities: Bool, layout: StoreLayout) -> SQLFragment? {
        let sharing = layout.entities.filter { $0.table == entity.table }
        if includesSubentities {
            if sharing.allSatisfy({ entity.subtreeNumbers.contains($0.number) }) { return nil }
            if entity.subtreeMax == entity.number { return SQLFragment("t.Z_ENT = ?", [entity.number.databaseValue]) }
            return SQLFragment("t.Z_ENT BETWEEN ? AND ?", [entity.number.databaseValue, entity.subtreeMax.databaseValue])
        }
        if sharing.count == 1 { return nil }
        return SQLFragment("t.Z_ENT = ?", [entity.number.databaseValue])
    }

    private var window: String {
        switch (request.limit, request.offset) {
        case let (limit?, offset?): " LIMIT \(max(0, limit)) OFFSET \(max(0, offset))"
        case let (limit?, nil): " LIMIT \(max(0, limit))"
        case let (nil, offset?): " LIMIT -1 OFFSET \(max(0, offset))"
        case (nil, nil): ""
        }
    }

    package func selectStatement() -> SQLFragment {
        let columns = (["t.Z_PK", "t.Z_ENT"] + selected.map { "t.\($0.column)" }).joined(separator: ", ")
        return SQLFragment("SELECT \(columns) FROM \(table) t WHERE \(condition.sql) ORDER BY \(order.joined(separator: ", "))"
                           + window, condition.arguments + orderArguments)
    }

    func countStatement() -> SQLFragment {
        if request.limit == nil && request.offset == nil {
            return SQLFragment("SELECT COUNT(*) FROM \(table) t WHERE \(condition.sql)", condition.arguments)
        }
        return SQLFragment("SELECT COUNT(*) FROM (SELECT t.Z_PK FROM \(table) t WHERE \(condition.sql) ORDER BY "
                           + order.joined(separator: ", ") + window + ")", condition.arguments + orderArguments)
    }

    func objectKeyStatement() -> SQLFragment {
        SQLFragment("SELECT t.Z_PK, t.Z_ENT FROM \(table) t WHERE \(condition.sql) ORDER BY \(order.joined(separator: ", "))" + window,
                    condition.arguments + orderArguments)
    }

    /// `statement` is the one `row` comes from: attribute text is read from it with its byte length (``ExactText``).
    func object(from row: Row, statement: SQLiteStatement) throws -> FetchedObject {
        let pk: Int64 = row[0]
        let number: Int = row[1]
        let name = attributesByEntity[number]?.name ?? entity.name
        let columns = valueColumns[number] ?? []
        var values: [(String, ObjectValue)] = []
        values.reserveCapacity(columns.count)
        for (attribute, position) in columns {
            values.append((attribute.name, try AttributeCoding.objectValue(ExactText.value(statement, at: Int32(position)), for: attribute, externalData: externalData, entity: name)))
        }
        return FetchedObject(primaryKey: pk, entity: name, values: CompositeValues.folded(values))
    }
}
