import CDStorePredicate
import Foundation
import GRDB

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
    /// Unicode case folding for case-insensitive sorting.
    static let caseFold = "cdstore_casefold"

    /// Registers every function on `db`.
    static func register(on db: Database) {
        db.add(function: DatabaseFunction(fold, argumentCount: 2, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            return StringFolding.fold(text, options(values[1]))
        })
        db.add(function: DatabaseFunction(caseFold, argumentCount: 1, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
            return StringFolding.fold(text, .caseInsensitive)
        })
        let regexCache = RegexCache()
        db.add(function: DatabaseFunction(stringCompare, argumentCount: 4, pure: true) { values in
            guard let opName = String.fromDatabaseValue(values[0]), let op = ComparisonOperator(rawValue: opName),
                  let left = text(values[2]), let right = text(values[3]) else { return nil }
            return try StringFolding.compare(op, options(values[1]), left, right, regexCache: regexCache)
        })
        db.add(function: DatabaseFunction(lowercase, argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { $0.lowercased() } ?? values[0]
        })
        db.add(function: DatabaseFunction(uppercase, argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { $0.uppercased() } ?? values[0]
        })
        db.add(function: DatabaseFunction(power, argumentCount: 2, pure: true) { values in
            guard let x = Double.fromDatabaseValue(values[0]), let y = Double.fromDatabaseValue(values[1]) else { return nil }
            return Foundation.pow(x, y)
        })
        db.add(function: DatabaseFunction(math, argumentCount: 2, pure: true) { values in
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
        })
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

/// Compiled regular expressions by pattern and options; SQLite calls a function once per row.
final class RegexCache: @unchecked Sendable {
    private var cache: [String: NSRegularExpression] = [:]
    private let lock = NSLock()

    func regex(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let found = cache[key] { return found }
        do {
            let regex = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
            cache[key] = regex
            return regex
        } catch {
            throw StoreError(.invalidInput, "predicate: '\(pattern)' is not a valid regular expression")
        }
    }
}
