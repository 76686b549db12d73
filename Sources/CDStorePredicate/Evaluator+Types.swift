import Foundation

/// Strings against numbers, booleans and dates: one meaning for the evaluator and the SQL compiler
/// (CDStoreEngine's `PredicateCompiler`), so that a predicate selects the same objects in memory and in SQL.
///
/// - A string **constant** compared with a key path (an attribute's value; not `@count`) takes that value's
///   type, as SQL types a constant by the attribute: `age == "34"` and `age <= "40"` compare numbers,
///   `active == "YES"` a boolean, `hired > "2020-01-01"` a date. A string that does not spell one
///   (`age == "old"`) is a type mismatch.
/// - Any other string compared with a number, boolean or date is a type mismatch: two constants (`"2" <= 2`,
///   which SQLite would order by storage class and Foundation refuses: `-[NSString compare:]` with a number),
///   a string attribute with a number (`name == 5`), and string operators (`CONTAINS`, `BEGINSWITH`, `ENDSWITH`,
///   `LIKE`, `MATCHES`, the string form of `IN`) on a non-string.
/// - A nil operand is never a mismatch: the comparison is false, as in SQL. So the evaluator, which sees values
///   rather than the model, finds a mismatch only on an object whose value is not nil, where SQL refuses the
///   predicate before it runs.
/// - Known difference: a string constant against a computed number (`age + 1 == "35"`, `employees.@count ==
///   "3"`) is a type mismatch here, while SQL, which does not type computed values, compares by SQLite's
///   storage class (a number is never equal to text, and orders before it).
extension PredicateEvaluator {
    /// `constant` (a string, or a list holding strings) with each string read as the kind of `reference`'s
    /// values; unchanged when `reference` holds only nil, strings or objects.
    func typed(_ constant: EvaluationValue, like reference: EvaluationValue) throws(CDPredicateError) -> EvaluationValue {
        guard let sample = Self.firstScalar(reference) else { return constant }
        switch constant {
        case .string(let text): return try Self.read(text, as: sample)
        case .collection(let items):
            var typedItems: [EvaluationValue] = []
            for item in items {
                if case .string(let text) = item { typedItems.append(try Self.read(text, as: sample)) } else { typedItems.append(item) }
            }
            return .collection(typedItems)
        default: return constant
        }
    }

    /// The first value in `value` (looking into collections) that is neither nil, an object nor a collection.
    static func firstScalar(_ value: EvaluationValue) -> EvaluationValue? {
        switch value {
        case .null, .object: return nil
        case .collection(let items):
            for item in items { if let found = firstScalar(item) { return found } }
            return nil
        default: return value
        }
    }

    /// `text` as a value of `sample`'s kind: what SQL's typing by the attribute reads (`AttributeCoding`).
    static func read(_ text: String, as sample: EvaluationValue) throws(CDPredicateError) -> EvaluationValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch sample {
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw mismatch("expected a boolean (true/false, yes/no, 1/0), got \"\(text)\"")
            }
        case .int, .double:
            if let i = Int64(trimmed) { return .int(i) }
            if let d = Double(trimmed), d.isFinite { return .double(d) }
            throw mismatch("expected a number, got \"\(text)\"")
        case .date:
            guard let date = PredicateDate.parseISO8601(trimmed) else { throw mismatch("expected a date, got \"\(text)\"") }
            return .date(date)
        default: return .string(text)
        }
    }

    /// Refuses operands `op` cannot take: a string against a number, boolean or date, and a non-string (not nil)
    /// for a string operator.
    static func checkOperands(_ l: EvaluationValue, _ op: ComparisonOperator, _ r: EvaluationValue) throws(CDPredicateError) {
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            try checkComparable(l, r, op)
        case .between:
            for bound in r.elements { try checkComparable(l, bound, op) }
        case .in:
            switch (l, r) {
            case (_, .collection(let items)): for item in items { try checkComparable(l, item, op) }
            // The string form: "l is a substring of r".
            case (_, .string): try requireString(l, op)
            case (.string, _): try requireString(r, op)
            default: break
            }
        case .contains:
            if case .collection(let items) = l {
                for item in items { try checkComparable(item, r, op) }
            } else {
                try requireString(l, op)
                try requireString(r, op)
            }
        case .beginsWith, .endsWith, .like, .matches:
            try requireString(l, op)
            try requireString(r, op)
        case .utiConformsTo, .utiEquals: break
        }
    }

    /// Refuses a string compared with a number, boolean or date (nil and objects are never a mismatch).
    static func checkComparable(_ l: EvaluationValue, _ r: EvaluationValue, _ op: ComparisonOperator) throws(CDPredicateError) {
        func isString(_ v: EvaluationValue) -> Bool { if case .string = v { return true } else { return false } }
        func isTyped(_ v: EvaluationValue) -> Bool {
            switch v {
            case .int, .double, .bool, .date: return true
            default: return false
            }
        }
        if (isString(l) && isTyped(r)) || (isTyped(l) && isString(r)) {
            throw mismatch("\(op.symbol) cannot compare \(l.kindName) with \(r.kindName)")
        }
    }

    /// Refuses a string operator whose operand is neither a string nor nil.
    static func requireString(_ v: EvaluationValue, _ op: ComparisonOperator) throws(CDPredicateError) {
        switch v {
        case .string, .null: return
        default: throw mismatch("\(op.symbol) needs strings, got \(v.kindName)")
        }
    }

    static func mismatch(_ message: String) -> CDPredicateError {
        CDPredicateError(.evaluation, "type mismatch: " + message)
    }

    /// Whether a constant compared with `e` takes the type of its values: `e` is a key path to attributes, which
    /// SQL types constants by (`@count` has no attribute).
    static func typesConstants(_ e: ExpressionNode) -> Bool {
        let path: PredicateKeyPath
        switch e {
        case .keyPath(let p), .member(_, let p): path = p
        default: return false
        }
        return !path.components.contains(.collectionOperator(.count))
    }

    /// Whether `e` is a constant: a literal, a format argument, a variable (substituted before SQL is built), or
    /// a list of those.
    static func isConstant(_ e: ExpressionNode) -> Bool {
        switch e {
        case .constant, .variable: return true
        case .aggregate(let members): return members.allSatisfy(isConstant)
        default: return false
        }
    }
}
