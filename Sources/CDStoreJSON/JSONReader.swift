#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// cdstore's JSON reader: reads values one at a time from a ``ByteStream``, so a file of any size is read in
/// bounded memory, and reports problems as ``JSONSyntaxError``s with a line and column.
///
/// Integers that fit in 64 bits stay exact, strings may hold `\u0000`, object keys keep their order, and more
/// than 512 nested arrays and objects are refused. A UTF-8 byte order mark at the start is skipped.
///
/// ```swift
/// var reader = JSONReader(try ByteStream(path: "people.json"))
/// guard try reader.peek() == UInt8(ascii: "[") else { … }
/// reader.skipByte()
/// let first = try reader.readValue(depth: 1)
/// ```
package struct JSONReader {
    /// What the reader checks beyond the JSON grammar.
    package struct Options: Sendable {
        /// Refuse an object that names a key twice (`duplicate key 'a'`).
        package var rejectsDuplicateKeys = false
        /// Say "trailing comma in object/array" rather than what was expected after the comma (when trailing
        /// commas are not allowed).
        package var namesTrailingCommas = false
        /// Accept one comma after the last member of an object or element of an array (`[1, 2,]`), as Apple's
        /// `JSONSerialization` does: apps ship seed files written that way, and read them without complaint.
        /// Everything else stays strict: `[,]`, `[1,,2]` and a missing comma are still errors.
        package var allowsTrailingCommas = true

        package init(rejectsDuplicateKeys: Bool = false, namesTrailingCommas: Bool = false, allowsTrailingCommas: Bool = true) {
            self.rejectsDuplicateKeys = rejectsDuplicateKeys
            self.namesTrailingCommas = namesTrailingCommas
            self.allowsTrailingCommas = allowsTrailingCommas
        }

        /// The checks for hand-written files such as models, where a duplicate key or a trailing comma is a mistake.
        package static let strict = Options(rejectsDuplicateKeys: true, namesTrailingCommas: true, allowsTrailingCommas: false)
    }

    /// The name this type's errors had before they moved to CDStoreJSON.
    package typealias SyntaxError = JSONSyntaxError

    /// The input.
    package let stream: ByteStream
    package let options: Options
    /// The line of the next unread byte.
    package private(set) var line = 1
    private var lineStart = 0
    private var started = false

    /// Prepares to read `stream`.
    package init(_ stream: ByteStream, options: Options = Options()) {
        self.stream = stream
        self.options = options
    }

    /// Parses `text`, which must hold one JSON value (white space around it allowed).
    package static func parse(_ text: String, options: Options = Options()) throws -> JSONValue {
        var reader = JSONReader(ByteStream(text, chunkSize: max(text.utf8.count, 16)), options: options)
        let value = try reader.readValue()
        try reader.expectEnd()
        return value
    }

    /// Where the next unread byte is.
    package var location: JSONLocation { JSONLocation(line: line, column: Int(stream.consumed) - lineStart + 1) }

    /// An error at the next unread byte.
    package func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, line: location.line, column: location.column)
    }

    /// Reads the next value; `depth` is the number of arrays and objects already open around it.
    /// - Throws: ``JSONSyntaxError``, or ``ByteStream/ReadError`` when the input cannot be read.
    package mutating func readValue(depth: Int = 0) throws -> JSONValue {
        try scan { scanner throws(ScanFailure) in try scanner.value(ValueBuilder(), depth: depth) }
    }

    /// Reads the next value with the position of every value in it and numbers as written.
    package mutating func readNode(depth: Int = 0) throws -> JSONNode {
        try scan { scanner throws(ScanFailure) in try scanner.value(NodeBuilder(), depth: depth) }
    }

    /// Skips white space and returns the next byte without consuming it; nil at the end of the input.
    package mutating func peek() throws -> UInt8? {
        try start()
        while true {
            let window = stream.window
            for index in window.indices {
                switch window[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
                case UInt8(ascii: "\n"):
                    line += 1
                    lineStart = Int(stream.consumed) + index + 1
                default:
                    stream.consume(index)
                    return window[index]
                }
            }
            stream.consume(window.count)
            if try !stream.fill() && stream.window.isEmpty { return nil }
        }
    }

    /// Reads an object member's key and its colon, leaving the reader at the member's value (for readers that walk
    /// a document's outer objects without reading them whole).
    package mutating func readMemberKey() throws -> String {
        guard try peek() == UInt8(ascii: "\""), case .string(let key) = try readValue(depth: 1) else {
            throw error("expected a string key")
        }
        guard try peek() == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
        skipByte()
        return key
    }

    /// Consumes the byte ``peek()`` returned (a bracket or comma between values).
    package mutating func skipByte() {
        stream.consume(1)
    }

    /// Checks that only white space is left.
    /// - Throws: ``JSONSyntaxError`` "unexpected text after the JSON value".
    package mutating func expectEnd() throws {
        if try peek() != nil { throw error("unexpected text after the JSON value") }
    }

    /// Reads one line of NDJSON: skips blank lines, then parses the next line as one JSON value.
    ///
    /// Lines end at `\n`; a `\r` before it is white space. A line may be longer than a chunk. Errors carry the
    /// line's number and a column within it, and the reader has moved past the bad line, so reading can go on.
    /// - Returns: the value and its line number, or nil at the end of the input.
    package mutating func readLineValue() throws -> (value: JSONValue, line: Int)? {
        try start()
        var searched = 0
        while true {
            let window = stream.window
            guard let base = window.baseAddress, searched < window.count,
                let newline = memchr(base + searched, 10, window.count - searched)
            else {
                searched = window.count
                if try stream.fill() { continue }
                // The last line, without a newline (`fill` may have moved the window: only its length is kept).
                let rest = stream.window.count
                if rest == 0 { return nil }
                return try lineValue(rest, consuming: rest)
            }
            let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            if let value = try lineValue(end, consuming: end + 1) { return value }
            searched = 0
        }
    }

    /// Parses the first `count` bytes of the window as one line; nil if it is blank.
    private mutating func lineValue(_ count: Int, consuming: Int) throws -> (value: JSONValue, line: Int)? {
        let lineNumber = line
        let offset = Int(stream.consumed)
        var scanner = JSONScanner(
            UnsafeBufferPointer(rebasing: stream.window[..<count]), isFinal: true,
            line: lineNumber, lineStart: lineStart, offset: offset, options: options)
        defer {
            stream.consume(consuming)
            line += 1
            lineStart = offset + consuming
        }
        scanner.skipWhitespace()
        if scanner.index == count { return nil }
        do throws(ScanFailure) {
            let value = try scanner.value(ValueBuilder(), depth: 0)
            scanner.skipWhitespace()
            guard scanner.index == count else { throw scanner.fail("unexpected text after the JSON value") }
            return (value, lineNumber)
        } catch {
            guard case .syntax(let error) = error else { preconditionFailure("a final window never needs more bytes") }
            throw error
        }
    }

    /// Runs `body` on a scanner over the unread bytes, reading more and starting again whenever the bytes run out
    /// in the middle of the value.
    private mutating func scan<Value>(_ body: (inout JSONScanner) throws(ScanFailure) -> Value) throws -> Value {
        try start()
        while true {
            var scanner = JSONScanner(
                stream.window, isFinal: stream.isExhausted, line: line, lineStart: lineStart,
                offset: Int(stream.consumed), options: options)
            do {
                let value = try body(&scanner)
                stream.consume(scanner.index)
                line = scanner.line
                lineStart = scanner.lineStart
                return value
            } catch .needMore {
                try stream.fill()
            } catch .syntax(let error) {
                throw error
            }
        }
    }

    /// Skips a UTF-8 byte order mark at the very start; columns then count from the byte after it.
    private mutating func start() throws {
        guard !started else { return }
        started = true
        while stream.window.count < 3, try stream.fill() {}
        if stream.window.starts(with: [0xEF, 0xBB, 0xBF]) {
            stream.consume(3)
            lineStart = 3
        }
    }
}
