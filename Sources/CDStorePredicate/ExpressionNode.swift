/// An expression: an operand of a comparison, in the shape of `NSExpression`.
package indirect enum ExpressionNode: Equatable, Sendable {
    /// A constant value. Literal arrays whose members are all constants fold into `.constant(.array(…))`,
    /// a minus in front of a number literal folds into the number, and `CAST(constant, "NSDate")` folds
    /// into `.constant(.date(…))`.
    case constant(PredicateValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// A key path relative to the evaluated object: `name`, `department.manager.name`, `employees.@count`,
    /// `SELF.x` (stored as `x`).
    case keyPath(PredicateKeyPath)
    /// A key path applied to the value of another expression: `$r.name`, `SUBQUERY(…).@count`, `a[0].b`.
    case member(ExpressionNode, PredicateKeyPath)
    /// `$name`: a variable bound by `substituting(variables:)`, by a `SUBQUERY`, or at evaluation.
    case variable(String)
    /// `{a, b, …}` with at least one non-constant member (all-constant ones fold into `.constant(.array)`).
    case aggregate([ExpressionNode])
    /// A built-in function call, named by its Foundation selector: `sum(x)` and `sum:(x)` are
    /// `.function("sum:", [x])`, `now()` is `.function("now", [])`, `add:to:(1, 2)` is
    /// `.function("add:to:", [1, 2])`, and `a & b` is `.function("bitwiseAnd:with:", [a, b])`.
    case function(String, [ExpressionNode])
    /// `a + b`, `a - b`, `a * b`, `a / b`, `a ** b`.
    case arithmetic(ArithmeticOperator, ExpressionNode, ExpressionNode)
    /// Unary minus of a non-literal, `-x`.
    case negate(ExpressionNode)
    /// `x[FIRST]`, `x[LAST]`, `x[SIZE]`, `x[expr]`.
    case index(ExpressionNode, PredicateIndex)
    /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which `predicate`
    /// holds with `$variable` bound to the element.
    case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    /// `CAST(value, "Type")` where it did not fold into a constant; `type` is e.g. `NSDate`, `NSNumber`.
    case cast(ExpressionNode, type: String)
    /// `TERNARY(predicate, ifTrue, ifFalse)`.
    case ternary(PredicateNode, ExpressionNode, ExpressionNode)
    /// `$name := value`.
    case assignment(variable: String, value: ExpressionNode)
    /// `FUNCTION(receiver, "selector", arguments…)`: a method call; in-memory only in Foundation.
    case invocation(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])
    /// `FETCH(request, context, countOnly)`.
    case fetch(ExpressionNode, ExpressionNode, ExpressionNode)
    /// `ANYKEY` (Spotlight only).
    case anyKey
    /// `a UNION b`, `a INTERSECT b`, `a MINUS b`.
    case setOperation(SetOperator, ExpressionNode, ExpressionNode)
}

/// A binary arithmetic operator.
package enum ArithmeticOperator: String, Equatable, Sendable, CaseIterable {
    /// `+`, Foundation's `add:to:`.
    case add = "+"
    /// `-`, Foundation's `from:subtract:`.
    case subtract = "-"
    /// `*`, Foundation's `multiply:by:`.
    case multiply = "*"
    /// `/`, Foundation's `divide:by:`; always a floating-point division.
    case divide = "/"
    /// `**`, Foundation's `raise:toPower:`.
    case power = "**"

    /// Binding strength for printing; larger binds tighter.
    var precedence: Int {
        switch self {
        case .add, .subtract: return 1
        case .multiply, .divide: return 2
        case .power: return 3
        }
    }
}

/// A set expression operator (not supported by Core Data, parsed for completeness).
package enum SetOperator: String, Equatable, Sendable, CaseIterable {
    /// `UNION`.
    case union = "UNION"
    /// `INTERSECT`.
    case intersect = "INTERSECT"
    /// `MINUS`.
    case minus = "MINUS"
}

/// What goes between `[` and `]` after an expression.
package indirect enum PredicateIndex: Equatable, Sendable {
    /// `[FIRST]`.
    case first
    /// `[LAST]`.
    case last
    /// `[SIZE]`: the number of elements.
    case size
    /// `[n]` or `['key']`.
    case expression(ExpressionNode)
}

extension ExpressionNode {
    /// A key path expression from a dotted string, e.g. `.keyPath("department.name")`.
    package static func keyPath(_ dotted: String) -> ExpressionNode {
        .keyPath(PredicateKeyPath(dotted))
    }

    /// Applies `path` to `base`, keeping key paths flat: `SELF` + `x` is the plain key path `x`, and a key
    /// path applied to a key path is one longer key path.
    package static func applying(_ path: PredicateKeyPath, to base: ExpressionNode) -> ExpressionNode {
        switch base {
        case .evaluatedObject: return .keyPath(path)
        case .keyPath(let p): return .keyPath(p + path)
        case .member(let inner, let p): return .member(inner, p + path)
        default: return .member(base, path)
        }
    }

    /// Builds `{…}`, folding it into a constant array when every member is a constant.
    package static func makeAggregate(_ members: [ExpressionNode]) -> ExpressionNode {
        var values: [PredicateValue] = []
        for member in members {
            guard case .constant(let v) = member else { return .aggregate(members) }
            values.append(v)
        }
        return .constant(.array(values))
    }

    /// The constant value, when this is a constant.
    package var constantValue: PredicateValue? {
        if case .constant(let v) = self { return v }
        return nil
    }
}
