import Foundation

/// Something a predicate can be evaluated against: a managed object, a row, a dictionary.
package protocol PredicateEvaluable {
    /// The value for a key. Return `.null` for a missing key (missing keys count as nil), `.object` for a
    /// to-one relationship and `.collection` of `.object`s for a to-many relationship.
    func value(forKey key: String) -> EvaluationValue

    /// Whether this is the same object as `other`, for `relationship == $OBJECT`. The default compares class
    /// instances by identity and says false otherwise.
    func isSameObject(as other: any PredicateEvaluable) -> Bool
}

extension PredicateEvaluable {
    /// Identity for class instances, false for values.
    package func isSameObject(as other: any PredicateEvaluable) -> Bool {
        guard type(of: self) is AnyClass, type(of: other) is AnyClass else { return false }
        return (self as AnyObject) === (other as AnyObject)
    }
}

/// A value met while evaluating: a constant, or something read from an object.
package enum EvaluationValue {
    /// Nil, a missing key, or NSNull.
    case null
    /// A boolean; compares as 1 or 0.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A date; compares by time, and with numbers as seconds since 2001-01-01.
    case date(Date)
    /// An object reached through a to-one relationship (or `SELF`).
    case object(any PredicateEvaluable)
    /// A to-many relationship, an array constant, or the values of a key path through a to-many.
    case collection([EvaluationValue])

    /// Converts a constant.
    package init(_ value: PredicateValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .date(let d): self = .date(d)
        case .array(let items): self = .collection(items.map(EvaluationValue.init))
        }
    }

    /// True for `.null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The elements when this is a collection; nil is an empty collection and anything else is a
    /// collection of itself.
    var elements: [EvaluationValue] {
        switch self {
        case .collection(let items): return items
        case .null: return []
        default: return [self]
        }
    }

    /// A number for arithmetic and numeric comparison: booleans are 0/1, dates are seconds since 2001,
    /// and strings that spell a number count as that number (so a `%@` argument given as text compares
    /// with numeric attributes, as the SQL layer's coercion does).
    var number: Number? {
        switch self {
        case .bool(let b): return .int(b ? 1 : 0)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .date(let d): return .double(d.timeIntervalSinceReferenceDate)
        case .string(let s):
            let t = s.trimmingCharacters(in: .whitespaces)
            if let i = Int64(t) { return .int(i) }
            if let d = Double(t), d.isFinite { return .double(d) }
            return nil
        default: return nil
        }
    }

    /// A short description for error messages.
    package var kindName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .date: return "a date"
        case .object: return "an object"
        case .collection: return "a collection"
        }
    }
}

/// A number with the integer/floating distinction kept, so integer arithmetic stays exact.
enum Number {
    case int(Int64)
    case double(Double)

    var double: Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        }
    }

    var value: EvaluationValue {
        switch self {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        }
    }

    /// Three-way comparison; integers compare exactly.
    static func compare(_ a: Number, _ b: Number) -> Int? {
        if case .int(let x) = a, case .int(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
        let x = a.double, y = b.double
        if x.isNaN || y.isNaN { return nil }
        return x < y ? -1 : (x == y ? 0 : 1)
    }
}

/// A simple ``PredicateEvaluable`` backed by a dictionary, for tests and for callers with plain data.
package struct EvaluableDictionary: PredicateEvaluable {
    /// The values by key.
    package var values: [String: EvaluationValue]

    /// Creates an object from key-value pairs.
    package init(_ values: [String: EvaluationValue]) {
        self.values = values
    }

    /// The value for `key`, or `.null` when it is missing.
    package func value(forKey key: String) -> EvaluationValue {
        values[key] ?? .null
    }
}
