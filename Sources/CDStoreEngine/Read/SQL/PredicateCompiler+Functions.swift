import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

/// NSExpression functions and CAST, compiled to SQL.
extension PredicateCompiler {
    /// NSExpression's functions that SQL can compute. Calls whose arguments are all constants are folded by
    /// the in-memory evaluator, so both always agree on them.
    func function(_ name: String, _ arguments: [ExpressionNode]) throws -> Operand {
        if name == "random" || name == "random:" || name == "randomn:" {
            throw unsupported("\(name)() cannot run in Core Data's SQLite store")
        }
        if !arguments.isEmpty, arguments.allSatisfy({ $0.constantValue != nil }) || name == "now" {
            do {
                let result = try PredicateEvaluator().value(of: .function(name, arguments), with: .null)
                if let constant = PredicateCompiler.constant(result) {
                    return constant.isNull ? Operand(sql: "NULL", arguments: [], kind: .null)
                        : Operand(sql: "?", arguments: [], kind: .constant(constant))
                }
            } catch {
                throw unsupported(error.message)
            }
        }
        let aggregates: [String: CollectionOperator] = ["sum:": .sum, "count:": .count, "min:": .min, "max:": .max,
                                                         "average:": .avg]
        if let op = aggregates[name], arguments.count == 1 {
            let value = try operand(arguments[0])
            guard let collection = value.collection else {
                throw unsupported("\(name)(…) needs a to-many key path or a constant list")
            }
            return try checkedAggregate(op, collection, whole: PredicateFormatter.format(arguments[0]))
        }
        switch name {
        case "now":
            return Operand(sql: "?", arguments: [], kind: .constant(.date(Date())))
        case "abs:": return call("abs($0)", try functionArguments(name, arguments, 1))
        case "floor:", "ceiling:", "sqrt:", "trunc:", "ln:", "exp:", "log:":
            let fn = String(name.dropLast())
            return call("\(SQLFunctions.math)('\(fn)', $0)", try functionArguments(name, arguments, 1))
        case "add:to:": return call("($0 + $1)", try functionArguments(name, arguments, 2))
        case "from:subtract:": return call("($0 - $1)", try functionArguments(name, arguments, 2))
        case "multiply:by:": return call("($0 * $1)", try functionArguments(name, arguments, 2))
        case "divide:by:": return call("($0 / CAST($1 AS REAL))", try functionArguments(name, arguments, 2))
        case "raise:toPower:": return call("\(SQLFunctions.power)($0, $1)", try functionArguments(name, arguments, 2))
        case "modulus:by:": return call("\(SQLFunctions.modulus)($0, $1)", try functionArguments(name, arguments, 2))
        case "bitwiseAnd:with:": return call("($0 & $1)", try functionArguments(name, arguments, 2))
        case "bitwiseOr:with:": return call("($0 | $1)", try functionArguments(name, arguments, 2))
        case "bitwiseXor:with:": return call("(($0 | $1) - ($0 & $1))", try functionArguments(name, arguments, 2))
        case "leftshift:by:": return call("($0 << $1)", try functionArguments(name, arguments, 2))
        case "rightshift:by:": return call("($0 >> $1)", try functionArguments(name, arguments, 2))
        case "onesComplement:": return call("(~$0)", try functionArguments(name, arguments, 1))
        case "lowercase:", "uppercase:":
            guard arguments.count == 1 else { throw invalid("\(name) takes 1 argument") }
            let value = try operand(arguments[0]).bound()
            if let attribute = value.attribute, attribute.type != .string && attribute.type != .uri {
                throw invalid("type mismatch: \(name) needs a string, but '\(attribute.name)' is \(attribute.type.rawValue)")
            }
            let fn = name == "lowercase:" ? SQLFunctions.lowercase : SQLFunctions.uppercase
            return Operand(sql: "\(fn)(\(value.sql))", arguments: value.arguments, kind: .value)
        case "noindex:":
            guard arguments.count == 1 else { throw invalid("noindex: takes 1 argument") }
            return try operand(arguments[0])
        default:
            throw unsupported("the function \(name.hasSuffix(":") ? String(name.dropLast()) : name)() cannot run in "
                              + "Core Data's SQLite store")
        }
    }


    func functionArguments(_ name: String, _ arguments: [ExpressionNode], _ n: Int) throws -> [Operand] {
        guard arguments.count == n else {
            throw invalid("\(name) takes \(n) argument\(n == 1 ? "" : "s"), got \(arguments.count)")
        }
        var out: [Operand] = []
        for argument in arguments { out.append(try numeric(operand(argument))) }
        return out
    }

    /// Fills `$0`, `$1`… in `template` with the operands' SQL, binding their values in order of appearance.
    func call(_ template: String, _ values: [Operand]) -> Operand {
        var sql = "", arguments: [DatabaseValue] = []
        var characters = template.makeIterator()
        while let c = characters.next() {
            guard c == "$", let digit = characters.next(), let i = digit.wholeNumberValue else {
                sql.append(c)
                continue
            }
            sql += values[i].sql
            arguments += values[i].arguments
        }
        return Operand(sql: sql, arguments: arguments, kind: .value)
    }

    static func constant(_ value: EvaluationValue) -> PredicateValue? {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .date(let d): return .date(d)
        case .collection(let items):
            var out: [PredicateValue] = []
            for item in items {
                guard let c = constant(item) else { return nil }
                out.append(c)
            }
            return .array(out)
        case .object: return nil
        }
    }

    /// `CAST(x, 'NSDate' | 'NSNumber' | 'NSString')`. Constants are folded (a date from seconds since 2001 or
    /// from an ISO 8601 string); column values are converted in SQL.
    func cast(_ inner: ExpressionNode, _ type: String) throws -> Operand {
        let value = try operand(inner)
        if case .constant(let constant) = value.kind {
            do {
                let result = try PredicateEvaluator().value(of: .cast(.constant(constant), type: type), with: .null)
                if let folded = PredicateCompiler.constant(result) {
                    return Operand(sql: "?", arguments: [], kind: .constant(folded))
                }
            } catch {
                throw invalid(error.message)
            }
        }
        switch type {
        case "NSDate":
            if let attribute = value.attribute, !(attribute.type == .date || attribute.type.isNumeric) {
                throw invalid("type mismatch: CAST(…, 'NSDate') needs a number, but '\(attribute.name)' is "
                              + attribute.type.rawValue)
            }
            let bound = value.bound()
            return Operand(sql: bound.sql, arguments: bound.arguments, kind: .value)
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
