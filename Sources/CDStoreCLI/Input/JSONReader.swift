import CDStoreSQLite

/// A small JSON parser that keeps what users need in error messages and imports: the line and column of a
/// syntax error, the line each value starts on, object keys in order, and integers exact to 64 bits.
public struct JSONReader {
    /// A syntax error with its place in the text.
    public struct SyntaxError: Error, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int
        public var description: String { "malformed JSON at line \(line), column \(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// Prepares to read `text`.
    public init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON document (surrounding white space allowed).
    public static func parse(_ text: String) throws -> InputValue {
        var reader = JSONReader(text)
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses a top-level array or object into records, each with the line it starts on.
    public static func records(_ text: String) throws -> [(InputValue, Int)] {
        var reader = JSONReader(text)
        reader.skipSpace()
        var result: [(InputValue, Int)] = []
        if reader.peek == UInt8(ascii: "[") {
            reader.index += 1
            reader.depth += 1
            reader.skipSpace()
            if reader.peek == UInt8(ascii: "]") {
                reader.index += 1
            } else {
                while true {
                    reader.skipSpace()
                    let line = reader.line
                    result.append((try reader.value(), line))
                    reader.skipSpace()
                    if reader.consume(",") { continue }
                    guard reader.consume("]") else { throw reader.error("expected ',' or ']'") }
                    break
                }
            }
        } else {
            let line = reader.line
            result.append((try reader.value(), line))
        }
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return result
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func consume(_ c: Unicode.Scalar) -> Bool {
        guard peek == UInt8(ascii: c) else { return false }
        index += 1
        return true
    }

    mutating func skipSpace() {
        while let c = peek {
            if c == 10 { line += 1; lineStart = index + 1 } else if c != 32 && c != 9 && c != 13 { return }
            index += 1
        }
    }

    func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, line: line, column: index - lineStart + 1)
    }

    mutating func value() throws -> InputValue {
        skipSpace()
        guard let c = peek else { throw error("unexpected end of input") }
        switch c {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(c)))'")
        }
    }

    mutating func literal(_ word: String, _ result: InputValue) throws -> InputValue {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
        index += w.count
        return result
    }

    mutating func nest() throws {
        depth += 1
        guard depth <= 512 else { throw error("nested too deeply") }
    }

    mutating func object() throws -> InputValue {
        index += 1
        try nest()
        defer { depth -= 1 }
        var fields: [(String, InputValue)] = []
        skipSpace()
        if consume("}") { return .object(fields) }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            skipSpace()
            guard consume(":") else { throw error("expected ':' after key \"\(key)\"") }
            fields.append((key, try value()))
            skipSpace()
            if consume(",") { continue }
            guard consume("}") else { throw error("expected ',' or '}'") }
            return .object(fields)
        }
    }

    mutating func array() throws -> InputValue {
        index += 1
        try nest()
        defer { depth -= 1 }
        var items: [InputValue] = []
        skipSpace()
        if consume("]") { return .array(items) }
        while true {
            items.append(try value())
            skipSpace()
            if consume(",") { continue }
            guard consume("]") else { throw error("expected ',' or ']'") }
            return .array(items)
        }
    }

    mutating func string() throws -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("unterminated string") }
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw error("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), consume("\\"), consume("u") {
                        let low = try hex4()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            case 0..<32:
                throw error(c == 10 ? "unterminated string (line break inside)" : "control character inside a string")
            default:
                out.append(c)
            }
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw error("invalid \\u escape") }
        index += 4
        return value
    }

    mutating func number() throws -> InputValue {
        let start = index
        var isInteger = true
        if peek == UInt8(ascii: "-") { index += 1 }
        while let c = peek, (c >= 48 && c <= 57) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
                || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { isInteger = false }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), text != "-" else {
            index = start
            throw error("invalid number '\(text)'")
        }
        return .double(d)
    }
}
