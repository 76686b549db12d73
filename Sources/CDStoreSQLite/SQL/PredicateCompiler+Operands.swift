import CDStoreModel
import CDStorePredicate
import Foundation
import GRDB

/// One side of a comparison, compiled.
struct Operand {
    enum Kind {
        /// A column or computed SQL value.
        case value
        /// A literal NULL.
        case null
        /// A constant not yet bound, so that it can take the type of the attribute it meets.
        case constant(PredicateValue)
        /// `{a, b, c}`: a list of operands (IN, BETWEEN).
        case list([Operand])
    }
    var sql: String
    var arguments: [DatabaseValue]
    var kind: Kind
    /// The attribute when the operand is a plain attribute column.
    var attribute: Attribute?

    var isNull: Bool { if case .null = kind { return true } else { return false } }

    /// This operand with constants converted to how `attribute` stores values.
    func typed(as attribute: Attribute, operator op: ComparisonOperator) throws -> Operand {
        switch kind {
        case .constant(let value):
            let stored = try Operand.store(value, as: attribute, stringOperator: op.isStringOperator)
            return Operand(sql: "?", arguments: [stored], kind: .value, attribute: nil)
        case .list(let items):
            return Operand(sql: sql, arguments: arguments, kind: .list(try items.map { try $0.typed(as: attribute, operator: op) }),
                           attribute: nil)
        case .value, .null:
            return self
        }
    }

    /// A constant bound with no attribute to type it.
    func bound() -> Operand {
        switch kind {
        case .constant(let value):
            return Operand(sql: "?", arguments: [Operand.untyped(value)], kind: .value, attribute: nil)
        case .list(let items):
            return Operand(sql: sql, arguments: arguments, kind: .list(items.map { $0.bound() }), attribute: nil)
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
                throw StoreError(.invalidInput, "predicate: a date cannot be compared with a \(attribute.type.rawValue) attribute",
                                 property: attribute.name)
            }
            return d.timeIntervalSinceReferenceDate.databaseValue
        case .array:
            throw StoreError(.invalidInput, "predicate: a list cannot be compared with '\(attribute.name)' here "
                             + "(use IN or BETWEEN)", property: attribute.name)
        }
        do {
            if attribute.type.isInteger, case .double(let d) = input, d != d.rounded() {
                return d.databaseValue
            }
            return try AttributeCoding.storedValue(input, for: attribute)
        } catch let error as StoreError {
            throw StoreError(.invalidInput, "predicate: \(error.message)", property: attribute.name)
        }
    }
}

extension PredicateCompiler {
    /// Compiles an expression into an operand.
    func operand(_ expression: ExpressionNode) throws -> Operand {
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
            return try column(for: path)
        case .evaluatedObject:
            return Operand(sql: "t.Z_PK", arguments: [], kind: .value)
        case .arithmetic(let op, let lhs, let rhs):
            let l = try numeric(operand(lhs)), r = try numeric(operand(rhs))
            if op == .power {
                return Operand(sql: "\(SQLFunctions.power)(\(l.sql), \(r.sql))", arguments: l.arguments + r.arguments, kind: .value)
            }
            let symbol = op.rawValue
            // Integer division in SQLite truncates; NSExpression divides as doubles.
            let right = op == .divide ? "CAST(\(r.sql) AS REAL)" : r.sql
            return Operand(sql: "(\(l.sql) \(symbol) \(right))", arguments: l.arguments + r.arguments, kind: .value)
        case .negate(let inner):
            let value = try numeric(operand(inner))
            return Operand(sql: "(-\(value.sql))", arguments: value.arguments, kind: .value)
        case .function(let name, let arguments):
            return try function(name, arguments)
        case .cast(let inner, let type):
            return try cast(inner, type)
        case .variable(let name):
            throw invalid("variable $\(name) has no value (give it with --var \(name)=VALUE)")
        default:
            throw unsupported("the expression '\(PredicateFormatter.format(expression))' cannot run in Core Data's SQLite store")
        }
    }

    private func numeric(_ operand: Operand) throws -> Operand {
        if case .constant(let value) = operand.kind {
            guard let number = value.numericValue else {
                throw invalid("arithmetic needs numbers, got \(PredicateFormatter.format(.constant(value)))")
            }
            return Operand(sql: "?", arguments: [number == number.rounded() && abs(number) < 9e15
                                                  ? Int64(number).databaseValue : number.databaseValue], kind: .value)
        }
        if let attribute = operand.attribute, !(attribute.type.isNumeric || attribute.type == .date || attribute.type == .boolean) {
            throw invalid("arithmetic needs numbers, but '\(attribute.name)' is \(attribute.type.rawValue)")
        }
        return Operand(sql: operand.sql, arguments: operand.arguments, kind: .value)
    }

    private func column(for path: PredicateKeyPath) throws -> Operand {
        var keys = path.keys
        if keys.first == "SELF", keys.count > 1 { keys.removeFirst() }
        guard keys.count == 1, !path.hasCollectionOperator, let key = keys.first else {
            throw unsupported("key path '\(path)' crosses a relationship, which is not supported yet")
        }
        guard let entityLayout = layout.entity(named: entity.name) else {
            throw invalid("no table for entity \(entity.name)")
        }
        if let attribute = model.attribute(key, of: entity) {
            guard let column = entityLayout.attributeColumns[key] else {
                throw invalid("'\(key)' is transient and not stored, so it cannot be used in a predicate")
            }
            return Operand(sql: "t.\(column)", arguments: [], kind: .value, attribute: attribute)
        }
        if model.relationship(key, of: entity) != nil {
            throw unsupported("comparing the relationship '\(key)' is not supported yet")
        }
        let candidates = model.attributes(of: entity).map(\.name) + model.relationships(of: entity).map(\.name)
        throw StoreError(.unknownName, "predicate: no attribute '\(key)'" + Suggestion.didYouMean(key, among: candidates),
                         entity: entity.name)
    }

    private func function(_ name: String, _ arguments: [ExpressionNode]) throws -> Operand {
        switch (name.lowercased(), arguments.count) {
        case ("now", 0):
            return Operand(sql: "?", arguments: [Date().timeIntervalSinceReferenceDate.databaseValue], kind: .value)
        case ("abs", 1), ("lowercase", 1), ("uppercase", 1), ("floor", 1), ("ceiling", 1), ("sqrt", 1), ("trunc", 1),
             ("ln", 1), ("exp", 1), ("log", 1):
            let value = try operand(arguments[0]).bound()
            let sql: String
            switch name.lowercased() {
            case "abs": sql = "abs(\(value.sql))"
            case "lowercase": sql = "\(SQLFunctions.lowercase)(\(value.sql))"
            case "uppercase": sql = "\(SQLFunctions.uppercase)(\(value.sql))"
            default: sql = "\(SQLFunctions.math)('\(name.lowercased())', \(value.sql))"
            }
            return Operand(sql: sql, arguments: value.arguments, kind: .value)
        default:
            throw unsupported("the function \(name)() cannot run in Core Data's SQLite store")
        }
    }

    private func cast(_ inner: ExpressionNode, _ type: String) throws -> Operand {
        let value = try operand(inner)
        switch type {
        case "NSDate":
            if case .constant(let constant) = value.kind {
                if let number = constant.numericValue { return Operand(sql: "?", arguments: [], kind: .constant(.date(Date(timeIntervalSinceReferenceDate: number)))) }
                if case .string(let text) = constant, let seconds = DateParsing.secondsSince2001(text) {
                    return Operand(sql: "?", arguments: [], kind: .constant(.date(Date(timeIntervalSinceReferenceDate: seconds))))
                }
                throw invalid("CAST(…, 'NSDate') needs seconds since 2001-01-01 or an ISO 8601 date")
            }
            return Operand(sql: value.sql, arguments: value.arguments, kind: .value)
        case "NSNumber":
            let bound = value.bound()
            return Operand(sql: "CAST(\(bound.sql) AS NUMERIC)", arguments: bound.arguments, kind: .value)
        case "NSString":
            let bound = value.bound()
            return Operand(sql: "CAST(\(bound.sql) AS TEXT)", arguments: bound.arguments, kind: .value)
        default:
            throw unsupported("CAST to '\(type)' is not supported (NSDate, NSNumber and NSString are)")
        }
    }
}
