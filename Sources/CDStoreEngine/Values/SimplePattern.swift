import Foundation

/// A regular expression of the plain kind models give text attributes, matched without ICU: a sequence of single
/// characters, `.` and bracket classes, each with an optional greedy quantifier, ending with `$`.
/// `^[^@ ]+@[^@ ]+\.[a-z]{2,}$` and `^[A-Z]{2}[0-9]{4}$` are of that kind.
///
/// Why: `NSRegularExpression.firstMatch` bridges, sets ICU up and builds a match object for every value, which
/// dominates the reading thread of a load whose attributes carry a pattern (figures in ADR 0013). This matcher runs
/// the pattern as a small automaton over the value's code points.
///
/// It gives the answer ``AttributeRule`` takes from ICU, "an anchored match covers the whole value":
/// - the pattern must end with `$`, so any match ICU finds ends at the end of the value, unless the value ends with
///   a line terminator; values holding one are left to ICU (``matchesWhole(_:)`` returns nil);
/// - without groups, alternation or lazy quantifiers, ICU's backtracking finds a match whenever one exists, so "a
///   match exists" is the question, which the automaton answers;
/// - characters are code points, as in ICU; `.` matches any (line terminators are left to ICU anyway).
/// Anything else (escapes such as `\d` or `\w`, nested or named sets, groups, `|`, lazy or possessive
/// quantifiers, a `$` that is not last) makes ``init(_:)`` return nil, and ICU matches that pattern.
/// `SimplePatternTests` compares both on random patterns and values.
package struct SimplePattern {
    /// One position of the pattern: which code points it takes, how often.
    struct Element {
        let set: ScalarSet
        let min: Int
        /// nil: no upper bound.
        let max: Int?
    }

    /// The code points a position matches.
    enum ScalarSet {
        case any
        case ranges([ClosedRange<UInt32>], negated: Bool)

        func contains(_ scalar: UInt32) -> Bool {
            switch self {
            case .any: return true
            case .ranges(let ranges, let negated):
                return ranges.contains { $0.contains(scalar) } != negated
            }
        }
    }

    /// The automaton, built once: states are (element, count so far) as bits of a `UInt64`, counts of an unbounded
    /// element stopping at its minimum (more change nothing); the last bit accepts.
    private let automaton: Automaton

    /// ICU's line terminators: `$` may match before one at the end of the value, `.` does not match them.
    static let lineTerminators: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
    /// Characters with a meaning of their own outside a class.
    private static let special: Set<UInt32> = Set("\\.[](){}|*+?^$".unicodeScalars.map(\.value))
    /// Punctuation a backslash makes literal, outside or inside a class.
    private static let escapable: Set<UInt32> = Set("\\.[](){}|*+?^$-/".unicodeScalars.map(\.value))
    /// Characters a class may hold unescaped: set syntax (`[`, `&&`, `--`, `\p`, `{…}`, `$`, `:`) is left to ICU.
    private static let classUnsafe: Set<UInt32> = Set("[]\\&-^{}$:".unicodeScalars.map(\.value))
    /// Larger bounds are left to ICU: the automaton keeps one state per count, 63 in all.
    static let boundLimit = 32

    /// The pattern as a matcher, or nil when it is not of the plain kind.
    package init?(_ pattern: String) {
        var scalars = Array(pattern.unicodeScalars.map(\.value))
        guard scalars.last == UInt32(("$" as Unicode.Scalar).value) else { return nil }
        scalars.removeLast()
        var index = 0
        if scalars.first == UInt32(("^" as Unicode.Scalar).value) { index = 1 }
        var elements: [Element] = []
        while index < scalars.count {
            guard let (set, next) = Self.atom(scalars, at: index) else { return nil }
            guard let (min, max, end) = Self.quantifier(scalars, at: next) else { return nil }
            elements.append(Element(set: set, min: min, max: max))
            index = end
        }
        guard !elements.isEmpty, let automaton = Automaton(elements) else { return nil }
        self.automaton = automaton
    }

    /// Whether the whole of `text` matches; nil when `text` holds a line terminator (ask ICU).
    package func matchesWhole(_ text: String) -> Bool? {
        var text = text
        // ASCII text byte by byte, through a table of the states that take each character; other text by code point.
        let ascii: Bool?? = text.withUTF8 { bytes in
            var current = automaton.start
            for byte in bytes {
                guard byte < 0x80 else { return .none }
                if byte >= 0x0A && byte <= 0x0D { return .some(nil) }
                current = automaton.step(current, taking: automaton.asciiTakes[Int(byte)])
                if current == 0 { return false }
            }
            return current & automaton.accept != 0
        }
        if let ascii { return ascii }
        var current = automaton.start
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if Self.lineTerminators.contains(value) { return nil }
            current = automaton.step(current, taking: value < 0x80 ? automaton.asciiTakes[Int(value)] : automaton.takes(value))
            if current == 0 { return false }
        }
        return current & automaton.accept != 0
    }

    /// Whether an anchored match of `expression` covers the whole of `text`: ICU's answer (through Foundation), for
    /// patterns and values this matcher leaves to it.
    package static func matchesWhole(_ text: String, _ expression: NSRegularExpression) -> Bool {
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range)?.range == range
    }

    /// The pattern's states and moves, precomputed.
    private struct Automaton {
        /// For each ASCII character, the states that may take it.
        let asciiTakes: [UInt64]
        /// Each element's code points, and its states that may take one more.
        let sets: [ScalarSet]
        let states: [UInt64]
        /// For each state: the states reached by taking one code point there, with the moves that need none.
        let afterStep: [UInt64]
        let start: UInt64
        let accept: UInt64

        init?(_ elements: [Element]) {
            var base: [Int] = []
            var total = 0
            for element in elements {
                base.append(total)
                total += (element.max ?? element.min) + 1
            }
            guard total < 64 else { return nil }
            let acceptBit = total
            // The state and every state reachable from it without taking a code point.
            func closure(_ element: Int, _ count: Int) -> UInt64 {
                var mask: UInt64 = 0
                var element = element, count = count
                while element < elements.count {
                    mask |= 1 << UInt64(base[element] + count)
                    guard count >= elements[element].min else { return mask }
                    element += 1
                    count = 0
                }
                return mask | 1 << UInt64(acceptBit)
            }
            var afterStep = [UInt64](repeating: 0, count: total + 1)
            var asciiTakes = [UInt64](repeating: 0, count: 128)
            var stateMasks: [UInt64] = []
            for (number, element) in elements.enumerated() {
                let capacity = element.max ?? element.min
                var states: UInt64 = 0
                for count in 0...capacity {
                    if let max = element.max, count >= max { continue }
                    states |= 1 << UInt64(base[number] + count)
                    let next = element.max == nil ? Swift.min(count + 1, element.min) : count + 1
                    afterStep[base[number] + count] = closure(number, next)
                }
                for scalar in UInt32(0)..<128 where element.set.contains(scalar) { asciiTakes[Int(scalar)] |= states }
                stateMasks.append(states)
            }
            self.asciiTakes = asciiTakes
            sets = elements.map(\.set)
            self.states = stateMasks
            self.afterStep = afterStep
            start = closure(0, 0)
            accept = 1 << UInt64(acceptBit)
        }

        /// The states that may take the code point `scalar` (beyond ASCII).
        func takes(_ scalar: UInt32) -> UInt64 {
            var mask: UInt64 = 0
            for (set, states) in zip(sets, states) where set.contains(scalar) { mask |= states }
            return mask
        }

        /// The states after the active ones among `taking` take one code point.
        func step(_ current: UInt64, taking: UInt64) -> UInt64 {
            var states = current & taking
            var next: UInt64 = 0
            while states != 0 {
                next |= afterStep[states.trailingZeroBitCount]
                states &= states - 1
            }
            return next
        }
    }

    private static func atom(_ scalars: [UInt32], at index: Int) -> (ScalarSet, Int)? {
        let scalar = scalars[index]
        switch Unicode.Scalar(scalar).map(Character.init) {
        case ".": return (.any, index + 1)
        case "\\":
            guard index + 1 < scalars.count, escapable.contains(scalars[index + 1]) else { return nil }
            return (.ranges([scalars[index + 1]...scalars[index + 1]], negated: false), index + 2)
        case "[": return bracket(scalars, at: index + 1)
        default:
            guard !special.contains(scalar) else { return nil }
            return (.ranges([scalar...scalar], negated: false), index + 1)
        }
    }

    /// A class after its `[`: members, ranges, an optional leading `^`; the index after its `]`.
    private static func bracket(_ scalars: [UInt32], at start: Int) -> (ScalarSet, Int)? {
        var index = start
        var negated = false
        if index < scalars.count, scalars[index] == UInt32(("^" as Unicode.Scalar).value) {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        func member(_ at: Int) -> (UInt32, Int)? {
            guard at < scalars.count else { return nil }
            let scalar = scalars[at]
            if scalar == UInt32(("\\" as Unicode.Scalar).value) {
                guard at + 1 < scalars.count, escapable.contains(scalars[at + 1]) else { return nil }
                return (scalars[at + 1], at + 2)
            }
            guard !classUnsafe.contains(scalar) else { return nil }
            return (scalar, at + 1)
        }
        while index < scalars.count, scalars[index] != UInt32(("]" as Unicode.Scalar).value) {
            guard let (low, afterLow) = member(index) else { return nil }
            if afterLow < scalars.count, scalars[afterLow] == UInt32(("-" as Unicode.Scalar).value) {
                guard let (high, afterHigh) = member(afterLow + 1), low <= high else { return nil }
                ranges.append(low...high)
                index = afterHigh
            } else {
                ranges.append(low...low)
                index = afterLow
            }
        }
        guard index < scalars.count, !ranges.isEmpty else { return nil }
        return (.ranges(ranges, negated: negated), index + 1)
    }

    /// The quantifier at `index` (none: exactly once); nil for lazy, possessive or malformed ones.
    private static func quantifier(_ scalars: [UInt32], at index: Int) -> (Int, Int?, Int)? {
        guard index < scalars.count else { return (1, 1, index) }
        let bounds: (Int, Int?, Int)
        switch Unicode.Scalar(scalars[index]).map(Character.init) {
        case "*": bounds = (0, nil, index + 1)
        case "+": bounds = (1, nil, index + 1)
        case "?": bounds = (0, 1, index + 1)
        case "{":
            guard let close = scalars[index...].firstIndex(of: UInt32(("}" as Unicode.Scalar).value)) else { return nil }
            let inside = String(String.UnicodeScalarView(scalars[(index + 1)..<close].compactMap(Unicode.Scalar.init)))
            let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
                  let low = Int(parts[0]), low <= boundLimit else { return nil }
            if parts.count == 1 {
                bounds = (low, low, close + 1)
            } else if parts[1].isEmpty {
                bounds = (low, nil, close + 1)
            } else {
                guard let high = Int(parts[1]), low <= high, high <= boundLimit else { return nil }
                bounds = (low, high, close + 1)
            }
        default:
            return (1, 1, index)
        }
        // A quantifier made lazy (`?`) or possessive (`+`), or a second one: ICU's.
        if bounds.2 < scalars.count, "?+*{".unicodeScalars.map(\.value).contains(scalars[bounds.2]) { return nil }
        return bounds
    }
}
