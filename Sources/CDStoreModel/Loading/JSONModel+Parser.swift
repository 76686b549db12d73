import Foundation

/// A JSON value as read from a file, with the line and column where it starts.
///
/// cdstore parses JSON models itself rather than with `JSONDecoder` so that every error and every entity
/// can be given a line and column, duplicate keys are caught, and numbers keep their exact text.
struct JSONNode {
    enum Kind {
        case null
        case bool(Bool)
        /// A number, as written.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order.
        case object([(key: String, value: JSONNode)])
    }

    var kind: Kind
    var line: Int
    var column: Int

    /// The name of the JSON type, for messages ("a string", "an object").
    var typeDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A syntax error in a JSON document, at a 1-based line and column.
struct JSONSyntaxError: Error {
    var message: String
    var line: Int
    var column: Int
}

/// A small strict JSON parser (RFC 8259) that records where each value starts.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ data: Data) { bytes = Array(data) }

    /// Parses one JSON document; anything but whitespace after it is an error.
    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(data)
        // A UTF-8 byte order mark is tolerated, as editors on some systems write one.
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, line: line, column: column)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"): index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        skipWhitespace()
        guard depth < 512 else { throw error("JSON nested too deeply") }
        guard index < bytes.count else { throw error("unexpected end of JSON") }
        let (startLine, startColumn) = (line, column)
        func node(_ kind: JSONNode.Kind) -> JSONNode { JSONNode(kind: kind, line: startLine, column: startColumn) }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSONNode)] = []
            var seen: Set<String> = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return node(.object([])) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a key in double quotes")
                }
                let keyError = error("")
                let key = try parseString()
                guard seen.insert(key).inserted else {
                    throw JSONSyntaxError(message: "duplicate key '\(key)'", line: keyError.line, column: keyError.column)
                }
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "expected ':' after key '\(key)'")
                members.append((key, try parseValue(depth: depth + 1)))
                skipWhitespace()
                if try endOrComma(UInt8(ascii: "}"), in: "object") { return node(.object(members)) }
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSONNode] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return node(.array([])) }
            while true {
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                if try endOrComma(UInt8(ascii: "]"), in: "array") { return node(.array(elements)) }
            }
        case UInt8(ascii: "\""):
            return node(.string(try parseString()))
        case UInt8(ascii: "t"):
            try literal("true"); return node(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false"); return node(.bool(false))
        case UInt8(ascii: "n"):
            try literal("null"); return node(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return node(.number(try parseNumber()))
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    /// After a member or element: true at the closing bracket, false after a comma.
    private mutating func endOrComma(_ close: UInt8, in container: String) throws(JSONSyntaxError) -> Bool {
        guard index < bytes.count else { throw error("unexpected end of JSON inside an \(container)") }
        if bytes[index] == close { index += 1; return true }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == close { throw error("trailing comma in \(container)") }
            return false
        }
        throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(container)")
    }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(JSONSyntaxError) {
        guard index < bytes.count, bytes[index] == byte else { throw error(message) }
        index += 1
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("invalid literal (expected '\(word)')")
        }
        index += expected.count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let intDigits = digits()
        guard intDigits > 0, !(leadingZero && intDigits > 1) else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("invalid number") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() { scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars) }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flushRun()
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun()
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit), bytes.count - index >= 6,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair in string") }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw error("invalid \\u escape in string") }
                    scalars.append(scalar)
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in string")
                }
                runStart = index
            case 0..<0x20:
                throw error(byte == UInt8(ascii: "\n") ? "unterminated string" : "control character in string")
            default:
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4,
              let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw error("invalid \\u escape in string") }
        index += 4
        return value
    }
}

/// A JSON value to write; encoded with `JSONEncoder` so output formatting is Foundation's.
enum JSONValue: Encodable, Equatable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
