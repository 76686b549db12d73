/// The parser proper: reads one JSON value from a contiguous window of bytes.
///
/// It never reads past the window. When the window ends inside a value and more input may follow
/// (`isFinal` false), it throws ``ScanFailure/needMore``; ``JSONReader`` then reads more and scans the value again
/// from its start. Values are small next to a 64 KiB chunk, so the rescans cost little, and keeping the scanner free
/// of refills lets it work on a plain pointer with no state to rebase.
struct JSONScanner {
    /// Containers (arrays and objects) nested deeper than this are refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// True when nothing follows the window: running out of bytes is then an error, not a reason to read more.
    let isFinal: Bool
    var line: Int
    /// The offset in the whole input of the first byte of the current line.
    var lineStart: Int
    /// The offset in the whole input of `bytes[0]`.
    let offset: Int
    let options: JSONReader.Options

    init(
        _ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, line: Int, lineStart: Int, offset: Int,
        options: JSONReader.Options
    ) {
        self.bytes = bytes
        self.isFinal = isFinal
        self.line = line
        self.lineStart = lineStart
        self.offset = offset
        self.options = options
    }

    var location: JSONLocation { JSONLocation(line: line, column: offset + index - lineStart + 1) }

    func fail(_ message: String, at position: Int? = nil) -> ScanFailure {
        .syntax(JSONSyntaxError(message: message, line: line, column: offset + (position ?? index) - lineStart + 1))
    }

    /// The byte at `index`; nil at the real end of the input.
    @inline(__always)
    func peek() throws(ScanFailure) -> UInt8? {
        if index < bytes.count { return bytes[index] }
        if isFinal { return nil }
        throw .needMore
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = offset + index
            default: return
            }
        }
    }

    /// Reads the value after any white space; `depth` is the number of containers around it.
    @_specialize(where Builder == ValueBuilder)
    @_specialize(where Builder == NodeBuilder)
    mutating func value<Builder: JSONBuilder>(_ builder: Builder, depth: Int) throws(ScanFailure) -> Builder.Value {
        skipWhitespace()
        guard let byte = try peek() else { throw fail("unexpected end of input") }
        let start = location
        switch byte {
        case UInt8(ascii: "\""):
            index += 1
            return builder.string(try string(), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return builder.number(try number(), at: start)
        case UInt8(ascii: "{"): return try object(builder, depth: depth, at: start)
        case UInt8(ascii: "["): return try array(builder, depth: depth, at: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return builder.bool(true, at: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return builder.bool(false, at: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return builder.null(at: start)
        default: throw fail("unexpected character \(Self.quoted(byte))")
        }
    }

    @_specialize(where Builder == ValueBuilder)
    @_specialize(where Builder == NodeBuilder)
    private mutating func object<Builder: JSONBuilder>(
        _ builder: Builder, depth: Int,
        at start: JSONLocation
    ) throws(ScanFailure) -> Builder.Value {
        index += 1
        guard depth < Self.maximumDepth else { throw fail("nested too deeply") }
        var members: [Builder.Member] = []
        // Records are small objects: one allocation instead of four as the array grows to 8 members.
        members.reserveCapacity(8)
        var seen: Set<String>? = options.rejectsDuplicateKeys ? [] : nil
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return builder.object(members, at: start)
        }
        var afterComma = false
        while true {
            skipWhitespace()
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else {
                if afterComma && byte == UInt8(ascii: "}") && options.allowsTrailingCommas {
                    index += 1
                    return builder.object(members, at: start)
                }
                if afterComma && byte == UInt8(ascii: "}") && options.namesTrailingCommas {
                    throw fail("trailing comma in object")
                }
                throw fail("expected a string key")
            }
            let keyStart = index
            index += 1
            let key = try string()
            if seen?.insert(key).inserted == false { throw fail("duplicate key '\(key)'", at: keyStart) }
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw fail("expected ':' after key \"\(key)\"") }
            index += 1
            members.append(builder.member(key, try value(builder, depth: depth + 1)))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                index += 1
                afterComma = true
            case UInt8(ascii: "}"):
                index += 1
                return builder.object(members, at: start)
            default:
                throw fail("expected ',' or '}'")
            }
        }
    }

    @_specialize(where Builder == ValueBuilder)
    @_specialize(where Builder == NodeBuilder)
    private mutating func array<Builder: JSONBuilder>(
        _ builder: Builder, depth: Int,
        at start: JSONLocation
    ) throws(ScanFailure) -> Builder.Value {
        index += 1
        guard depth < Self.maximumDepth else { throw fail("nested too deeply") }
        var elements: [Builder.Value] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return builder.array(elements, at: start)
        }
        while true {
            elements.append(try value(builder, depth: depth + 1))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                index += 1
                if options.allowsTrailingCommas || options.namesTrailingCommas {
                    skipWhitespace()
                    if try peek() == UInt8(ascii: "]") {
                        guard options.allowsTrailingCommas else { throw fail("trailing comma in array") }
                        index += 1
                        return builder.array(elements, at: start)
                    }
                }
            case UInt8(ascii: "]"):
                index += 1
                return builder.array(elements, at: start)
            default:
                throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(ScanFailure) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else {
            if !isFinal { throw .needMore }
            throw fail("unexpected character \(Self.quoted(bytes[index]))")
        }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw fail("unexpected character \(Self.quoted(bytes[index]))")
        }
        index += count
    }

    /// A byte for a message: `'x'`, or its hex value when it is not printable ASCII.
    static func quoted(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
