import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

/// SQL functions cdstore registers on every connection, so that predicates mean in SQL what they mean to
/// Foundation: Unicode-correct `[c]`/`[d]`, `LIKE` with `*` and `?`, whole-string ICU `MATCHES`.
enum SQLFunctions {
    /// `cdstore_fold(text, options)`: the text folded as the comparison options say.
    static let fold = "cdstore_fold"
    /// `cdstore_strcmp(operator, options, left, right)`: a string operator of the predicate language; 1, 0 or NULL.
    static let stringCompare = "cdstore_strcmp"
    /// `cdstore_lower(text)`, `cdstore_upper(text)`: Unicode-aware case mapping.
    static let lowercase = "cdstore_lower"
    static let uppercase = "cdstore_upper"
    /// `cdstore_pow(x, y)`.
    static let power = "cdstore_pow"
    /// `cdstore_math(name, x)`: NSExpression's one-argument math functions.
    static let math = "cdstore_math"
    /// `cdstore_fmod(x, y)`: NSExpression's `modulus:by:` (a floating-point remainder).
    static let modulus = "cdstore_fmod"
    /// Unicode case folding for case-insensitive sorting.
    static let caseFold = "cdstore_casefold"

    /// Registers every function on `db`, with exact text in and out (``ExactFunction``).
    static func register(on db: Database) {
        ExactFunction.register(on: db, fold, argumentCount: 2) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            return PredicateStringMatching.fold(text, options: options(values[1]))
        }
        ExactFunction.register(on: db, caseFold, argumentCount: 1) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
            return PredicateStringMatching.fold(text, options: .caseInsensitive)
        }
        ExactFunction.register(on: db, stringCompare, argumentCount: 4) { values in
            guard let opName = String.fromDatabaseValue(values[0]), let op = ComparisonOperator(rawValue: opName),
                  let left = text(values[2]), let right = text(values[3]) else { return nil }
            return try compare(op, options(values[1]), left, right)
        }
        ExactFunction.register(on: db, lowercase, argumentCount: 1) { values in
            String.fromDatabaseValue(values[0]).map { $0.lowercased() } ?? values[0]
        }
        ExactFunction.register(on: db, uppercase, argumentCount: 1) { values in
            String.fromDatabaseValue(values[0]).map { $0.uppercased() } ?? values[0]
        }
        ExactFunction.register(on: db, power, argumentCount: 2) { values in
            guard let x = Double.fromDatabaseValue(values[0]), let y = Double.fromDatabaseValue(values[1]) else { return nil }
            return Foundation.pow(x, y)
        }
        ExactFunction.register(on: db, modulus, argumentCount: 2) { values in
            guard let x = Double.fromDatabaseValue(values[0]), let y = Double.fromDatabaseValue(values[1]) else { return nil }
            return Foundation.fmod(x, y)
        }
        ExactFunction.register(on: db, math, argumentCount: 2) { values in
            guard let name = String.fromDatabaseValue(values[0]), let x = Double.fromDatabaseValue(values[1]) else { return nil }
            switch name {
            case "floor": return x.rounded(.down)
            case "ceiling": return x.rounded(.up)
            case "trunc": return x.rounded(.towardZero)
            case "sqrt": return x.squareRoot()
            case "ln": return Foundation.log(x)
            case "log": return Foundation.log10(x)
            case "exp": return Foundation.exp(x)
            default: return nil
            }
        }
    }

    /// One string operator, with Foundation's semantics (shared with the in-memory evaluator).
    private static func compare(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: String,
                                _ right: String) throws -> Bool {
        switch op {
        case .equal: return PredicateStringMatching.equals(left, right, options: options)
        case .contains: return PredicateStringMatching.contains(left, right, options: options)
        case .beginsWith: return PredicateStringMatching.beginsWith(left, right, options: options)
        case .endsWith: return PredicateStringMatching.endsWith(left, right, options: options)
        case .like: return PredicateStringMatching.like(left, pattern: right, options: options)
        case .matches:
            do {
                return try PredicateStringMatching.matches(left, regex: right, options: options)
            } catch {
                throw StoreError(.invalidInput, error.message).about(.predicate)
            }
        default: return false
        }
    }

    private static func options(_ value: DatabaseValue) -> ComparisonOptions {
        ComparisonOptions(rawValue: UInt8(truncatingIfNeeded: Int.fromDatabaseValue(value) ?? 0))
    }

    /// Text of a value as Foundation would compare it: numbers compare by their text in string operators.
    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .string(let s): s
        case .int64(let i): String(i)
        case .double(let d): String(d)
        case .blob(let data): String(data: data, encoding: .utf8)
        }
    }
}
