import CDStoreJSON
import CDStoreModel
import CDStorePredicate
internal import GRDB
internal import GRDBSQLite

/// How a result column's SQL value becomes a typed value.
enum ResultType {
    /// Typed by an attribute of the model (dates come back as dates, Decimals as decimals…).
    case attribute(Attribute)
    case integer
    case double
    case decimal
    case string
    /// Whatever SQLite's storage class says (expressions the model cannot type).
    case dynamic
    /// An object: the column is its `Z_PK`, a second column its `Z_ENT`; printed as its object ID.
    case object(Entity)
}

/// One value of a projection, compiled: its SQL and how to read it back.
struct CompiledValue {
    var sql: SQLFragment
    var type: ResultType
    /// The `Z_ENT` of an object value.
    var entitySQL: SQLFragment?
    /// The attribute constants compared with this value take their type from (in `--having`).
    var attribute: Attribute?
    var isAggregate: Bool
}

/// Builds the one SQL statement of a ``ProjectionRequest``, checking it against the model before any SQL runs:
/// unknown names, functions applied to types they do not take, aggregates mixed with ungrouped values,
/// `having` without grouping. Values are always bound, never spliced into the text.
///
/// ```sql
/// SELECT (SELECT t1.ZNAME FROM ZDEPARTMENT t1 WHERE (t1.Z_PK = t.ZDEPARTMENT)) AS c0, cdstore_decimal_sum(t.ZSALARY) AS c1
/// FROM ZEMPLOYEE t WHERE (t.ZAGE > ?) GROUP BY (SELECT t2.ZNAME …) HAVING (COUNT(t.ZAGE) >= ?) ORDER BY c1 DESC, c0 ASC
/// ```
struct ProjectionQuery {
    let store: Store
    let request: ProjectionRequest
    let entity: Entity
    let entityLayout: EntityLayout
    let aliases = AliasGenerator()
    let compiler: PredicateCompiler
    private(set) var columns: [(key: String, value: CompiledValue)] = []
    private(set) var statement = SQLFragment("")

    init(store: Store, request: ProjectionRequest) throws {
        self.store = store
        self.request = request
        entity = try store.resolveEntity(request.entity)
        guard let entityLayout = store.layout.entity(named: entity.name) else {
            throw StoreError(.unknownName, "no table for this entity", entity: entity.name)
        }
        self.entityLayout = entityLayout
        compiler = PredicateCompiler(model: store.model, layout: store.layout, entity: entity, aliases: aliases)
        try build()
    }

    private func error(_ input: ErrorInput, _ message: String) -> StoreError {
        StoreError(.invalidInput, message, entity: entity.name).about(input)
    }

    /// Runs `body`, whose errors (a key path's, a predicate's) are about `input`, and about the item `key` of it
    /// when one is given (`'sum:salary': …`).
    private func about<T>(_ input: ErrorInput, _ key: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            var copy = error.about(input)
            if let key { copy.message = "'\(key)': " + error.message }
            copy.entity = copy.entity ?? entity.name
            throw copy
        }
    }

    private mutating func build() throws {
        guard !request.properties.isEmpty else { throw error(.properties, "no properties: name at least one") }
        var seen: Set<String> = []
        for property in request.properties where !seen.insert(property.key).inserted {
            throw error(.properties, "two properties have the result key '\(property.key)'; rename one with AS alias")
        }
        // Group-by items may name a property by its result key (`--group-by dept` for `department.name AS dept`).
        let groups = request.groupBy.map { item -> ProjectionProperty in
            if item.function == nil, item.alias == nil, let named = request.properties.first(where: { $0.key == item.expressionText }),
               !named.isAggregate {
                return named
            }
            return item
        }
        for group in groups where group.isAggregate {
            throw error(.groupBy, "cannot group by '\(group.key)': it is an aggregate; group by attributes or key paths")
        }
        if request.having != nil && groups.isEmpty {
            throw error(.having, "it filters groups, and without a grouping there are none (filter objects with the "
                        + "predicate)")
        }
        let ungrouped = request.properties.filter { !$0.isAggregate }
        if groups.isEmpty {
            if let aggregate = request.properties.first(where: \.isAggregate), let plain = ungrouped.first {
                throw error(.groupBy, "'\(aggregate.key)' is an aggregate, which folds all objects into one result, but "
                            + "'\(plain.key)' has a value per object: group by it (\(plain.expressionText)) or leave it out")
            }
        } else {
            for property in ungrouped where !groups.contains(where: { $0.sameValue(as: property) }) {
                throw error(.groupBy, "'\(property.key)' is neither grouped nor an aggregate: add it to the grouping or apply a function "
                            + "(sum, average, count, min, max, median, stddev)")
            }
        }

        var select: [SQLFragment] = []
        var compiled: [(String, CompiledValue)] = []
        for (index, property) in request.properties.enumerated() {
            let value = try about(.properties, property.key) { try compile(property) }
            compiled.append((property.key, value))
            select.append(SQLFragment("\(value.sql.sql) AS c\(index)", value.sql.arguments))
            if let entitySQL = value.entitySQL {
                select.append(SQLFragment("\(entitySQL.sql) AS e\(index)", entitySQL.arguments))
            }
        }
        columns = compiled

        var conditions: [SQLFragment] = []
        if let filter = QueryBuilder.entityFilter(entityLayout, includesSubentities: request.includesSubentities,
                                                  layout: store.layout) {
            conditions.append(filter)
        }
        if let predicate = request.predicate {
            conditions.append(try compiler.compile(predicate))
        }
        let condition = conditions.isEmpty ? SQLFragment("1")
            : SQLFragment.join(conditions.map { SQLFragment("(\($0.sql))", $0.arguments) }, separator: " AND ")

        var groupSQL: [SQLFragment] = []
        var groupValues: [(ProjectionProperty, CompiledValue)] = []
        for group in groups {
            let value = try about(.groupBy, group.key) { try compile(group) }
            groupSQL.append(value.sql)
            groupValues.append((group, value))
        }
        var having: SQLFragment?
        if let predicate = request.having {
            having = try compileHaving(predicate, groups: groups)
        }

        let aggregated = !groups.isEmpty || request.properties.contains(where: \.isAggregate)
        var order: [SQLFragment] = []
        for descriptor in request.sort {
            order.append(try sortTerm(descriptor, groups: groups, aggregated: aggregated))
        }
        // Ties keep a stable order: objects by primary key, groups and distinct results by their values.
        if !aggregated && !request.distinct {
            order.append(SQLFragment("t.Z_PK ASC"))
        } else if !groups.isEmpty || request.distinct {
            order += compiled.indices.map { SQLFragment("c\($0) ASC") }
        }

        var sql = "SELECT " + (request.distinct ? "DISTINCT " : "") + select.map(\.sql).joined(separator: ", ")
        var arguments = select.flatMap(\.arguments)
        sql += " FROM \(entityLayout.table) t WHERE \(condition.sql)"
        arguments += condition.arguments
        if !groupSQL.isEmpty {
            sql += " GROUP BY " + groupSQL.map(\.sql).joined(separator: ", ")
            arguments += groupSQL.flatMap(\.arguments)
        }
        if let having {
            sql += " HAVING \(having.sql)"
            arguments += having.arguments
        }
        if !order.isEmpty {
            sql += " ORDER BY " + order.map(\.sql).joined(separator: ", ")
            arguments += order.flatMap(\.arguments)
        }
        switch (request.limit, request.offset) {
        case let (limit?, offset?): sql += " LIMIT \(max(0, limit)) OFFSET \(max(0, offset))"
        case let (limit?, nil): sql += " LIMIT \(max(0, limit))"
        case let (nil, offset?): sql += " LIMIT -1 OFFSET \(max(0, offset))"
        case (nil, nil): break
        }
        statement = SQLFragment(sql, arguments)
    }

    // MARK: - Values

    /// The SQL of one property (or group-by item, or sort key) and its result type.
    func compile(_ property: ProjectionProperty) throws -> CompiledValue {
        if let exact = try exactDecimalSum(property.expression) {
            let value = CompiledValue(sql: exact, type: .decimal, attribute: nil, isAggregate: false)
            return try property.function.map { try apply($0, to: value, what: property.expressionText) } ?? value
        }
        let operand = try compiler.operand(property.expression).bound()
        let what = property.expressionText
        var value: CompiledValue
        switch operand.kind {
        case .collection:
            throw StoreError(.invalidInput, "'\(what)' has several values per object (it goes through a to-many relationship); "
                             + "use a collection operator, e.g. '\(what).@count' or '\(PredicateKeyPath(what).keys.first ?? what).@sum.…'")
        case .list:
            throw StoreError(.invalidInput, "a list is not a value")
        case .object(let destination):
            value = CompiledValue(sql: SQLFragment(operand.sql, operand.arguments), type: .object(destination),
                                  entitySQL: entityNumber(of: operand, destination), attribute: nil, isAggregate: false)
        case .null:
            value = CompiledValue(sql: SQLFragment("NULL"), type: .dynamic, attribute: nil, isAggregate: false)
        case .value, .constant:
            value = CompiledValue(sql: SQLFragment(operand.sql, operand.arguments), type: type(of: operand, property.expression),
                                  attribute: operand.attribute, isAggregate: false)
        }
        guard let function = property.function else { return value }
        return try apply(function, to: value, what: what)
    }

    /// `employees.@sum.budget` over a Decimal attribute, summed exactly like `sum:` (see ``ProjectionFunctions``).
    private func exactDecimalSum(_ expression: ExpressionNode) throws -> SQLFragment? {
        guard case .keyPath(let path) = expression,
              path.components.filter({ if case .collectionOperator = $0 { return true } else { return false } })
                == [.collectionOperator(.sum)],
              case .attribute(let attribute)? = try? compiler.resolver.walk(path.keys, from: compiler.root, whole: path.description).value,
              attribute.type == .decimal else { return nil }
        let operand = try compiler.operand(.keyPath(PredicateKeyPath(path.keys.map { KeyPathComponent.key($0) })))
        guard let collection = operand.collection else { return nil }
        let clause = collection.source.clause()
        return SQLFragment("(SELECT \(ProjectionFunctions.decimalSum)(\(collection.element.sql)) \(clause.sql))",
                           collection.element.arguments + clause.arguments)
    }

    /// The `Z_ENT` of an object value: the entity's number when it has no sub-entities, else read from its row.
    private func entityNumber(of operand: Operand, _ destination: Entity) -> SQLFragment {
        if operand.sql == "t.Z_PK" { return SQLFragment("t.Z_ENT") }
        guard let layout = store.layout.entity(named: destination.name) else { return SQLFragment("NULL") }
        if layout.subtreeMax == layout.number { return SQLFragment("\(layout.number)") }
        return SQLFragment("(SELECT Z_ENT FROM \(layout.table) WHERE Z_PK = \(operand.sql))", operand.arguments)
    }

    /// The type of a value without function: its attribute's, or the type of a collection operator's result.
    private func type(of operand: Operand, _ expression: ExpressionNode) -> ResultType {
        if case .keyPath(let path) = expression, path.hasCollectionOperator {
            let op = path.components.compactMap { component -> CollectionOperator? in
                if case .collectionOperator(let op) = component { return op } else { return nil }
            }.first
            let element = try? compiler.resolver.walk(path.keys, from: compiler.root, whole: path.description)
            var attribute: Attribute?
            if case .attribute(let a)? = element?.value { attribute = a }
            switch op {
            case .count?: return .integer
            case .avg?: return .double
            case .sum?:
                guard let attribute else { return .dynamic }
                return attribute.type.isInteger || attribute.type == .boolean ? .integer
                    : attribute.type == .decimal ? .decimal : .double
            default: return attribute.map { .attribute($0) } ?? .dynamic
            }
        }
        if case .constant(let constant) = operand.kind, case .date = constant { return .double }
        return operand.attribute.map { .attribute($0) } ?? .dynamic
    }

    private func apply(_ function: ProjectionProperty.Function, to value: CompiledValue, what: String) throws -> CompiledValue {
        let x = value.sql
        let attribute = value.attribute
        let type = attribute?.type
        func refuse(_ needs: String) -> StoreError {
            if case .object(let destination) = value.type {
                return StoreError(.invalidInput, "type mismatch: \(function.rawValue): needs \(needs), but '\(what)' is a "
                                  + "relationship (\(destination.name) objects); only count: takes relationships")
            }
            return StoreError(.invalidInput, "type mismatch: \(function.rawValue): needs \(needs), but '\(attribute?.name ?? what)' "
                              + "is \(type?.rawValue ?? "not a number")")
        }
        let isObject: Bool = { if case .object = value.type { return true } else { return false } }()
        let numeric = type.map { $0.isNumeric } ?? !isObject
        func wrap(_ sql: String, _ result: ResultType, attribute: Attribute? = nil, aggregate: Bool = true) -> CompiledValue {
            CompiledValue(sql: SQLFragment(sql, x.arguments), type: result, attribute: attribute, isAggregate: aggregate)
        }
        switch function {
        case .count:
            return wrap("COUNT(\(x.sql))", .integer)
        case .sum:
            guard numeric || type == .boolean else { throw refuse("numbers") }
            switch type {
            case .decimal?: return wrap("\(ProjectionFunctions.decimalSum)(\(x.sql))", .decimal, attribute: attribute)
            case .double?, .float?: return wrap("COALESCE(SUM(\(x.sql)), 0.0)", .double)
            case nil: return wrap("COALESCE(SUM(\(x.sql)), 0)", value.type.isInteger ? .integer : .dynamic)
            default: return wrap("COALESCE(SUM(\(x.sql)), 0)", .integer, attribute: attribute)
            }
        case .average:
            guard numeric else { throw refuse("numbers") }
            return wrap("AVG(\(x.sql))", .double)
        case .median:
            guard numeric else { throw refuse("numbers") }
            return wrap("\(ProjectionFunctions.median)(\(x.sql))", .double)
        case .stddev:
            guard numeric else { throw refuse("numbers") }
            return wrap("\(ProjectionFunctions.stddev)(\(x.sql))", .double)
        case .min, .max:
            if isObject { throw refuse("numbers, dates or strings") }
            if let type, !(type.isNumeric || type == .date || type == .string || type == .uri || type == .boolean) {
                throw refuse("numbers, dates or strings")
            }
            let name = function == .min ? "MIN" : "MAX"
            return wrap("\(name)(\(x.sql))", value.type, attribute: attribute)
        case .lowercase, .uppercase:
            if isObject { throw refuse("a string") }
            if let type, type != .string && type != .uri { throw refuse("a string") }
            let name = function == .lowercase ? SQLFunctions.lowercase : SQLFunctions.uppercase
            return CompiledValue(sql: SQLFragment("\(name)(\(x.sql))", x.arguments), type: .string, attribute: attribute,
                                 isAggregate: value.isAggregate)
        }
    }

    // MARK: - Having and sorting

    /// `--having`: result keys and group-by key paths stand for their values, `sum:(salary)` and the other
    /// aggregate functions aggregate the group; any other key path is an error (it has a value per object).
    private func compileHaving(_ predicate: PredicateNode, groups: [ProjectionProperty]) throws -> SQLFragment {
        var bindings: [String: Operand] = [:]
        var failure: StoreError?
        let rewritten = predicate.mappingExpressions { expression in
            guard failure == nil else { return nil }
            let name = "__cdstore_having_\(bindings.count)"
            func bind(_ property: ProjectionProperty) -> ExpressionNode? {
                do {
                    let value = try compile(property)
                    bindings[name] = Operand(sql: "(\(value.sql.sql))", arguments: value.sql.arguments, kind: .value,
                                             attribute: value.attribute)
                    return .variable(name)
                } catch let error as StoreError {
                    failure = error
                } catch {
                    failure = StoreError(.invalidInput, "\(error)")
                }
                return nil
            }
            switch expression {
            case .keyPath(let path):
                if let property = request.properties.first(where: { $0.key == path.description }) { return bind(property) }
                let asProperty = ProjectionProperty(expression: expression, text: path.description)
                if groups.contains(where: { $0.sameValue(as: asProperty) }) { return bind(asProperty) }
                failure = StoreError(.invalidInput, "'\(path)' is neither grouped nor an aggregate, so it has no single value "
                                     + "per group: use a result key, a grouping key or a function such as sum:(\(path))")
                return nil
            case .function(let selector, let arguments) where selector.hasSuffix(":") && arguments.count == 1:
                let name = String(selector.dropLast())
                guard let function = ProjectionProperty.Function(rawValue: name == "avg" ? "average" : name) else { return nil }
                return bind(ProjectionProperty(function: function, expression: arguments[0],
                                               text: PredicateFormatter.format(arguments[0])))
            default:
                return nil
            }
        }
        if let failure {
            throw StoreError(failure.code, failure.message, entity: entity.name).about(.having)
        }
        var inner = compiler
        for (name, operand) in bindings { inner.bindings[name] = operand }
        return try about(.having) { try inner.compile(rewritten) }
    }

    /// A sort key: a result key (`total`, `sum:salary`) or a property (`-department.name`, `max:age`).
    private func sortTerm(_ descriptor: SortDescriptor, groups: [ProjectionProperty], aggregated: Bool) throws -> SQLFragment {
        let direction = descriptor.ascending ? " ASC" : " DESC"
        func folded(_ sql: String, _ isString: Bool) -> String {
            descriptor.caseInsensitive && isString ? "\(SQLFunctions.caseFold)(\(sql))" : sql
        }
        func isString(_ value: CompiledValue) -> Bool {
            switch value.type {
            case .string: return true
            case .attribute(let a): return a.type == .string || a.type == .uri
            default: return false
            }
        }
        if let index = request.properties.firstIndex(where: { $0.key == descriptor.keyPath }) {
            return SQLFragment(folded("c\(index)", isString(columns[index].value)) + direction)
        }
        let property = try about(.sort, descriptor.keyPath) { try ProjectionProperty(parsing: descriptor.keyPath) }
        if let index = request.properties.firstIndex(where: { $0.sameValue(as: property) }) {
            return SQLFragment(folded("c\(index)", isString(columns[index].value)) + direction)
        }
        if aggregated && !property.isAggregate && !groups.contains(where: { $0.sameValue(as: property) }) {
            throw error(.sort, "'\(descriptor.keyPath)': it is neither grouped nor an aggregate")
        }
        if !aggregated && property.isAggregate {
            throw error(.sort, "'\(descriptor.keyPath)': an aggregate needs a grouping")
        }
        let value = try about(.sort, descriptor.keyPath) { try compile(property) }
        return SQLFragment(folded(value.sql.sql, isString(value)) + direction, value.sql.arguments)
    }

    // MARK: - Results

    /// The typed values of one result row.
    /// `statement` is the one `row` comes from: text is read from it with its byte length (``ExactText``).
    func decode(_ row: Row, statement: SQLiteStatement) -> [(String, ObjectValue)] {
        var values: [(String, ObjectValue)] = []
        values.reserveCapacity(columns.count)
        var position = 0
        for (key, column) in columns {
            let stored = ExactText.value(statement, at: Int32(position))
            position += 1
            switch column.type {
            case .object:
                let number: Int? = row[position]
                position += 1
                guard let pk = Int64.fromDatabaseValue(stored) else { values.append((key, .null)); continue }
                let name = number.flatMap { store.layout.entity(number: $0)?.name } ?? "?"
                values.append((key, .string(ObjectID(storeUUID: store.metadata.uuid, entity: name, primaryKey: pk).description)))
            default:
                values.append((key, Self.value(stored, column.type)))
            }
        }
        return values
    }

    static func value(_ stored: DatabaseValue, _ type: ResultType) -> ObjectValue {
        switch (type, stored.storage) {
        case (_, .null): return .null
        case (.attribute(let attribute), _): return AttributeCoding.objectValue(stored, for: attribute)
        case (.integer, .int64(let i)): return .integer(i)
        case (.integer, .double(let d)) where d == d.rounded() && abs(d) < 9.2e18: return .integer(Int64(d))
        case (.double, .int64(let i)): return .double(Double(i))
        case (.decimal, .int64(let i)): return .decimal(Double(i))
        case (.decimal, .double(let d)): return .decimal(d)
        case (_, .int64(let i)): return .integer(i)
        case (_, .double(let d)): return .double(d)
        case (_, .string(let s)): return .string(s)
        case (_, .blob(let data)): return .data(data)
        }
    }
}

extension ResultType {
    var isInteger: Bool {
        switch self {
        case .integer: return true
        case .attribute(let a): return a.type.isInteger || a.type == .boolean
        default: return false
        }
    }
}
