import CDStoreEngine
import CDStorePredicate
import Foundation

/// The NSExpression subset cdstore evaluates in a mapping model's attribute value expressions, and the Foundation
/// methods `FUNCTION(value, "selector", …)` may call on the values.
///
/// Evaluated: constants, `$source.attribute`, arithmetic and negation, the predicate language's functions
/// (`uppercase:`, `add:to:`, `now()`, …), `CAST`, `TERNARY`, and `FUNCTION` with one of ``selectors`` on a value.
/// Anything else — `$manager`/`$entityMapping` methods in an attribute, `$source.relationship.key`, another
/// variable, `FETCH`, `SUBQUERY` — is refused before the store is touched, naming the expression, the mapping and
/// the selector.
enum MappingExpressionCheck {
    /// The Foundation methods answered (receiver type → result), as NSString/NSNumber/NSDate answer them.
    static let selectors: Set<String> = [
        "uppercaseString", "lowercaseString", "capitalizedString", "length", "description", "stringValue",
        "intValue", "integerValue", "longLongValue", "doubleValue", "floatValue", "boolValue",
        "stringByAppendingString:", "substringToIndex:", "substringFromIndex:", "hasPrefix:", "hasSuffix:",
        "stringByReplacingOccurrencesOfString:withString:", "componentsSeparatedByString:",
        "timeIntervalSinceReferenceDate", "timeIntervalSince1970", "dateByAddingTimeInterval:",
    ]

    static func check(_ node: ExpressionNode, text: String, mapping: String, property: String,
                      refuse: (String) -> StoreError) throws {
        func fail(_ what: String) -> StoreError {
            refuse("entity mapping '\(mapping)', attribute '\(property)': the value expression \(text) \(what); cdstore "
                   + "evaluates constants, $source.<attribute>, arithmetic, the predicate functions and FUNCTION(value, "
                   + "\"selector\") for Foundation string, number and date methods")
        }
        func visit(_ node: ExpressionNode) throws {
            switch node {
            case .constant: return
            case .member(.variable("source"), let path):
                if path.components.count != 1 { throw fail("follows a key path through a relationship (\(path))") }
            case .variable(let name): throw fail("uses the variable $\(name)")
            case .arithmetic(_, let a, let b): try visit(a); try visit(b)
            case .negate(let a), .cast(let a, _): try visit(a)
            case .function(_, let arguments), .aggregate(let arguments): for a in arguments { try visit(a) }
            case .ternary(_, let a, let b): try visit(a); try visit(b)
            case .invocation(let receiver, let selector, let arguments):
                if case .variable(let name) = receiver, name != "source" {
                    throw fail("calls \"\(selector)\" on $\(name)")
                }
                guard selectors.contains(selector) else { throw fail("calls the selector \"\(selector)\"") }
                try visit(receiver)
                for a in arguments { try visit(a) }
            default:
                throw fail("is outside the supported subset")
            }
        }
        try visit(node)
    }

    /// `FUNCTION(receiver, selector, arguments)` for ``selectors``; nil in, nil out.
    static func invoke(_ receiver: EvaluationValue, _ selector: String, _ arguments: [EvaluationValue]) throws(CDPredicateError) -> EvaluationValue {
        if receiver.isNull { return .null }
        func string(_ value: EvaluationValue) -> String? {
            switch value {
            case .string(let s): s
            case .int(let i): String(i)
            case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
            case .bool(let b): b ? "1" : "0"
            default: nil
            }
        }
        func number(_ value: EvaluationValue) -> Double? {
            switch value {
            case .int(let i): Double(i)
            case .double(let d): d
            case .bool(let b): b ? 1 : 0
            case .string(let s): Double(s.trimmingCharacters(in: .whitespaces)) ?? 0
            case .date(let d): d.timeIntervalSinceReferenceDate
            default: nil
            }
        }
        func argument(_ i: Int) throws(CDPredicateError) -> EvaluationValue {
            guard i < arguments.count else { throw CDPredicateError(.evaluation, "\"\(selector)\" needs \(i + 1) arguments") }
            return arguments[i]
        }
        switch selector {
        case "uppercaseString": return string(receiver).map { .string($0.uppercased()) } ?? .null
        case "lowercaseString": return string(receiver).map { .string($0.lowercased()) } ?? .null
        case "capitalizedString": return string(receiver).map { .string($0.capitalized) } ?? .null
        case "length": return string(receiver).map { .int(Int64($0.utf16.count)) } ?? .null
        case "description", "stringValue": return string(receiver).map { .string($0) } ?? .null
        case "intValue", "integerValue", "longLongValue":
            guard let n = number(receiver), n.isFinite, abs(n) < 9.2e18 else { return .int(0) }
            return .int(Int64(n))
        case "doubleValue", "floatValue": return .double(number(receiver) ?? 0)
        case "boolValue": return .bool((number(receiver) ?? 0) != 0)
        case "stringByAppendingString:":
            return .string((string(receiver) ?? "") + (string(try argument(0)) ?? ""))
        case "substringToIndex:", "substringFromIndex:":
            guard let s = string(receiver), let n = number(try argument(0)), n >= 0, Int(n) <= s.utf16.count else {
                throw CDPredicateError(.evaluation, "\"\(selector)\": index out of range")
            }
            let units = Array(s.utf16)
            let part = selector == "substringToIndex:" ? units[..<Int(n)] : units[Int(n)...]
            return .string(String(decoding: part, as: UTF16.self))
        case "hasPrefix:": return .bool(string(receiver)?.hasPrefix(string(try argument(0)) ?? "") ?? false)
        case "hasSuffix:": return .bool(string(receiver)?.hasSuffix(string(try argument(0)) ?? "") ?? false)
        case "stringByReplacingOccurrencesOfString:withString:":
            let target = string(try argument(0)) ?? ""
            let replacement = string(try argument(1)) ?? ""
            guard let s = string(receiver), !target.isEmpty else { return string(receiver).map { .string($0) } ?? .null }
            return .string(s.replacingOccurrences(of: target, with: replacement))
        case "componentsSeparatedByString:":
            let separator = string(try argument(0)) ?? ""
            guard let s = string(receiver), !separator.isEmpty else { return .null }
            return .collection(s.components(separatedBy: separator).map { .string($0) })
        case "timeIntervalSinceReferenceDate": return number(receiver).map { .double($0) } ?? .null
        case "timeIntervalSince1970": return number(receiver).map { .double($0 + Date.timeIntervalBetween1970AndReferenceDate) } ?? .null
        case "dateByAddingTimeInterval:":
            guard let t = number(receiver), let d = number(try argument(0)) else { return .null }
            return .date(Date(timeIntervalSinceReferenceDate: t + d))
        default:
            throw CDPredicateError(.unsupported, "FUNCTION(…, \"\(selector)\") is not supported")
        }
    }
}
