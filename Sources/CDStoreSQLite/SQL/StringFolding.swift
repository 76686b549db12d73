import CDStorePredicate
import Foundation

/// Foundation's string comparison semantics for predicates, as used inside SQL functions.
enum StringFolding {
    /// `text` with case (`[c]`) and/or diacritics (`[d]`) folded away; `[n]` applies Unicode normalization.
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        let folded = folding.isEmpty ? text : text.folding(options: folding, locale: nil)
        return folded.precomposedStringWithCanonicalMapping
    }

    static func compare(_ op: ComparisonOperator, _ options: ComparisonOptions, _ left: String, _ right: String,
                        regexCache: RegexCache) throws -> Bool {
        if op == .matches {
            let subject = options.contains(.diacriticInsensitive) ? fold(left, .diacriticInsensitive) : left
            let pattern = options.contains(.diacriticInsensitive) ? fold(right, .diacriticInsensitive) : right
            let regex = try regexCache.regex(pattern, caseInsensitive: options.contains(.caseInsensitive))
            let range = NSRange(subject.startIndex..., in: subject)
            guard let match = regex.firstMatch(in: subject, options: [.anchored], range: range) else { return false }
            return match.range == range
        }
        let l = fold(left, options), r = fold(right, options)
        switch op {
        case .equal: return l == r
        case .contains: return r.isEmpty || l.contains(r)
        case .beginsWith: return l.hasPrefix(r)
        case .endsWith: return l.hasSuffix(r)
        case .like: return try regexCache.regex(likePattern(r), caseInsensitive: false).firstMatch(
            in: l, options: [.anchored], range: NSRange(l.startIndex..., in: l)).map { $0.range == NSRange(l.startIndex..., in: l) } ?? false
        default: return false
        }
    }

    /// `LIKE`'s wildcards as a regular expression: `*` any run of characters, `?` one character.
    static func likePattern(_ pattern: String) -> String {
        var regex = ""
        for character in pattern {
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            default: regex += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        return "(?s)" + regex
    }
}
