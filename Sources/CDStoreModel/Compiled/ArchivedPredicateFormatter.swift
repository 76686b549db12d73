import Foundation

/// Prints archived `NSExpression`/`NSPredicate` objects as Foundation's `predicateFormat` does, following the
/// conventions of cdstore's predicate printer (`PredicateFormatter`): functions as `count:(pages)`, strings in
/// double quotes, booleans as 1/0, whole doubles without a fraction, `$VAR` for variables, compound predicates
/// nested in another compound parenthesised.
///
/// Predicates and expressions nest, and a damaged archive can make one contain itself (found by
/// fuzz-compiled-model: an NSCompoundPredicate among its own subpredicates); every step into an object goes
/// through `walk`, which throws ``ObjectPathError`` for a cycle or absurd nesting.
struct ArchivedPredicateFormatter {
    let archive: KeyedArchive
    let walk: KeyedArchive.Walk

    init(archive: KeyedArchive, walk: KeyedArchive.Walk? = nil) {
        self.archive = archive
        self.walk = walk ?? KeyedArchive.Walk(archive)
    }

    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Predicates

    func predicate(_ value: PropertyListValue?) throws -> String? {
        guard let index = archive.reference(value) else { return nil }
        return try predicate(at: index)
    }

    func predicate(at index: Int) throws -> String {
        try walk.visit(index) { try predicateFields(at: index) }
    }

    private func predicateFields(at index: Int) throws -> String {
        let f = archive.fields(index)
        switch archive.className(index) ?? "" {
        case "NSTruePredicate": return "TRUEPREDICATE"
        case "NSFalsePredicate": return "FALSEPREDICATE"
        case "NSCompoundPredicate":
            let type = archive.int(f["NSCompoundPredicateType"]) ?? 1
            let subs = try (archive.array(f["NSSubpredicates"]) ?? []).map { item -> String in
                guard let ref = archive.reference(item) else { throw Unsupported(description: "empty subpredicate") }
                let text = try predicate(at: ref)
                return archive.className(ref) == "NSCompoundPredicate" ? "(" + text + ")" : text
            }
            switch type {
            case 0: return "NOT " + (subs.first ?? "")
            case 2: return subs.joined(separator: " OR ")
            default: return subs.joined(separator: " AND ")
            }
        case "NSComparisonPredicate":
            let left = try expression(f["NSLeftExpression"])
            let right = try expression(f["NSRightExpression"])
            var modifier: Int64 = archive.int(f["NSModifier"]) ?? 0
            var options: Int64 = 0
            var type: Int64 = 4
            if let op = archive.reference(f["NSPredicateOperator"]) {
                let o = archive.fields(op)
                type = archive.int(o["NSOperatorType"]) ?? 4
                options = archive.int(o["NSOptions"]) ?? 0
                if modifier == 0 { modifier = archive.int(o["NSModifier"]) ?? 0 }
                if type == 11, let selector = archive.string(o["NSSelectorName"]) {
                    return "FUNCTION(\(left), \"\(selector)\", \(right))"
                }
            }
            let symbols: [Int64: String] = [0: "<", 1: "<=", 2: ">", 3: ">=", 4: "==", 5: "!=", 6: "MATCHES", 7: "LIKE",
                                            8: "BEGINSWITH", 9: "ENDSWITH", 10: "IN", 99: "CONTAINS", 100: "BETWEEN"]
            guard let symbol = symbols[type] else { throw Unsupported(description: "operator type \(type)") }
            // NSComparisonPredicate.Options: case-insensitive 1, diacritic-insensitive 2, normalized 4, locale-sensitive 8.
            var letters = ""
            if options & 1 != 0 { letters += "c" }
            if options & 2 != 0 { letters += "d" }
            if options & 4 != 0 { letters += "n" }
            if options & 8 != 0 { letters += "l" }
            let prefix = modifier == 1 ? "ALL " : modifier == 2 ? "ANY " : ""
            return prefix + left + " " + symbol + (letters.isEmpty ? "" : "[\(letters)]") + " " + right
        default:
            throw Unsupported(description: "predicate class \(archive.className(index) ?? "?")")
        }
    }

    // MARK: Expressions

    func expression(_ value: PropertyListValue?) throws -> String {
        guard let index = archive.reference(value) else { return "nil" }
        return try expression(at: index)
    }

    func expression(at index: Int) throws -> String {
        try walk.visit(index) { try expressionFields(at: index) }
    }

    private func expressionFields(at index: Int) throws -> String {
        let f = archive.fields(index)
        let cls = archive.className(index) ?? ""
        switch cls {
        case "NSSelfExpression": return "SELF"
        case "NSKeyPathSpecifierExpression": return archive.string(f["NSKeyPath"]) ?? ""
        case "NSVariableExpression": return "$" + (archive.string(f["NSVariable"]) ?? "")
        case "NSConstantValueExpression": return try constant(f["NSConstantValue"])
        case "NSAggregateExpression":
            let items = try (archive.array(f["NSCollection"]) ?? []).map { try expression($0) }
            return "{" + items.joined(separator: ", ") + "}"
        case "NSKeyPathExpression":
            let args = try (archive.array(f["NSArguments"]) ?? []).map { try expression($0) }
            let path = args.joined(separator: ".")
            if let op = archive.reference(f["NSOperand"]), archive.className(op) != "NSSelfExpression" {
                return try expression(at: op) + "." + path
            }
            return path
        case "NSFunctionExpression":
            let selector = archive.string(f["NSSelectorName"]) ?? ""
            let args = try (archive.array(f["NSArguments"]) ?? []).map { try expression($0) }
            if let op = archive.reference(f["NSOperand"]) {
                let opFields = archive.fields(op)
                let isUtilities = archive.className(op) == "NSConstantValueExpression"
                    && archive.string(opFields["NSConstantValueClassName"]) == "_NSPredicateUtilities"
                if !isUtilities {
                    return "FUNCTION(" + ([try expression(at: op), "\"\(selector)\""] + args).joined(separator: ", ") + ")"
                }
            }
            return selector + "(" + args.joined(separator: ", ") + ")"
        default:
            throw Unsupported(description: "expression class \(cls)")
        }
    }

    /// A constant as Foundation prints it inside a predicate.
    func constant(_ value: PropertyListValue?) throws -> String {
        guard let resolved = archive.resolve(value) else { return "nil" }
        if let index = archive.reference(value), case .dictionary = resolved {
            return try walk.visit(index) { try constantText(value, resolved) }
        }
        return try constantText(value, resolved)
    }

    private func constantText(_ value: PropertyListValue?, _ resolved: PropertyListValue) throws -> String {
        switch resolved {
        case .string(let s): return quote(s)
        case .bool(let b): return b ? "1" : "0"
        case .int(let n): return String(n)
        case .real(let d): return formatNumber(d)
        case .dictionary(let d):
            if case .string(let s)? = d["NS.string"] { return quote(s) }
            if let t = archive.double(d["NS.time"]) { return "CAST(" + String(format: "%.6f", t) + ", \"NSDate\")" }
            if let items = archive.array(value) {
                return "{" + (try items.map { try constant($0) }).joined(separator: ", ") + "}"
            }
            if let decimal = decimalText(d) { return decimal }
            return "nil"
        default: return "nil"
        }
    }

    private func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The text of an archived NSDecimalNumber (`NS.mantissa` little-endian 16 bytes, `NS.exponent`,
    /// `NS.negative`), e.g. mantissa 0 exponent -1 → "0.0", mantissa 1999 exponent -2 → "19.99".
    func decimalText(_ d: [String: PropertyListValue]) -> String? {
        // NSDecimal's exponent is an Int8 and its mantissa 8 words; anything else is a damaged archive, and taken at
        // face value would ask for a string of 2^60 zeros or a quadratic conversion (found by fuzz-compiled-model).
        guard case .data(let bytes)? = d["NS.mantissa"], let exponent = archive.int(d["NS.exponent"]),
              (-128...127).contains(exponent), bytes.count <= 16 else { return nil }
        // Mantissa: up to 8 little-endian 16-bit words (NS.mantissa.bo = 1 → little-endian).
        var words: [UInt16] = []
        var i = 0
        while i + 1 < bytes.count { words.append(UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8); i += 2 }
        if let length = archive.int(d["NS.length"]), length >= 0, Int(length) <= words.count {
            words = Array(words.prefix(Int(length)))
        }
        var digits = "0"
        // Convert base-65536 words to decimal digits.
        var number = words.reversed().map { UInt32($0) }  // most significant first
        if number.contains(where: { $0 != 0 }) {
            var out: [Character] = []
            while number.contains(where: { $0 != 0 }) {
                var remainder: UInt32 = 0
                number = number.map { word in
                    let current = remainder << 16 | word
                    remainder = current % 10
                    return current / 10
                }
                out.append(Character(String(remainder)))
            }
            digits = String(out.reversed())
        }
        var text: String
        if exponent >= 0 {
            text = digits == "0" ? "0" : digits + String(repeating: "0", count: Int(exponent))
        } else {
            let places = Int(-exponent)
            let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
            text = String(padded.dropLast(places)) + "." + String(padded.suffix(places))
        }
        if archive.bool(d["NS.negative"]) && digits != "0" { text = "-" + text }
        return text
    }
}
