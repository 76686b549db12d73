import CDStoreJSON
import CDStoreModel
import CDStorePredicate

/// Archives predicate and expression text as Foundation's `NSPredicate`/`NSExpression` objects, for the model
/// caches cdstore writes (``ModelArchiver`` asks for it; the model layer cannot import the parser).
///
/// Covered: `TRUEPREDICATE`/`FALSEPREDICATE`, `NOT`/`AND`/`OR`, comparisons with every operator but the UTI
/// ones, `ANY`/`ALL` (`NONE` as `NOT ANY`, as Foundation parses it), the `[cdnl]` options; constants (nil,
/// Booleans, numbers, strings, dates, constant arrays), `SELF`, key paths (also applied to a variable or other
/// expression), `$variables`, `{…}` aggregates, built-in functions (`now()`, `count:(…)`, …), arithmetic (as
/// the functions `add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`, `raise:toPower:`) and
/// `FUNCTION(receiver, "selector", …)` — everything ``ArchivedPredicateFormatter`` reads back.
/// Refused with a message: `SUBQUERY`, `TERNARY`, `CAST` that did not fold into a constant, indexes
/// (`[FIRST]`, `[n]`), unary minus of a non-literal, assignments, `FETCH`, `ANYKEY`, set operations and
/// `UTI-CONFORMS-TO`/`UTI-EQUALS` — Foundation's archived forms of these are not in the corpus.
package struct PredicateArchiver: PredicateArchiving {
    /// A construct this archiver does not write.
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates an archiver.
    package init() {}

    /// Parses `text` as a predicate and writes it; throws the parser's error or ``Unsupported``.
    package func archivePredicate(_ text: String, into builder: inout KeyedArchiveBuilder) throws -> PropertyListValue {
        try predicate(try PredicateParser.parse(text), &builder)
    }

    /// Parses `text` as an expression and writes it; throws the parser's error or ``Unsupported``.
    package func archiveExpression(_ text: String, into builder: inout KeyedArchiveBuilder) throws -> PropertyListValue {
        try expression(try PredicateParser.parseExpression(text), &builder)
    }

    func predicate(_ node: PredicateNode, _ b: inout KeyedArchiveBuilder) throws -> PropertyListValue {
        switch node {
        case .constant(let value):
            return b.constantPredicate(value)
        case .not(let inner):
            return b.compoundPredicate(type: 0, [try predicate(inner, &b)])
        case .and(let parts):
            return b.compoundPredicate(type: 1, try parts.map { try predicate($0, &b) })
        case .or(let parts):
            return b.compoundPredicate(type: 2, try parts.map { try predicate($0, &b) })
        case .comparison(let c):
            if c.modifier == .none {
                var any = c
                any.modifier = .any
                return b.compoundPredicate(type: 0, [try predicate(.comparison(any), &b)])
            }
            let left = try expression(c.left, &b)
            let right = try expression(c.right, &b)
            let modifier: KeyedArchiveBuilder.ComparisonModifier = c.modifier == .all ? .all : c.modifier == .any ? .any : .direct
            return b.comparisonPredicate(left, try operatorType(c.op), right, modifier: modifier,
                                         options: Int64(c.options.rawValue))
        }
    }

    func operatorType(_ op: ComparisonOperator) throws -> KeyedArchiveBuilder.OperatorType {
        switch op {
        case .equal: .equal
        case .notEqual: .notEqual
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqual
        case .between: .between
        case .in: .in
        case .contains: .contains
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .like: .like
        case .matches: .matches
        case .utiConformsTo, .utiEquals: throw Unsupported(description: "the operator \(op.symbol) is not archived")
        }
    }

    func expression(_ node: ExpressionNode, _ b: inout KeyedArchiveBuilder) throws -> PropertyListValue {
        switch node {
        case .constant(let value):
            return b.constantExpression(constant(value, &b))
        case .evaluatedObject:
            return b.selfExpression()
        case .keyPath(let path):
            return b.keyPathExpression(path.description)
        case .member(let base, let path):
            let operand = try expression(base, &b)
            return b.keyPathExpression(path.description, operand: operand)
        case .variable(let name):
            return b.variableExpression(name)
        case .aggregate(let members):
            return b.aggregateExpression(try members.map { try expression($0, &b) })
        case .function(let selector, let arguments):
            return b.functionExpression(selector, arguments: try arguments.map { try expression($0, &b) })
        case .arithmetic(let op, let left, let right):
            let selector = switch op {
            case .add: "add:to:"
            case .subtract: "from:subtract:"
            case .multiply: "multiply:by:"
            case .divide: "divide:by:"
            case .power: "raise:toPower:"
            }
            return b.functionExpression(selector, arguments: [try expression(left, &b), try expression(right, &b)])
        case .invocation(let receiver, let selector, let arguments):
            let target = try expression(receiver, &b)
            return b.functionExpression(selector, arguments: try arguments.map { try expression($0, &b) }, receiver: target)
        case .negate, .index, .subquery, .cast, .ternary, .assignment, .fetch, .anyKey, .setOperation:
            throw Unsupported(description: "'\(PredicateFormatter.format(node))' is not archived (only constants, SELF, key "
                              + "paths, variables, aggregates and functions are)")
        }
    }

    /// A constant's value object.
    func constant(_ value: PredicateValue, _ b: inout KeyedArchiveBuilder) -> PropertyListValue {
        switch value {
        case .null: return KeyedArchiveBuilder.null
        case .bool(let v): return b.number(v)
        case .int(let v): return b.number(v)
        case .double(let v): return b.number(v)
        case .string(let v): return b.string(v)
        case .date(let v): return b.date(v.timeIntervalSinceReferenceDate)
        case .array(let items): return b.array(items.map { constant($0, &b) })
        }
    }
}
