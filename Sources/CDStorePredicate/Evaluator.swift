import Foundation

/// Evaluates predicates in memory, as `NSPredicate.evaluate(with:)` does, but with the NULL semantics of
/// Core Data's SQLite store so that in-memory and SQL results agree:
///
/// - A comparison with a nil operand is false, except `== nil` (true when the other side is nil too) and
///   `!= nil` (true when the other side is not nil). So `name != "v"` is **false** when `name` is nil, as
///   SQL's `name <> 'v'` is; Foundation's in-memory evaluation would say true. Missing keys are nil.
/// - A key path through a to-many relationship yields the collection of values (nested collections are
///   flattened, like the joins SQL uses); a direct comparison on such a collection means `ANY`, except for
///   `CONTAINS` (collection membership) and comparisons of two collections with `==`/`!=`.
/// - `ALL` over an empty collection is true; `ANY` is false; `NONE` is true.
/// - Numbers compare across integer and floating types, booleans are 0/1, and dates compare by time (and with
///   numbers as seconds since 2001-01-01).
/// - A string constant compared with an attribute's value takes its type (`age == "34"`), as SQL types it by the
///   attribute; any other string compared with a number, boolean or date is a type mismatch (`"2" <= 2`,
///   `name == 5`) — see `Evaluator+Types.swift`.
/// - `/` always divides in floating point (Foundation's `divide:by:`); `@avg`, `@min`, `@max` of an empty
///   collection are nil (SQL's aggregate behaviour) and `@sum` of it is 0.
/// - String operators on an operand that is neither a string nor nil are a type mismatch.
/// - Set expressions (`UNION`, `INTERSECT`, `MINUS`) are refused, as Core Data's SQLite store refuses them.
package struct PredicateEvaluator {
    /// Values for `$VARIABLES` that the predicate still contains.
    package var variables: [String: EvaluationValue]
    /// The value of `now()`, fixed for the evaluator so that every row sees the same instant.
    package var now: Date
    /// Answers `FUNCTION(receiver, "selector", arguments…)`; without it such an expression is refused. A mapping
    /// model's value expressions call Foundation methods this way (the migration runner supplies the handler).
    package var invocationHandler: ((EvaluationValue, String, [EvaluationValue]) throws(CDPredicateError) -> EvaluationValue)?

    /// Creates an evaluator.
    package init(variables: [String: EvaluationValue] = [:], now: Date = Date()) {
        self.variables = variables
        self.now = now
    }

    /// Evaluates `predicate` with `object` as `SELF`.
    package func evaluate(_ predicate: PredicateNode, with object: EvaluationValue) throws(CDPredicateError) -> Bool {
        try evaluate(predicate, object: object, bindings: variables)
    }

    /// Evaluates `predicate` with `object` as `SELF`.
    package func evaluate(_ predicate: PredicateNode, with object: any PredicateEvaluable) throws(CDPredicateError) -> Bool {
        try evaluate(predicate, object: .object(object), bindings: variables)
    }

    func evaluate(
        _ predicate: PredicateNode, object: EvaluationValue, bindings: [String: EvaluationValue]
    ) throws(CDPredicateError) -> Bool {
        switch predicate {
        case .constant(let b): return b
        case .not(let inner): return try !evaluate(inner, object: object, bindings: bindings)
        case .and(let items):
            for item in items where try !evaluate(item, object: object, bindings: bindings) { return false }
            return true
        case .or(let items):
            for item in items where try evaluate(item, object: object, bindings: bindings) { return true }
            return false
        case .comparison(let c):
            var left = try value(of: c.left, object: object, bindings: bindings)
            var right = try value(of: c.right, object: object, bindings: bindings)
            // A constant takes the type of the attribute it is compared with, as in SQL; not for string operators.
            if !c.op.isStringOperator {
                if Self.isConstant(c.right) && Self.typesConstants(c.left) { right = try typed(right, like: left) }
                if Self.isConstant(c.left) && Self.typesConstants(c.right) { left = try typed(left, like: right) }
            }
            switch c.modifier {
            case .direct: return try compareDirect(left, c.op, right, c.options)
            case .any: return try anyElement(of: left.elements, c.op, right, c.options)
            case .none: return try !anyElement(of: left.elements, c.op, right, c.options)
            case .all:
                for e in left.elements where try !compare(e, c.op, right, c.options) { return false }
                return true
            }
        }
    }

    /// A comparison without a quantifier: a collection on the left means `ANY` unless the operator works
    /// on collections itself.
    private func compareDirect(
        _ l: EvaluationValue, _ op: ComparisonOperator, _ r: EvaluationValue, _ options: ComparisonOptions
    ) throws(CDPredicateError) -> Bool {
        // IN and BETWEEN take a collection on the right, so only CONTAINS uses the left collection as a whole.
        if case .collection(let items) = l, op != .contains, op == .in || op == .between || !isCollection(r) {
            return try anyElement(of: items, op, r, options)
        }
        return try compare(l, op, r, options)
    }

    private func anyElement(
        of items: [EvaluationValue], _ op: ComparisonOperator, _ r: EvaluationValue, _ options: ComparisonOptions
    ) throws(CDPredicateError) -> Bool {
        for e in items where try compare(e, op, r, options) { return true }
        return false
    }

    private func isCollection(_ v: EvaluationValue) -> Bool {
        if case .collection = v { return true }
        return false
    }

    /// Applies one operator to two values.
    func compare(
        _ l: EvaluationValue, _ op: ComparisonOperator, _ r: EvaluationValue, _ options: ComparisonOptions
    ) throws(CDPredicateError) -> Bool {
        try Self.checkOperands(l, op, r)
        switch op {
        case .equal:
            if l.isNull || r.isNull { return l.isNull && r.isNull }
            return equal(l, r, options)
        case .notEqual:
            if r.isNull { return !l.isNull }
            if l.isNull { return false }
            return !equal(l, r, options)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let order = order(l, r, options) else { return false }
            switch op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        case .between:
            let bounds = r.elements
            guard case .collection = r, bounds.count == 2 else {
                throw CDPredicateError(.evaluation, "BETWEEN needs a collection of two values, got \(r.kindName)")
            }
            guard let low = order(l, bounds[0], options), let high = order(l, bounds[1], options) else { return false }
            return low >= 0 && high <= 0
        case .in:
            switch r {
            case .collection(let items): return !l.isNull && items.contains { equal(l, $0, options) }
            case .string(let s):
                guard case .string(let needle) = l else { return false }
                return PredicateStringMatching.contains(s, needle, options: options)
            default: return false
            }
        case .contains:
            switch l {
            case .collection(let items): return !r.isNull && items.contains { equal($0, r, options) }
            case .string(let s):
                guard case .string(let needle) = r else { return false }
                return PredicateStringMatching.contains(s, needle, options: options)
            default: return false
            }
        case .beginsWith, .endsWith, .like, .matches:
            guard case .string(let s) = l, case .string(let t) = r else { return false }
            switch op {
            case .beginsWith: return PredicateStringMatching.beginsWith(s, t, options: options)
            case .endsWith: return PredicateStringMatching.endsWith(s, t, options: options)
            case .like: return PredicateStringMatching.like(s, pattern: t, options: options)
            default: return try PredicateStringMatching.matches(s, regex: t, options: options)
            }
        case .utiConformsTo, .utiEquals:
            throw CDPredicateError(.unsupported, "\(op.symbol) is not supported (it needs the system's type registry)")
        }
    }

    /// Equality of two non-nil values.
    func equal(_ l: EvaluationValue, _ r: EvaluationValue, _ options: ComparisonOptions) -> Bool {
        switch (l, r) {
        case (.string(let a), .string(let b)): return PredicateStringMatching.equals(a, b, options: options)
        case (.object(let a), .object(let b)): return a.isSameObject(as: b)
        case (.collection(let a), .collection(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
        case (.object, _), (_, .object), (.collection, _), (_, .collection), (.null, _), (_, .null): return false
        default:
            guard let x = l.number, let y = r.number else { return false }
            return Number.compare(x, y) == 0
        }
    }

    /// Ordering of two values, or nil when they cannot be ordered (nil, objects, mixed kinds).
    func order(_ l: EvaluationValue, _ r: EvaluationValue, _ options: ComparisonOptions) -> Int? {
        switch (l, r) {
        case (.string(let a), .string(let b)): return PredicateStringMatching.compare(a, b, options: options)
        case (.object, _), (_, .object), (.collection, _), (_, .collection), (.null, _), (_, .null): return nil
        default:
            guard let x = l.number, let y = r.number else { return nil }
            return Number.compare(x, y)
        }
    }
}

extension PredicateNode {
    /// Evaluates the predicate with `object` as `SELF`; `$VARIABLES` come from `variables`.
    package func evaluate(
        with object: any PredicateEvaluable, variables: [String: EvaluationValue] = [:]
    ) throws(CDPredicateError) -> Bool {
        try PredicateEvaluator(variables: variables).evaluate(self, with: object)
    }
}
