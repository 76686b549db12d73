/// Where something is in an XML document: 1-based line and column, the column counted in characters (Unicode
/// scalars), after line ends are normalised (a CR LF pair is one line end).
package struct XMLPosition: Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }
}

/// Why a document is not XML cdstore reads, and where.
package struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in a sentence without the position.
    package var message: String
    package var position: XMLPosition

    package init(_ message: String, at position: XMLPosition) {
        self.message = message
        self.position = position
    }

    package var description: String { "\(position): \(message)" }
}

/// A document's bytes as UTF-8 that is known valid, with line ends normalised, and the starts of its lines for
/// turning byte offsets into positions.
///
/// Everything that can make a later `String(decoding:as:)` lossy is refused here, with its position: bytes that are
/// not UTF-8 and characters XML forbids (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF). UTF-16 (with a byte
/// order mark, or recognised from `<?` written in it) and a declared ISO-8859-1 are converted first; any other declared
/// encoding is refused rather than guessed.
struct XMLText {
    /// The document as UTF-8 with LF line ends, then a 0 sentinel (never part of the text: NUL is not an XML
    /// character), so scanners can look one byte ahead without a bounds check on every step.
    let bytes: [UInt8]
    /// The number of bytes of text, without the sentinel.
    let count: Int
    /// Byte offsets of the first byte of each line.
    private let lineStarts: [Int]

    init(_ raw: [UInt8]) throws {
        var utf8 = try Self.decoded(raw)
        if utf8.contains(0x0D) { utf8 = Self.normalisingLineEnds(utf8) }
        lineStarts = try Self.validate(utf8)
        count = utf8.count
        utf8.append(0)
        bytes = utf8
    }

    /// The line and column of byte `offset`. `hint`, an earlier answer at or before `offset`, saves counting the
    /// columns from the start of the line again (a document can be one long line).
    func position(at offset: Int, hint: (offset: Int, position: XMLPosition)? = nil) -> XMLPosition {
        // The last line start at or before `offset`.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var i = lineStarts[low]
        if let hint, hint.position.line == low + 1, hint.offset >= i, hint.offset <= offset {
            column = hint.position.column
            i = hint.offset
        }
        let end = min(offset, count)
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return XMLPosition(line: low + 1, column: column)
    }

    /// The text of bytes `start..<end` (valid UTF-8 by construction).
    func string(_ start: Int, _ end: Int) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    // MARK: - Encodings

    private static func decoded(_ raw: [UInt8]) throws -> [UInt8] {
        let start = XMLPosition(line: 1, column: 1)
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(raw.dropFirst(3)) }
        if raw.starts(with: [0xFE, 0xFF]) { return try utf16(raw.dropFirst(2), bigEndian: true) }
        if raw.starts(with: [0xFF, 0xFE]) { return try utf16(raw.dropFirst(2), bigEndian: false) }
        if raw.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return try utf16(raw[...], bigEndian: true) }
        if raw.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return try utf16(raw[...], bigEndian: false) }
        guard let name = declaredEncoding(raw) else { return raw }
        switch name.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii":
            return raw
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1":
            var utf8: [UInt8] = []
            utf8.reserveCapacity(raw.count + raw.count / 8)
            for byte in raw {
                if byte < 0x80 { utf8.append(byte) } else { utf8 += [0xC0 | byte >> 6, 0x80 | byte & 0x3F] }
            }
            return utf8
        default:
            throw XMLError("unsupported encoding '\(name)' (cdstore reads UTF-8, UTF-16 and ISO-8859-1)", at: start)
        }
    }

    /// The `encoding` of an XML declaration at the very start, if there is one.
    private static func declaredEncoding(_ raw: [UInt8]) -> String? {
        guard raw.starts(with: Array("<?xml".utf8)), raw.count > 5, [0x20, 0x09, 0x0A, 0x0D].contains(raw[5]),
              let end = raw.prefix(512).firstIndex(of: UInt8(ascii: ">"))
        else { return nil }
        let declaration = Array(raw[..<end])
        let key = Array("encoding".utf8)
        guard let at = (0...max(0, declaration.count - key.count)).first(where: {
            declaration.count >= key.count && Array(declaration[$0..<$0 + key.count]) == key
        }) else { return nil }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var j = at + key.count
        while j < declaration.count && isSpace(declaration[j]) { j += 1 }
        guard j < declaration.count, declaration[j] == UInt8(ascii: "=") else { return nil }
        j += 1
        while j < declaration.count && isSpace(declaration[j]) { j += 1 }
        guard j < declaration.count, declaration[j] == UInt8(ascii: "\"") || declaration[j] == UInt8(ascii: "'") else { return nil }
        let quote = declaration[j]
        let value = declaration[(j + 1)...].prefix { $0 != quote }
        return String(decoding: value, as: UTF8.self)
    }

    private static func utf16(_ raw: ArraySlice<UInt8>, bigEndian: Bool) throws -> [UInt8] {
        guard raw.count % 2 == 0 else {
            throw XMLError("UTF-16 text with an odd number of bytes (truncated?)", at: XMLPosition(line: 1, column: 1))
        }
        var units: [UInt16] = []
        units.reserveCapacity(raw.count / 2)
        var i = raw.startIndex
        while i < raw.endIndex {
            let a = UInt16(raw[i]), b = UInt16(raw[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.count)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        var line = 1, column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                utf8 += Array(String(scalar).utf8)
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return utf8
            case .error:
                throw XMLError("not well-formed: a UTF-16 surrogate without its pair", at: XMLPosition(line: line, column: column))
            }
        }
    }

    // MARK: - Line ends and characters

    /// CR LF and a lone CR become LF, as XML requires before parsing (XML 1.0 §2.11).
    private static func normalisingLineEnds(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D {
                result.append(0x0A)
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            } else {
                result.append(bytes[i])
            }
            i += 1
        }
        return result
    }

    /// Checks that `bytes` is UTF-8 holding only XML characters, and returns where its lines start.
    private static func validate(_ bytes: [UInt8]) throws -> [Int] {
        var lineStarts = [0]
        let count = bytes.count
        try bytes.withUnsafeBufferPointer { (p) throws in
            var i = 0
            while i < count {
                let b = p[i]
                if b >= 0x20 && b < 0x80 { i += 1; continue }
                if b == 0x0A { i += 1; lineStarts.append(i); continue }
                if b == 0x09 { i += 1; continue }
                let length: Int, scalar: UInt32
                switch b {
                case 0xC2...0xDF: length = 2; scalar = UInt32(b & 0x1F)
                case 0xE0...0xEF: length = 3; scalar = UInt32(b & 0x0F)
                case 0xF0...0xF4: length = 4; scalar = UInt32(b & 0x07)
                default: throw Self.invalid(b < 0x80 ? .control : .notUTF8, at: i, p, lineStarts)
                }
                guard i + length <= count else { throw Self.invalid(.notUTF8, at: i, p, lineStarts) }
                var value = scalar
                for k in 1..<length {
                    let c = p[i + k]
                    guard c & 0xC0 == 0x80 else { throw Self.invalid(.notUTF8, at: i, p, lineStarts) }
                    value = value << 6 | UInt32(c & 0x3F)
                }
                let shortest: Bool
                switch length {
                case 3: shortest = value >= 0x800 && !(0xD800...0xDFFF).contains(value)
                case 4: shortest = value >= 0x10000 && value <= 0x10FFFF
                default: shortest = true
                }
                guard shortest else { throw Self.invalid(.notUTF8, at: i, p, lineStarts) }
                if value == 0xFFFE || value == 0xFFFF {
                    throw Self.invalid(.control, at: i, p, lineStarts)
                }
                i += length
            }
        }
        return lineStarts
    }

    private enum Problem { case notUTF8, control }

    private static func invalid(_ problem: Problem, at offset: Int, _ p: UnsafeBufferPointer<UInt8>,
                                _ lineStarts: [Int]) -> XMLError {
        var column = 1
        for i in lineStarts[lineStarts.count - 1]..<offset where p[i] & 0xC0 != 0x80 { column += 1 }
        let position = XMLPosition(line: lineStarts.count, column: column)
        switch problem {
        case .notUTF8: return XMLError("not well-formed: bytes that are not UTF-8", at: position)
        case .control: return XMLError("not well-formed: a character XML does not allow", at: position)
        }
    }
}
