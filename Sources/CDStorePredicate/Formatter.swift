import Foundation

/// Prints predicates and expressions in the style of Foundation's `predicateFormat` / `NSExpression.description`.
///
/// Known and assumed Foundation behaviour this follows:
/// - Strings print in double quotes (`name == "x"`), with `"` and `\` escaped by a backslash.
/// - Functions print as their selector followed by the arguments: `count:(pages)`, `now()`,
///   `canonical:(name)`, `add:to:(1, 2)`; `a & b` prints as `bitwiseAnd:with:(a, b)`.
/// - Booleans print as `1` / `0` (NSNumber's description), so `flag == YES` prints `flag == 1`.
/// - Doubles with an integral value print without a fraction (`2`, as NSNumber does); others print in the
///   shortest form that reads back to the same value (`10.5`, `9.2e-05`).
/// - Dates print as `CAST(<seconds since 2001-01-01 with 6 decimals>, "NSDate")`.
/// - `nil` for null, `{a, b}` for collections, `SELF` for the evaluated object.
/// - A compound predicate inside another compound or a `NOT` is parenthesised.
/// - Option letters print in the order `c d n l`, e.g. `BEGINSWITH[cd]`.
///
/// Deviations, all so that the output parses back to the same tree: `NONE` prints as `NONE` (Foundation
/// prints `NOT ANY`), a key that is a reserved word prints with `#` (`#size`), arithmetic prints infix
/// with only the parentheses precedence needs, `SELF.x` prints as `x`, and an infinite double prints as
/// `1e999` / `-1e999` (Foundation: `inf`). Because of the boolean and
/// integral-double rules, `.bool(true)` reads back as `.int(1)` and `.double(2)` as `.int(2)`.
package enum PredicateFormatter {
    /// Prints a predicate.
    package static func format(_ node: PredicateNode) -> String {
        switch node {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner): return "NOT " + nested(inner)
        case .and(let items): return items.map(nested).joined(separator: " AND ")
        case .or(let items): return items.map(nested).joined(separator: " OR ")
        case .comparison(let c): return format(c)
        }
    }

    private static func nested(_ node: PredicateNode) -> String {
        switch node {
        case .and, .or: return "(" + format(node) + ")"
        default: return format(node)
        }
    }

    /// Prints one comparison, e.g. `ANY tags.name BEGINSWITH[cd] "a"`.
    package static func format(_ c: PredicateComparison) -> String {
        let prefix: String
        switch c.modifier {
        case .direct: prefix = ""
        case .any: prefix = "ANY "
        case .all: prefix = "ALL "
        case .none: prefix = "NONE "
        }
        let options = c.options.letters.isEmpty ? "" : "[\(c.options.letters)]"
        return prefix + format(c.left) + " " + c.op.symbol + options + " " + format(c.right)
    }

    /// Prints an expression.
    package static func format(_ e: ExpressionNode) -> String {
        format(e, context: -1)
    }

    /// Binding strength of the printed form; an operand weaker than its context gets parentheses.
    private static func strength(_ e: ExpressionNode) -> Int {
        switch e {
        case .assignment: return -1
        case .setOperation: return 0
        case .arithmetic(let op, _, _): return 3 + op.precedence
        case .negate: return 10
        default: return 20
        }
    }

    private static func format(_ e: ExpressionNode, context: Int) -> String {
        let text = bare(e)
        return strength(e) < context ? "(" + text + ")" : text
    }

    private static func bare(_ e: ExpressionNode) -> String {
        switch e {
        case .constant(let v): return format(v)
        case .evaluatedObject: return "SELF"
        case .keyPath(let path): return format(path)
        case .member(let base, let path):
            // A base that is itself a bare name would merge into the key path, so only stronger forms are left bare.
            return format(base, context: 20) + "." + format(path)
        case .variable(let name): return "$" + name
        case .aggregate(let members): return "{" + members.map(format).joined(separator: ", ") + "}"
        case .function(let name, let args): return name + "(" + args.map(format).joined(separator: ", ") + ")"
        case .arithmetic(let op, let l, let r):
            let p = 3 + op.precedence
            let (lp, rp) = op == .power ? (p + 1, p) : (p, p + 1)
            return format(l, context: lp) + " " + op.rawValue + " " + format(r, context: rp)
        case .negate(let inner): return "-" + format(inner, context: 10)
        case .index(let base, let index):
            let inside: String
            switch index {
            case .first: inside = "FIRST"
            case .last: inside = "LAST"
            case .size: inside = "SIZE"
            case .expression(let x): inside = format(x)
            }
            return format(base, context: 20) + "[" + inside + "]"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + format(collection) + ", $" + variable + ", " + format(predicate) + ")"
        case .cast(let value, let type): return "CAST(" + format(value) + ", " + quote(type) + ")"
        case .ternary(let p, let a, let b): return "TERNARY(" + format(p) + ", " + format(a) + ", " + format(b) + ")"
        case .assignment(let name, let value): return "$" + name + " := " + format(value)
        case .invocation(let receiver, let selector, let args):
            return "FUNCTION(" + ([format(receiver), quote(selector)] + args.map(format)).joined(separator: ", ") + ")"
        case .fetch(let a, let b, let c): return "FETCH(" + [a, b, c].map(format).joined(separator: ", ") + ")"
        case .anyKey: return "ANYKEY"
        case .setOperation(let op, let l, let r):
            return format(l, context: 0) + " " + op.rawValue + " " + format(r, context: 1)
        }
    }

    /// Prints a key path; reserved words get a `#` so they read back as keys.
    package static func format(_ path: PredicateKeyPath) -> String {
        path.components.map { component in
            if case .key(let k) = component, PredicateParser.reservedWords.contains(k.uppercased()) {
                return "#" + k
            }
            return component.description
        }.joined(separator: ".")
    }

    /// Prints a constant value.
    package static func format(_ v: PredicateValue) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        // A literal too large for a Double reads as infinity; Swift would print `inf`, which reads back as a key.
        case .double(let d) where d.isInfinite: return d < 0 ? "-1e999" : "1e999"
        case .double(let d): return formatNumber(d)
        case .string(let s): return quote(s)
        case .date(let d): return "CAST(" + String(format: "%f", d.timeIntervalSinceReferenceDate) + ", \"NSDate\")"
        case .array(let items): return "{" + items.map(format).joined(separator: ", ") + "}"
        }
    }

    /// A double as NSNumber prints it: integral values without a fraction.
    static func formatNumber(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// A string in double quotes with `\`, `"` and control characters escaped, and a `%` that precedes another `%`
    /// doubled.
    static func quote(_ s: String) -> String {
        var out = "\""
        let scalars = Array(s.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            // The parser reads `%%` inside quotes as one `%`, so a `%` followed by another prints doubled.
            case "%" where i + 1 < scalars.count && scalars[i + 1] == "%": out += "%%"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension PredicateNode {
    /// The predicate in Foundation's `predicateFormat` style; see ``PredicateFormatter`` for the details.
    package var format: String { PredicateFormatter.format(self) }
}

extension ExpressionNode {
    /// The expression in Foundation's `NSExpression.description` style; see ``PredicateFormatter``.
    package var format: String { PredicateFormatter.format(self) }
}
