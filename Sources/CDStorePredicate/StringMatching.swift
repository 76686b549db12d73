import Foundation

/// The string semantics of predicate operators, shared by the in-memory evaluator and the SQL layer (which
/// registers these as SQLite functions), so both give the same answers.
///
/// Without options, strings compare by Unicode scalars (the same order as SQLite's `BINARY` collation on
/// UTF-8 text) and are not normalised. With `[c]` and/or `[d]` both sides are first passed through
/// ``fold(_:options:)``. `[n]` and `[l]` do not change results.
package enum PredicateStringMatching {
    /// Folds a string for comparison under `options`:
    /// - `[d]`: canonical decomposition (NFD), then every non-spacing mark is removed (`é` → `e`);
    /// - `[c]`: Unicode full case folding, done as upper-casing then lower-casing so that `ß` matches `SS`
    ///   and final `ς` matches `Σ` (plain lower-casing would miss those);
    /// - with either option the result is recomposed (NFC) so canonically equivalent inputs fold alike.
    /// Without `[c]` or `[d]` the string is returned unchanged.
    package static func fold(_ s: String, options: ComparisonOptions) -> String {
        let caseless = options.contains(.caseInsensitive)
        let diacriticless = options.contains(.diacriticInsensitive)
        guard caseless || diacriticless else { return s }
        var text = s
        if diacriticless {
            let marksRemoved = text.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                $0.properties.generalCategory != .nonspacingMark
            }
            text = String(String.UnicodeScalarView(marksRemoved))
        }
        if caseless { text = text.uppercased().lowercased() }
        return text.precomposedStringWithCanonicalMapping
    }

    /// `==` on strings.
    package static func equals(_ a: String, _ b: String, options: ComparisonOptions = []) -> Bool {
        fold(a, options: options).utf8.elementsEqual(fold(b, options: options).utf8)
    }

    /// Three-way comparison for `<`, `<=`, `>`, `>=`: negative, zero or positive, by Unicode scalar
    /// (UTF-8 byte) order after folding.
    package static func compare(_ a: String, _ b: String, options: ComparisonOptions = []) -> Int {
        let x = fold(a, options: options).utf8, y = fold(b, options: options).utf8
        if x.elementsEqual(y) { return 0 }
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    }

    /// `CONTAINS` on strings (and `IN` with the operands swapped): `needle` occurs in `haystack`.
    package static func contains(_ haystack: String, _ needle: String, options: ComparisonOptions = []) -> Bool {
        let h = Array(fold(haystack, options: options).utf8), n = Array(fold(needle, options: options).utf8)
        // UTF-8 is self-synchronising, so a byte match of valid UTF-8 is always a whole-scalar match.
        return n.isEmpty || h.firstRange(of: n) != nil
    }

    /// `BEGINSWITH`.
    package static func beginsWith(_ s: String, _ prefix: String, options: ComparisonOptions = []) -> Bool {
        fold(s, options: options).utf8.starts(with: fold(prefix, options: options).utf8)
    }

    /// `ENDSWITH`.
    package static func endsWith(_ s: String, _ suffix: String, options: ComparisonOptions = []) -> Bool {
        fold(s, options: options).utf8.reversed().starts(with: fold(suffix, options: options).utf8.reversed())
    }

    /// `LIKE`: `pattern` matches all of `s`, where `*` is any run of characters (possibly empty), `?` is
    /// exactly one Unicode scalar, and `\` makes the next pattern character literal.
    package static func like(_ s: String, pattern: String, options: ComparisonOptions = []) -> Bool {
        let text = Array(fold(s, options: options).unicodeScalars)
        var tokens: [(scalar: Unicode.Scalar, wildcard: Bool)] = []
        var iterator = fold(pattern, options: options).unicodeScalars.makeIterator()
        while let c = iterator.next() {
            if c == "\\", let escaped = iterator.next() {
                tokens.append((escaped, false))
            } else {
                tokens.append((c, c == "*" || c == "?"))
            }
        }
        // Greedy matching with one backtrack point (the last `*`): O(n·m) in the worst case, never exponential.
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < tokens.count, tokens[p].wildcard, tokens[p].scalar == "*" {
                starP = p
                starT = t
                p += 1
            } else if p < tokens.count, tokens[p].wildcard || tokens[p].scalar == text[t] {
                p += 1
                t += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < tokens.count, tokens[p].wildcard, tokens[p].scalar == "*" { p += 1 }
        return p == tokens.count
    }

    /// The ICU regular expression equivalent to a `LIKE` pattern (anchored, `*` → `.*`, `?` → `.`), for
    /// callers that want to hand LIKE to a regex engine.
    package static func likePatternToRegularExpression(_ pattern: String) -> String {
        var out = "\\A"
        var iterator = pattern.unicodeScalars.makeIterator()
        while let c = iterator.next() {
            switch c {
            case "*": out += ".*"
            case "?": out += "."
            case "\\":
                if let escaped = iterator.next() { out += NSRegularExpression.escapedPattern(for: String(escaped)) }
            default: out += NSRegularExpression.escapedPattern(for: String(c))
            }
        }
        return out + "\\z"
    }

    /// `MATCHES`: the ICU regular expression `pattern` matches all of `s`. `[c]` makes the match
    /// case-insensitive; `[d]` removes diacritics from both sides first. Throws for an invalid pattern.
    package static func matches(
        _ s: String, regex pattern: String, options: ComparisonOptions = []
    ) throws(CDPredicateError) -> Bool {
        let diacriticOnly = options.intersection([.diacriticInsensitive])
        let text = fold(s, options: diacriticOnly)
        let regex = try RegexCache.shared.regex(
            for: fold(pattern, options: diacriticOnly), caseInsensitive: options.contains(.caseInsensitive))
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return regex.firstMatch(in: text, options: [], range: range) != nil
    }
}

/// Compiled `MATCHES` patterns, so evaluating one predicate over many rows compiles its pattern once.
private final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    // NSRegularExpression is immutable and safe to use from several threads; the lock guards the dictionary.
    private let lock = NSLock()
    private var cache: [String: NSRegularExpression] = [:]

    func regex(for pattern: String, caseInsensitive: Bool) throws(CDPredicateError) -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return cached }
        do {
            // Wrapping makes the match cover the whole string, and the non-capturing group keeps a top-level
            // alternation such as `a|ab` inside the anchors.
            let regex = try NSRegularExpression(
                pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : [])
            if cache.count > 256 { cache.removeAll() }
            cache[key] = regex
            return regex
        } catch {
            throw CDPredicateError(.invalidRegularExpression, "invalid regular expression \"\(pattern)\" in MATCHES")
        }
    }
}

extension ComparisonOptions {
    /// Options from their letters in any case and order, e.g. `"cd"`; nil if a letter is not one of
    /// `c d n l`. Useful when options travel as text, e.g. as an argument of a SQL function.
    package init?(letters: String) {
        self = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": insert(.caseInsensitive)
            case "d": insert(.diacriticInsensitive)
            case "n": insert(.normalized)
            case "l": insert(.localeSensitive)
            default: return nil
            }
        }
    }
}
