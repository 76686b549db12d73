import CDStoreJSON
import CDStorePredicate

extension PredicateNode {
    /// The predicate with expressions replaced: `transform` returns a replacement, or nil to keep the expression
    /// and look inside it. Outer expressions are offered before inner ones.
    func mappingExpressions(_ transform: (ExpressionNode) -> ExpressionNode?) -> PredicateNode {
        switch self {
        case .constant: return self
        case .not(let inner): return .not(inner.mappingExpressions(transform))
        case .and(let parts): return .and(parts.map { $0.mappingExpressions(transform) })
        case .or(let parts): return .or(parts.map { $0.mappingExpressions(transform) })
        case .comparison(var comparison):
            comparison.left = comparison.left.mapping(transform)
            comparison.right = comparison.right.mapping(transform)
            return .comparison(comparison)
        }
    }
}

extension ExpressionNode {
    /// The expression with sub-expressions replaced as ``PredicateNode/mappingExpressions(_:)`` does. `SUBQUERY`
    /// predicates are left alone: their key paths belong to the subquery's variable.
    func mapping(_ transform: (ExpressionNode) -> ExpressionNode?) -> ExpressionNode {
        if let replaced = transform(self) { return replaced }
        switch self {
        case .constant, .evaluatedObject, .keyPath, .variable, .anyKey, .fetch, .subquery: return self
        case .member(let base, let path): return .member(base.mapping(transform), path)
        case .aggregate(let items): return .aggregate(items.map { $0.mapping(transform) })
        case .function(let name, let arguments): return .function(name, arguments.map { $0.mapping(transform) })
        case .arithmetic(let op, let a, let b): return .arithmetic(op, a.mapping(transform), b.mapping(transform))
        case .negate(let inner): return .negate(inner.mapping(transform))
        case .index(let base, let index): return .index(base.mapping(transform), index)
        case .cast(let inner, let type): return .cast(inner.mapping(transform), type: type)
        case .ternary(let test, let a, let b):
            return .ternary(test.mappingExpressions(transform), a.mapping(transform), b.mapping(transform))
        case .assignment(let variable, let value): return .assignment(variable: variable, value: value.mapping(transform))
        case .invocation(let receiver, let selector, let arguments):
            return .invocation(receiver: receiver.mapping(transform), selector: selector, arguments: arguments.map { $0.mapping(transform) })
        case .setOperation(let op, let a, let b): return .setOperation(op, a.mapping(transform), b.mapping(transform))
        }
    }
}
