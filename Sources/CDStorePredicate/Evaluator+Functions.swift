import Foundation

extension PredicateEvaluator {
    /// Runs one of NSExpression's built-in functions, named by selector (`sum:`, `now`, `add:to:`, …).
    func callFunction(_ name: String, _ args: [EvaluationValue]) throws(CDPredicateError) -> EvaluationValue {
        func arity(_ n: Int) throws(CDPredicateError) {
            guard args.count == n else {
                throw CDPredicateError(.evaluation, "\(name) takes \(n) argument\(n == 1 ? "" : "s"), got \(args.count)")
            }
        }
        /// Statistical functions take one collection (`sum:({1, 2})`, `sum:(items.price)`).
        func collection() throws(CDPredicateError) -> [EvaluationValue] {
            try arity(1)
            return args[0].elements.filter { !$0.isNull }
        }
        func unary(_ f: (Double) -> Double) throws(CDPredicateError) -> EvaluationValue {
            try arity(1)
            if args[0].isNull { return .null }
            return .double(f(try numbers([args[0]], name)[0].double))
        }
        func integers() throws(CDPredicateError) -> (Int64, Int64) {
            try arity(2)
            guard case .int(let a)? = args[0].number, case .int(let b)? = args[1].number else {
                throw CDPredicateError(.evaluation, "\(name) needs integers")
            }
            return (a, b)
        }

        switch name {
        case "sum:": return try sum(collection())
        case "count:": try arity(1); return .int(Int64(args[0].elements.count))
        case "min:": return try aggregate(.min, collection())
        case "max:": return try aggregate(.max, collection())
        case "average:": return try aggregate(.avg, collection())
        case "median:":
            let sorted = try numbers(collection(), name).map(\.double).sorted()
            guard !sorted.isEmpty else { return .null }
            let mid = sorted.count / 2
            return .double(sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2)
        case "mode:":
            let values = try numbers(collection(), name).map(\.double)
            var counts: [Double: Int] = [:]
            for v in values { counts[v, default: 0] += 1 }
            let top = counts.values.max() ?? 0
            return .collection(values.filter { counts[$0] == top }.reduce(into: [Double]()) { if !$0.contains($1) { $0.append($1) } }
                .map { .double($0) })
        case "stddev:":
            let values = try numbers(collection(), name).map(\.double)
            guard !values.isEmpty else { return .null }
            let mean = values.reduce(0, +) / Double(values.count)
            return .double((values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot())
        case "sqrt:": return try unary { $0.squareRoot() }
        case "log:": return try unary(log10)
        case "ln:": return try unary(log)
        case "exp:": return try unary(exp)
        case "floor:": return try unary { $0.rounded(.down) }
        case "ceiling:": return try unary { $0.rounded(.up) }
        case "trunc:": return try unary { $0.rounded(.towardZero) }
        case "abs:":
            try arity(1)
            if case .int(let i)? = args[0].number, i != .min { return .int(Swift.abs(i)) }
            return try unary { Swift.abs($0) }
        case "add:to:": try arity(2); return try arithmetic(.add, args[0], args[1])
        case "from:subtract:": try arity(2); return try arithmetic(.subtract, args[0], args[1])
        case "multiply:by:": try arity(2); return try arithmetic(.multiply, args[0], args[1])
        case "divide:by:": try arity(2); return try arithmetic(.divide, args[0], args[1])
        case "raise:toPower:": try arity(2); return try arithmetic(.power, args[0], args[1])
        case "modulus:by:":
            try arity(2)
            guard let a = args[0].number, let b = args[1].number else { return .null }
            return .double(fmod(a.double, b.double))
        case "bitwiseAnd:with:": let (a, b) = try integers(); return .int(a & b)
        case "bitwiseOr:with:": let (a, b) = try integers(); return .int(a | b)
        case "bitwiseXor:with:": let (a, b) = try integers(); return .int(a ^ b)
        case "leftshift:by:": let (a, b) = try integers(); return .int(a << b)
        case "rightshift:by:": let (a, b) = try integers(); return .int(a >> b)
        case "onesComplement:":
            try arity(1)
            guard case .int(let a)? = args[0].number else { throw CDPredicateError(.evaluation, "\(name) needs an integer") }
            return .int(~a)
        case "uppercase:", "lowercase:", "canonical:", "length:":
            try arity(1)
            guard case .string(let s) = args[0] else { return .null }
            switch name {
            case "uppercase:": return .string(s.uppercased())
            case "lowercase:": return .string(s.lowercased())
            case "length:": return .int(Int64(s.count))
            // Core Data's canonical: is the case- and diacritic-insensitive form used for derived search keys.
            default: return .string(PredicateStringMatching.fold(s, options: [.caseInsensitive, .diacriticInsensitive]))
            }
        case "noindex:": try arity(1); return args[0]
        case "now": try arity(0); return .date(now)
        case "random": try arity(0); return .double(Double.random(in: 0..<1))
        case "random:":
            let items = try collection()
            return items.randomElement() ?? .null
        case "castObject:toType:":
            try arity(2)
            guard case .string(let type) = args[1] else { throw CDPredicateError(.evaluation, "\(name) needs a type name") }
            return try cast(args[0], to: type)
        default:
            throw CDPredicateError(.unsupported, "function \(name) is not supported")
        }
    }
}
