extension PredicateNode {
    /// Replaces `$VARIABLES` with constants, like `withSubstitutionVariables(_:)`. Pass `.null` to match nil.
    ///
    /// A `SUBQUERY`'s own variable is bound by the subquery and left alone inside it. Throws
    /// `.unboundVariable` naming the first variable (in text order) that has no value. Members of `{…}`
    /// that all become constants fold into one constant array.
    package func substituting(variables: [String: PredicateValue]) throws(CDPredicateError) -> PredicateNode {
        try Substitution(values: variables).node(self, bound: [])
    }

    /// The `$VARIABLES` that must be given a value before evaluation, in first-use order (subquery
    /// variables inside their subquery do not count).
    package var freeVariables: [String] {
        var names: [String] = []
        Substitution.collect(self, bound: [], into: &names)
        return names
    }
}

extension PredicateNode {
    /// Replaces `$VARIABLES` with constants, and key paths of the variable `object` — which stands for one object,
    /// as `$FETCH_SOURCE` does in a fetched property's predicate — with the constants `value` gives for them
    /// (`$FETCH_SOURCE.sourceId` becomes that object's `sourceId`); see ``substituting(variables:)``.
    package func substituting(variables: [String: PredicateValue], object: String,
                              value: @escaping (PredicateKeyPath) throws(CDPredicateError) -> PredicateValue)
        throws(CDPredicateError) -> PredicateNode {
        try Substitution(values: variables, object: object, member: value).node(self, bound: [])
    }
}

extension ExpressionNode {
    /// Replaces `$VARIABLES` with constants; see ``PredicateNode/substituting(variables:)``.
    package func substituting(variables: [String: PredicateValue]) throws(CDPredicateError) -> ExpressionNode {
        try Substitution(values: variables).expression(self, bound: [])
    }
}

private struct Substitution {
    let values: [String: PredicateValue]
    var object: String? = nil
    var member: ((PredicateKeyPath) throws(CDPredicateError) -> PredicateValue)? = nil

    func node(_ p: PredicateNode, bound: Set<String>) throws(CDPredicateError) -> PredicateNode {
        switch p {
        case .constant: return p
        case .not(let inner): return .not(try node(inner, bound: bound))
        case .and(let items): return .and(try items.map { n throws(CDPredicateError) in try node(n, bound: bound) })
        case .or(let items): return .or(try items.map { n throws(CDPredicateError) in try node(n, bound: bound) })
        case .comparison(var c):
            c.left = try expression(c.left, bound: bound)
            c.right = try expression(c.right, bound: bound)
            return .comparison(c)
        }
    }

    func list(_ items: [ExpressionNode], bound: Set<String>) throws(CDPredicateError) -> [ExpressionNode] {
        var out: [ExpressionNode] = []
        for item in items { out.append(try expression(item, bound: bound)) }
        return out
    }

    func expression(_ e: ExpressionNode, bound: Set<String>) throws(CDPredicateError) -> ExpressionNode {
        switch e {
        case .constant, .evaluatedObject, .keyPath, .anyKey: return e
        case .variable(let name):
            if bound.contains(name) { return e }
            guard let v = values[name] else {
                throw CDPredicateError(.unboundVariable, "no value for variable $\(name)")
            }
            return .constant(v)
        case .member(.variable(let name), let path) where name == object && !bound.contains(name):
            return .constant(try member!(path))
        case .member(let base, let path): return .applying(path, to: try expression(base, bound: bound))
        case .aggregate(let members): return .makeAggregate(try list(members, bound: bound))
        case .function(let name, let args): return .function(name, try list(args, bound: bound))
        case .arithmetic(let op, let l, let r):
            return .arithmetic(op, try expression(l, bound: bound), try expression(r, bound: bound))
        case .negate(let inner): return .negate(try expression(inner, bound: bound))
        case .index(let base, .expression(let i)):
            return .index(try expression(base, bound: bound), .expression(try expression(i, bound: bound)))
        case .index(let base, let i): return .index(try expression(base, bound: bound), i)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(collection: try expression(collection, bound: bound), variable: variable,
                             predicate: try node(predicate, bound: bound.union([variable])))
        case .cast(let inner, let type):
            return try Parser.foldCast(try expression(inner, bound: bound), type: type, column: 0)
        case .ternary(let p, let a, let b):
            return .ternary(try node(p, bound: bound), try expression(a, bound: bound), try expression(b, bound: bound))
        case .assignment(let name, let value):
            return .assignment(variable: name, value: try expression(value, bound: bound))
        case .invocation(let receiver, let selector, let args):
            return .invocation(receiver: try expression(receiver, bound: bound), selector: selector,
                               arguments: try list(args, bound: bound))
        case .fetch(let a, let b, let c):
            return .fetch(try expression(a, bound: bound), try expression(b, bound: bound), try expression(c, bound: bound))
        case .setOperation(let op, let l, let r):
            return .setOperation(op, try expression(l, bound: bound), try expression(r, bound: bound))
        }
    }

    static func collect(_ p: PredicateNode, bound: Set<String>, into names: inout [String]) {
        switch p {
        case .constant: break
        case .not(let inner): collect(inner, bound: bound, into: &names)
        case .and(let items), .or(let items): for i in items { collect(i, bound: bound, into: &names) }
        case .comparison(let c):
            collect(c.left, bound: bound, into: &names)
            collect(c.right, bound: bound, into: &names)
        }
    }

    static func collect(_ e: ExpressionNode, bound: Set<String>, into names: inout [String]) {
        func each(_ items: [ExpressionNode]) { for i in items { collect(i, bound: bound, into: &names) } }
        switch e {
        case .constant, .evaluatedObject, .keyPath, .anyKey: break
        case .variable(let name): if !bound.contains(name) && !names.contains(name) { names.append(name) }
        case .member(let base, _), .negate(let base), .cast(let base, _), .index(let base, .first),
             .index(let base, .last), .index(let base, .size), .assignment(_, let base):
            collect(base, bound: bound, into: &names)
        case .index(let base, .expression(let i)): each([base, i])
        case .aggregate(let items), .function(_, let items): each(items)
        case .arithmetic(_, let l, let r), .setOperation(_, let l, let r): each([l, r])
        case .subquery(let collection, let variable, let predicate):
            collect(collection, bound: bound, into: &names)
            collect(predicate, bound: bound.union([variable]), into: &names)
        case .ternary(let p, let a, let b):
            collect(p, bound: bound, into: &names)
            each([a, b])
        case .invocation(let receiver, _, let args): each([receiver] + args)
        case .fetch(let a, let b, let c): each([a, b, c])
        }
    }
}
