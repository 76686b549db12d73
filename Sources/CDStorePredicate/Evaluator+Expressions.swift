import Foundation

extension PredicateEvaluator {
    /// The value of `expression` with `object` as `SELF`.
    package func value(of expression: ExpressionNode, with object: EvaluationValue) throws(CDPredicateError) -> EvaluationValue {
        try value(of: expression, object: object, bindings: variables)
    }

    func value(
        of e: ExpressionNode, object: EvaluationValue, bindings: [String: EvaluationValue]
    ) throws(CDPredicateError) -> EvaluationValue {
        switch e {
        case .constant(let v): return EvaluationValue(v)
        case .evaluatedObject: return object
        case .keyPath(let path): return try resolve(path, on: object)
        case .member(let base, let path):
            return try resolve(path, on: value(of: base, object: object, bindings: bindings))
        case .variable(let name):
            guard let v = bindings[name] else {
                throw CDPredicateError(.unboundVariable, "no value for variable $\(name)")
            }
            return v
        case .aggregate(let members):
            var values: [EvaluationValue] = []
            for m in members { values.append(try value(of: m, object: object, bindings: bindings)) }
            return .collection(values)
        case .function(let name, let args):
            var values: [EvaluationValue] = []
            for a in args { values.append(try value(of: a, object: object, bindings: bindings)) }
            return try callFunction(name, values)
        case .arithmetic(let op, let l, let r):
            let a = try value(of: l, object: object, bindings: bindings)
            let b = try value(of: r, object: object, bindings: bindings)
            return try arithmetic(op, a, b)
        case .negate(let inner):
            let v = try value(of: inner, object: object, bindings: bindings)
            if v.isNull { return .null }
            guard let n = v.number else { throw CDPredicateError(.evaluation, "cannot negate \(v.kindName)") }
            if case .int(let i) = n, i != .min { return .int(-i) }
            return .double(-n.double)
        case .index(let base, let index):
            return try subscriptValue(value(of: base, object: object, bindings: bindings), index, object, bindings)
        case .subquery(let collection, let variable, let predicate):
            let items = try value(of: collection, object: object, bindings: bindings).elements
            var kept: [EvaluationValue] = []
            var inner = bindings
            for item in items {
                inner[variable] = item
                if try evaluate(predicate, object: object, bindings: inner) { kept.append(item) }
            }
            return .collection(kept)
        case .cast(let inner, let type):
            return try cast(value(of: inner, object: object, bindings: bindings), to: type)
        case .ternary(let condition, let a, let b):
            let chosen = try evaluate(condition, object: object, bindings: bindings) ? a : b
            return try value(of: chosen, object: object, bindings: bindings)
        case .assignment:
            throw CDPredicateError(.unsupported, "variable assignment ($x := …) is not supported in predicates")
        case .invocation(let receiver, let selector, let arguments):
            guard let invocationHandler else {
                throw CDPredicateError(.unsupported, "FUNCTION(…, \"\(selector)\") is not supported")
            }
            let target = try value(of: receiver, object: object, bindings: bindings)
            var values: [EvaluationValue] = []
            for a in arguments { values.append(try value(of: a, object: object, bindings: bindings)) }
            return try invocationHandler(target, selector, values)
        case .fetch:
            throw CDPredicateError(.unsupported, "FETCH(…) is not supported")
        case .anyKey:
            throw CDPredicateError(.unsupported, "ANYKEY is only supported by Spotlight")
        case .setOperation(let op, _, _):
            throw CDPredicateError(.unsupported, "\(op.rawValue) is not supported")
        }
    }

    /// Follows a key path. Through a to-many relationship the result is the collection of values;
    /// a collection operator consumes the keys after it from each element, then aggregates.
    func resolve(_ path: PredicateKeyPath, on base: EvaluationValue) throws(CDPredicateError) -> EvaluationValue {
        var current = base
        for (i, component) in path.components.enumerated() {
            switch component {
            case .key(let key):
                current = Self.get(key, from: current)
            case .collectionOperator(let op):
                let rest = PredicateKeyPath(Array(path.components[(i + 1)...]))
                var values: [EvaluationValue] = []
                for element in current.elements {
                    let v = rest.components.isEmpty ? element : try resolve(rest, on: element)
                    if case .collection(let inner) = v, !rest.components.isEmpty { values += inner } else { values.append(v) }
                }
                return try aggregate(op, values)
            }
        }
        return current
    }

    static func get(_ key: String, from value: EvaluationValue) -> EvaluationValue {
        switch value {
        case .object(let o): return o.value(forKey: key)
        // A string answers `length` as NSString does, in UTF-16 units (mapping models compute with `content.length`).
        case .string(let text) where key == "length": return .int(Int64(text.utf16.count))
        case .collection(let items):
            var out: [EvaluationValue] = []
            for item in items {
                let v = get(key, from: item)
                if case .collection(let inner) = v { out += inner } else { out.append(v) }
            }
            return .collection(out)
        default: return .null
        }
    }

    /// `@count`, `@sum`, `@avg`, `@min`, `@max` over `values`; nils are skipped except by `@count`.
    func aggregate(_ op: CollectionOperator, _ values: [EvaluationValue]) throws(CDPredicateError) -> EvaluationValue {
        let present = values.filter { !$0.isNull }
        switch op {
        case .count: return .int(Int64(values.count))
        case .sum: return try sum(present)
        case .avg:
            guard !present.isEmpty else { return .null }
            return .double(try numbers(present, "@avg").reduce(0) { $0 + $1.double } / Double(present.count))
        case .min, .max:
            var best: EvaluationValue?
            for v in present {
                guard let b = best else { best = v; continue }
                guard let o = order(v, b, []) else {
                    throw CDPredicateError(.evaluation, "@\(op.name) cannot order \(v.kindName) and \(b.kindName)")
                }
                if (op == .min && o < 0) || (op == .max && o > 0) { best = v }
            }
            return best ?? .null
        case .other(let name):
            throw CDPredicateError(.unsupported, "collection operator @\(name) is not supported")
        }
    }

    func numbers(_ values: [EvaluationValue], _ what: String) throws(CDPredicateError) -> [Number] {
        var out: [Number] = []
        for v in values {
            guard let n = v.number else { throw CDPredicateError(.evaluation, "\(what) needs numbers, got \(v.kindName)") }
            out.append(n)
        }
        return out
    }

    func sum(_ values: [EvaluationValue]) throws(CDPredicateError) -> EvaluationValue {
        var total = Number.int(0)
        for n in try numbers(values, "@sum") { total = Self.add(total, n) }
        return total.value
    }

    static func add(_ a: Number, _ b: Number) -> Number {
        if case .int(let x) = a, case .int(let y) = b {
            let (r, overflow) = x.addingReportingOverflow(y)
            if !overflow { return .int(r) }
        }
        return .double(a.double + b.double)
    }

    /// `+ - * / **`; nil in gives nil out. Date ± number is a date and date − date is seconds.
    func arithmetic(_ op: ArithmeticOperator, _ a: EvaluationValue, _ b: EvaluationValue) throws(CDPredicateError) -> EvaluationValue {
        if a.isNull || b.isNull { return .null }
        guard let x = a.number, let y = b.number else {
            throw CDPredicateError(.evaluation, "cannot apply '\(op.rawValue)' to \(a.kindName) and \(b.kindName)")
        }
        let result: Number
        switch op {
        case .add: result = Self.add(x, y)
        case .subtract:
            if case .int(let i) = x, case .int(let j) = y, case (let r, false) = i.subtractingReportingOverflow(j) {
                result = .int(r)
            } else {
                result = .double(x.double - y.double)
            }
        case .multiply:
            if case .int(let i) = x, case .int(let j) = y, case (let r, false) = i.multipliedReportingOverflow(by: j) {
                result = .int(r)
            } else {
                result = .double(x.double * y.double)
            }
        case .divide: result = .double(x.double / y.double)
        case .power: result = .double(pow(x.double, y.double))
        }
        if case .date = a, op == .add || op == .subtract {
            if case .date = b { return result.value }
            return .date(Date(timeIntervalSinceReferenceDate: result.double))
        }
        if case .date = b, op == .add { return .date(Date(timeIntervalSinceReferenceDate: result.double)) }
        return result.value
    }

    private func subscriptValue(
        _ base: EvaluationValue, _ index: PredicateIndex, _ object: EvaluationValue, _ bindings: [String: EvaluationValue]
    ) throws(CDPredicateError) -> EvaluationValue {
        if case .object(let o) = base, case .expression(let keyExpr) = index {
            guard case .string(let key) = try value(of: keyExpr, object: object, bindings: bindings) else { return .null }
            return o.value(forKey: key)
        }
        let items = base.elements
        switch index {
        case .first: return items.first ?? .null
        case .last: return items.last ?? .null
        case .size: return .int(Int64(items.count))
        case .expression(let e):
            guard case .int(let i)? = try value(of: e, object: object, bindings: bindings).number, i >= 0, i < items.count
            else { return .null }
            return items[Int(i)]
        }
    }

    /// `CAST(value, "NSDate" | "NSNumber" | "NSString")`.
    func cast(_ v: EvaluationValue, to type: String) throws(CDPredicateError) -> EvaluationValue {
        if v.isNull { return .null }
        switch type {
        case "NSDate":
            if case .date = v { return v }
            if case .string(let s) = v, let d = PredicateDate.parseISO8601(s) { return .date(d) }
            if let n = v.number { return .date(Date(timeIntervalSinceReferenceDate: n.double)) }
        case "NSNumber":
            if case .date(let d) = v { return .double(d.timeIntervalSinceReferenceDate) }
            if let n = v.number { return n.value }
        case "NSString":
            switch v {
            case .string: return v
            case .int(let i): return .string(String(i))
            case .double(let d): return .string(PredicateFormatter.formatNumber(d))
            case .bool(let b): return .string(b ? "1" : "0")
            default: break
            }
        default:
            throw CDPredicateError(.unsupported, "CAST to \"\(type)\" is not supported")
        }
        throw CDPredicateError(.evaluation, "cannot CAST \(v.kindName) to \(type)")
    }
}
