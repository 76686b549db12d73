/// A model regular expression simple enough to be checked without ICU: `^`, then a sequence of literal characters,
/// `.` and bracket classes, each with a greedy quantifier (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`), then `$` — the shape
/// of most validation patterns (`^[^@ ]+@[^@ ]+\.[a-z]{2,}$`, `^[A-Z]{2}[0-9]{4}$`).
///
/// ``AttributeRule`` asks whether a whole string matches, as `NSRegularExpression.firstMatch(…, options: .anchored)`
/// covering the whole string does. For such a pattern and a string without line terminators (where ICU's `$` also
/// matches before a final one, and `.` stops) that is exactly "some way of taking the items in turn consumes the whole
/// string": ICU's backtracking tries every way before it gives up, and the `$` at the end only accepts one that ends
/// at the end. Those strings are answered here in time linear in their length (one pass per item); other strings,
/// and other patterns (alternation, groups, escapes such as `\d` whose ICU meaning is Unicode-wide, lazy or possessive
/// quantifiers), go to ICU. `PlainPatternTests` compares both on many patterns and strings.
struct PlainPattern: Sendable {
    /// One item: a set of characters and how many of them in a row.
    struct Item: Sendable {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool
        var min: Int
        var max: Int
        /// The ASCII members of ``ranges``, one bit each (characters 0–63, 64–127): most text is ASCII, and a bit
        /// test is cheaper than walking the ranges.
        var asciiLow: UInt64 = 0
        var asciiHigh: UInt64 = 0

        /// The item with its ASCII bits set from ``ranges``.
        func withASCIIBits() -> Item {
            var item = self
            for range in ranges where range.lowerBound < 128 {
                for c in range.lowerBound...Swift.min(range.upperBound, 127) {
                    if c < 64 { item.asciiLow |= 1 << UInt64(c) } else { item.asciiHigh |= 1 << UInt64(c - 64) }
                }
            }
            return item
        }

        func accepts(_ scalar: UInt32) -> Bool {
            if scalar < 128 {
                let bits = scalar < 64 ? asciiLow >> UInt64(scalar) : asciiHigh >> UInt64(scalar - 64)
                return (bits & 1 == 1) != negated
            }
            var inside = false
            for range in ranges where range.contains(scalar) {
                inside = true
                break
            }
            return inside != negated
        }
    }

    let items: [Item]

    /// Longer strings go to ICU: its backtracking stack is bounded, and a pattern it gives up on must fail here too.
    static let maximumLength = 4096

    /// The pattern, or nil when it is not of the plain shape.
    init?(_ pattern: String) {
        var scalars = Array(pattern.unicodeScalars.map(\.value))
        guard scalars.first == Self.caret, scalars.last == Self.dollar else { return nil }
        scalars.removeFirst()
        scalars.removeLast()
        var items: [Item] = []
        var index = 0
        while index < scalars.count {
            var item: Item
            let c = scalars[index]
            index += 1
            switch Unicode.Scalar(c).map(Character.init) {
            case "[":
                guard let (parsed, end) = Self.bracket(scalars, from: index) else { return nil }
                item = parsed
                index = end
            case "\\":
                guard index < scalars.count, Self.isEscapablePunctuation(scalars[index]) else { return nil }
                item = Item(ranges: [scalars[index]...scalars[index]], negated: false, min: 1, max: 1)
                index += 1
            case ".":
                // Any character but a line terminator; strings holding one go to ICU, so: any character.
                item = Item(ranges: [], negated: true, min: 1, max: 1)
            case "^", "$", "|", "(", ")", "*", "+", "?", "{", "}", "]", "#":
                return nil
            default:
                // Letters, digits, spaces and any other character stand for themselves (no case folding by default).
                item = Item(ranges: [c...c], negated: false, min: 1, max: 1)
            }
            if index < scalars.count, Self.quantifiers.contains(scalars[index]) {
                switch scalars[index] {
                case 0x2A: (item.min, item.max) = (0, Int.max); index += 1  // *
                case 0x2B: (item.min, item.max) = (1, Int.max); index += 1  // +
                case 0x3F: (item.min, item.max) = (0, 1); index += 1  // ?
                default:  // {
                    guard let (bounds, end) = Self.counts(scalars, from: index + 1) else { return nil }
                    (item.min, item.max) = bounds
                    index = end
                }
                // A quantifier followed by `?` (lazy), `+` (possessive) or another quantifier: not plain.
                if index < scalars.count, Self.quantifiers.contains(scalars[index]) { return nil }
            }
            items.append(item.withASCIIBits())
        }
        self.items = items
    }

    /// Whether the whole of `text` matches; nil when ICU must answer (line terminators, very long text).
    func matches(_ text: String) -> Bool? {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return nil
            default: scalars.append(scalar.value)
            }
            if scalars.count > Self.maximumLength { return nil }
        }
        let n = scalars.count
        // reach[p]: the items so far can consume exactly the first p characters.
        var reach = [Bool](repeating: false, count: n + 1)
        reach[0] = true
        var counts = [Int](repeating: 0, count: n + 2)
        for item in items {
            // counts[k]: how many of reach[0..<k] are true.
            for k in 0...n { counts[k + 1] = counts[k] + (reach[k] ? 1 : 0) }
            var next = [Bool](repeating: false, count: n + 1)
            var firstInRun = 0  // the item accepts every character from here up to the current position
            for q in 0...n {
                if q > 0 && !item.accepts(scalars[q - 1]) { firstInRun = q }
                guard q >= item.min else { continue }
                let low = Swift.max(firstInRun, item.max >= q ? 0 : q - item.max)
                let high = q - item.min
                if low <= high && counts[high + 1] - counts[low] > 0 { next[q] = true }
            }
            reach = next
        }
        return reach[n]
    }

    private static let caret: UInt32 = 0x5E
    /// `*`, `+`, `?`, `{`.
    private static let quantifiers: Set<UInt32> = [0x2A, 0x2B, 0x3F, 0x7B]
    private static let dollar: UInt32 = 0x24

    /// ASCII punctuation, which a backslash makes literal in ICU (letters and digits after one mean other things).
    private static func isEscapablePunctuation(_ c: UInt32) -> Bool {
        (0x21...0x2F).contains(c) || (0x3A...0x40).contains(c) || (0x5B...0x60).contains(c) || (0x7B...0x7E).contains(c)
    }

    /// A bracket class from just after its `[` to its `]`: literal characters, escaped punctuation and ranges of
    /// those, optionally negated with a leading `^`. Nested sets, `&&`, `\p{…}`, `[:alpha:]` and a `-` that is not
    /// between two characters are not plain.
    private static func bracket(_ s: [UInt32], from start: Int) -> (Item, Int)? {
        var index = start
        var negated = false
        if index < s.count, s[index] == caret { negated = true; index += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        func member() -> UInt32? {
            guard index < s.count else { return nil }
            let c = s[index]
            switch c {
            case 0x5C:  // backslash
                guard index + 1 < s.count, isEscapablePunctuation(s[index + 1]) else { return nil }
                index += 2
                return s[index - 1]
            case 0x5B, 0x5D, 0x2D, 0x26, 0x7B, 0x7D, 0x24, 0x3A, 0x5E:  // [ ] - & { } $ : ^
                return nil
            default:
                index += 1
                return c
            }
        }
        while index < s.count, s[index] != 0x5D {
            guard let low = member() else { return nil }
            if index < s.count, s[index] == 0x2D {
                index += 1
                guard let high = member(), low <= high else { return nil }
                ranges.append(low...high)
            } else {
                ranges.append(low...low)
            }
        }
        guard index < s.count, !ranges.isEmpty else { return nil }
        return (Item(ranges: ranges, negated: negated, min: 1, max: 1), index + 1)
    }

    /// `n}`, `n,}` or `n,m}` after a `{`.
    private static func counts(_ s: [UInt32], from start: Int) -> ((Int, Int), Int)? {
        var index = start
        func number() -> Int? {
            var value = 0
            var digits = 0
            while index < s.count, (0x30...0x39).contains(s[index]), digits < 6 {
                value = value * 10 + Int(s[index] - 0x30)
                digits += 1
                index += 1
            }
            return digits > 0 ? value : nil
        }
        guard let low = number() else { return nil }
        var high = low
        if index < s.count, s[index] == 0x2C {
            index += 1
            high = number() ?? Int.max
        }
        guard index < s.count, s[index] == 0x7D, low <= high else { return nil }
        return ((low, high), index + 1)
    }
}
