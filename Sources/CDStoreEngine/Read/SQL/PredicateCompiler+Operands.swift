import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

/// One side of a comparison, compiled.
struct Operand {
    indirect enum Kind {
        /// A column or computed SQL value.
        case value
        /// A literal NULL.
        case null
        /// A constant not yet bound, so that it can take the type of the attribute it meets.
        case constant(PredicateValue)
        /// `{a, b, c}`: a list of operands (IN, BETWEEN).
        case list([Operand])
        /// An object: `sql` is its `Z_PK` (or the foreign key that holds it). Compares with nil and with
        /// objects of the same table only.
        case object(Entity)
        /// The values of a key path through a to-many relationship (or a `SUBQUERY`): the rows of `source`,
        /// `element` being the value of one of them.
        case collection(CollectionOperand)
    }
    var sql: String
    var arguments: [DatabaseValue]
    var kind: Kind
    /// The attribute when the operand is an attribute column (or an aggregate keeping its type).
    var attribute: Attribute?

    init(sql: String, arguments: [DatabaseValue], kind: Kind, attribute: Attribute? = nil) {
        self.sql = sql
        self.arguments = arguments
        self.kind = kind
        self.attribute = attribute
    }

    var isNull: Bool { if case .null = kind { return true } else { return false } }
    var collection: CollectionOperand? { if case .collection(let c) = kind { return c } else { return nil } }
    var objectEntity: Entity? { if case .object(let e) = kind { return e } else { return nil } }

    /// This operand with constants converted to how `attribute` stores values.
    func typed(as attribute: Attribute, operator op: ComparisonOperator) throws -> Operand {
        switch kind {
        case .constant(let value):
            let stored = try Operand.store(value, as: attribute, stringOperator: op.isStringOperator)
            return Operand(sql: "?", arguments: [stored], kind: .value)
        case .list(let items):
            return Operand(sql: sql, arguments: arguments, kind: .list(try items.map { try $0.typed(as: attribute, operator: op) }))
        default:
            return self
        }
    }

    /// A constant bound with no attribute to type it.
    func bound() -> Operand {
        switch kind {
        case .constant(let value):
            return Operand(sql: "?", arguments: [Operand.untyped(value)], kind: .value)
        case .list(let items):
            return Operand(sql: sql, arguments: arguments, kind: .list(items.map { $0.bound() }))
        default:
            return self
        }
    }

    static func untyped(_ value: PredicateValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .bool(let b): (b ? 1 : 0).databaseValue
        case .int(let i): i.databaseValue
        case .double(let d): d.databaseValue
        case .string(let s): s.databaseValue
        case .date(let d): d.timeIntervalSinceReferenceDate.databaseValue
        case .array: .null
        }
    }

    /// Converts a predicate constant the way the attribute stores values; string operators keep strings.
    static func store(_ value: PredicateValue, as attribute: Attribute, stringOperator: Bool) throws -> DatabaseValue {
        if stringOperator { return untyped(value) }
        let input: InputValue
        switch value {
        case .null: return .null
        case .bool(let b):
            input = attribute.type == .boolean ? .bool(b) : .integer(b ? 1 : 0)
        case .int(let i):
            input = attribute.type == .boolean && (i == 0 || i == 1) ? .bool(i == 1) : .integer(i)
        case .double(let d): input = .double(d)
        case .string(let s): input = .string(s)
        case .date(let d):
            guard attribute.type == .date || attribute.type.isNumeric else {
                throw StoreError(.invalidInput, "a date cannot be compared with '\(attribute.name)', "
                                 + "which is \(attribute.type.rawValue)", property: attribute.name).about(.predicate)
            }
            return d.timeIntervalSinceReferenceDate.databaseValue
        case .array:
            throw StoreError(.invalidInput, "a list cannot be compared with '\(attribute.name)' here "
                             + "(use IN or BETWEEN)", property: attribute.name).about(.predicate)
        }
        do {
            if attribute.type.isInteger, case .double(let d) = input, d != d.rounded() {
                return d.databaseValue
            }
            return try AttributeCoding.storedValue(input, for: attribute)
        } catch let error as StoreError {
            throw StoreError(.invalidInput, "type mismatch: \(error.message)", property: attribute.name).about(.predicate)
        }
    }
}

/// The values of a to-many key path: the rows of ``source``, one value (``element``) per row.
struct CollectionOperand {
    var source: PathSource
    var element: Operand
    /// The scope of each element when the elements are objects (for `SUBQUERY` variables and further keys).
    var elementScope: Scope?
}

extension PredicateValue {
    var isArray: Bool { if case .array = self { return true } else { return false } }
}

extension PredicateCompiler {
    /// Compiles an expression into an operand.
    func operand(_ expression: ExpressionNode) throws -> Operand {
        try nesting.enter(self)
        defer { nesting.leave() }
        return try operandNode(expression)
    }

    private func operandNode(_ expression: ExpressionNode) throws -> Operand {
        switch expression {
        case .constant(let value):
            if case .null = value { return Operand(sql: "NULL", arguments: [], kind: .null) }
            if case .array(let items) = value {
                return Operand(sql: "", arguments: [], kind: .list(items.map { item in
                    if case .null = item { return Operand(sql: "NULL", arguments: [], kind: .null) }
                    return Operand(sql: "?", arguments: [], kind: .constant(item))
                }))
            }
            return Operand(sql: "?", arguments: [], kind: .constant(value))
        case .aggregate(let items):
            return Operand(sql: "", arguments: [], kind: .list(try items.map { try operand($0) }))
        case .keyPath(let path):
            return try keyPath(path.components, from: root, source: nil)
        case .evaluatedObject:
            return Operand(sql: "\(root.alias).Z_PK", arguments: [], kind: .object(root.entity))
        case .variable(let name):
            if let bound = bindings[name] { return bound }
            throw invalid("variable $\(name) has no value").about(.variables)
        case .member(let base, let path):
            return try member(base, path)
        case .subquery(let collectionExpression, let variable, let predicate):
            return try subquery(collectionExpression, variable, predicate)
        case .arithmetic(let op, let lhs, let rhs):
            let l = try numeric(operand(lhs)), r = try numeric(operand(rhs))
            if op == .power {
                return Operand(sql: "\(SQLFunctions.power)(\(l.sql), \(r.sql))", arguments: l.arguments + r.arguments, kind: .value)
            }
            // Integer division in SQLite truncates; NSExpression divides as doubles.
            let right = op == .divide ? "CAST(\(r.sql) AS REAL)" : r.sql
            return Operand(sql: "(\(l.sql) \(op.rawValue) \(right))", arguments: l.arguments + r.arguments, kind: .value)
        case .negate(let inner):
            let value = try numeric(operand(inner))
            return Operand(sql: "(-\(value.sql))", arguments: value.arguments, kind: .value)
        case .function(let name, let arguments):
            return try function(name, arguments)
        case .cast(let inner, let type):
            return try cast(inner, type)
        case .index(let base, .size):
            let value = try operand(base)
            guard let collection = value.collection else {
                throw unsupported("[SIZE] needs a to-many key path")
            }
            return aggregate(.count, collection)
        case .index:
            throw unsupported("index expressions ([FIRST], [LAST], [n]) cannot run in Core Data's SQLite store; "
                              + "use [SIZE] or @count")
        case .ternary(let condition, let a, let b):
            let test = try compile(condition)
            let x = try operand(a).bound(), y = try operand(b).bound()
            guard x.collection == nil, y.collection == nil, case .value = x.kind, case .value = y.kind else {
                throw unsupported("TERNARY needs single values")
            }
            return Operand(sql: "(CASE WHEN \(test.sql) THEN \(x.sql) ELSE \(y.sql) END)",
                           arguments: test.arguments + x.arguments + y.arguments, kind: .value)
        case .assignment:
            throw unsupported("variable assignment ($x := …) cannot run in Core Data's SQLite store")
        case .invocation(_, let selector, _):
            throw unsupported("FUNCTION(…, '\(selector)') calls a method in memory; Core Data's SQLite store cannot run it")
        case .fetch:
            throw unsupported("FETCH(…) cannot run in a predicate of Core Data's SQLite store")
        case .anyKey:
            throw unsupported("ANYKEY is for Spotlight only; Core Data's SQLite store cannot run it")
        case .setOperation(let op, _, _):
            throw unsupported("set expressions (\(op.rawValue)) cannot run in Core Data's SQLite store")
        }
    }

    /// A key path (possibly with one collection operator) from `scope`, continuing `source` when given.
    func keyPath(_ components: [KeyPathComponent], from scope: Scope, source: PathSource?) throws -> Operand {
        var before: [String] = [], after: [String] = []
        var collectionOperator: CollectionOperator?
        for component in components {
            switch component {
            case .key(let key):
                if collectionOperator == nil { before.append(key) } else { after.append(key) }
            case .collectionOperator(let op):
                if case .other(let name) = op {
                    throw unsupported("the collection operator @\(name) cannot run in Core Data's SQLite store "
                                      + "(@count, @sum, @avg, @min and @max can)")
                }
                guard collectionOperator == nil else {
                    throw unsupported("only one collection operator per key path is supported")
                }
                collectionOperator = op
            }
        }
        let whole = PredicateKeyPath(components).description
        let resolved = try resolver.walk(before + after, from: scope, source: source, whole: whole)
        let element: Operand
        switch resolved.value {
        case .attribute(let attribute):
            element = Operand(sql: resolved.sql, arguments: [], kind: .value, attribute: attribute)
        case .object(let entity):
            element = Operand(sql: resolved.sql, arguments: [], kind: .object(entity))
        }
        if let op = collectionOperator {
            guard let source = resolved.source else {
                throw unsupported("@\(op.name) in '\(whole)' needs a key path through a relationship")
            }
            return try checkedAggregate(op, CollectionOperand(source: source, element: element, elementScope: resolved.scope),
                                        whole: whole)
        }
        guard let source = resolved.source else { return element }
        if source.isToMany {
            return Operand(sql: "", arguments: [], kind: .collection(CollectionOperand(source: source, element: element,
                                                                                       elementScope: resolved.scope)))
        }
        // A to-one chain: one value, NULL when a related object is missing.
        let clause = source.clause()
        return Operand(sql: "(SELECT \(element.sql) \(clause.sql))", arguments: clause.arguments, kind: element.kind,
                       attribute: element.attribute)
    }

    func checkedAggregate(_ op: CollectionOperator, _ collection: CollectionOperand, whole: String) throws -> Operand {
        if op != .count {
            guard let attribute = collection.element.attribute else {
                throw invalid("@\(op.name) needs an attribute after it, e.g. 'employees.@\(op.name).salary' (in '\(whole)')")
            }
            let numeric = attribute.type.isNumeric || attribute.type == .date || attribute.type == .boolean
            if (op == .sum || op == .avg) && !numeric {
                throw invalid("type mismatch: @\(op.name) needs numbers, but '\(attribute.name)' is \(attribute.type.rawValue)")
            }
        }
        return aggregate(op, collection)
    }

    /// `(SELECT COUNT(*) | SUM | AVG | MIN | MAX … FROM … WHERE …)`: a correlated aggregate subquery.
    func aggregate(_ op: CollectionOperator, _ collection: CollectionOperand) -> Operand {
        let clause = collection.source.clause()
        let value = collection.element.sql
        let expression: String
        var attribute: Attribute?
        switch op {
        case .count: expression = "COUNT(*)"
        case .sum: expression = "COALESCE(SUM(\(value)), 0)"
        case .avg: expression = "AVG(\(value))"
        case .min: expression = "MIN(\(value))"; attribute = collection.element.attribute
        case .max: expression = "MAX(\(value))"; attribute = collection.element.attribute
        case .other: expression = "NULL"
        }
        let elementArguments = op == .count ? [] : collection.element.arguments
        return Operand(sql: "(SELECT \(expression) \(clause.sql))", arguments: elementArguments + clause.arguments, kind: .value,
                       attribute: attribute)
    }

    /// `$x.key…`, `SUBQUERY(…).@count`, `SUBQUERY(…).key`.
    private func member(_ base: ExpressionNode, _ path: PredicateKeyPath) throws -> Operand {
        let value = try operand(base)
        if let collection = value.collection {
            if path.components == [.collectionOperator(.count)] { return aggregate(.count, collection) }
            guard let scope = collection.elementScope else {
                throw invalid("'\(path)' cannot follow a collection of values")
            }
            return try keyPath(path.components, from: scope, source: collection.source)
        }
        if case .object = value.kind, case .variable(let name) = base, let scope = scopes[name] {
            return try keyPath(path.components, from: scope, source: nil)
        }
        throw unsupported("the key path '\(path)' cannot be applied to '\(PredicateFormatter.format(base))'")
    }

    /// `SUBQUERY(collection, $x, predicate)`: the collection's rows restricted by the predicate, with `$x`
    /// bound to each row's object.
    private func subquery(_ collectionExpression: ExpressionNode, _ variable: String, _ predicate: PredicateNode) throws -> Operand {
        let value = try operand(collectionExpression)
        guard var collection = value.collection, let scope = collection.elementScope else {
            throw invalid("SUBQUERY needs a to-many relationship as its collection, got "
                          + "'\(PredicateFormatter.format(collectionExpression))'")
        }
        var inner = self
        inner.bindings[variable] = collection.element
        inner.scopes[variable] = scope
        let condition = try inner.compile(predicate)
        collection.source.conditions.append(condition)
        return Operand(sql: "", arguments: [], kind: .collection(collection))
    }

    func numeric(_ operand: Operand) throws -> Operand {
        if case .constant(let value) = operand.kind {
            guard let number = value.numericValue else {
                throw invalid("arithmetic needs numbers, got \(PredicateFormatter.format(.constant(value)))")
            }
            return Operand(sql: "?", arguments: [number == number.rounded() && abs(number) < 9e15
                                                  ? Int64(number).databaseValue : number.databaseValue], kind: .value)
        }
        switch operand.kind {
        case .value: break
        case .null: return Operand(sql: "NULL", arguments: [], kind: .value)
        default: throw invalid("arithmetic needs numbers, not a list, an object or a to-many key path")
        }
        if let attribute = operand.attribute, !(attribute.type.isNumeric || attribute.type == .date || attribute.type == .boolean) {
            throw invalid("type mismatch: arithmetic needs numbers, but '\(attribute.name)' is \(attribute.type.rawValue)")
        }
        return Operand(sql: operand.sql, arguments: operand.arguments, kind: .value)
    }
}
