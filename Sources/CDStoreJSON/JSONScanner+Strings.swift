extension JSONScanner {
    /// Reads a string whose opening quote is just behind `index`.
    ///
    /// Most strings have no escapes: they become a `String` straight from their bytes, with UTF-8 validation
    /// skipped when every byte is ASCII. Only strings with escapes are copied byte by byte.
    mutating func string() throws(ScanFailure) -> String {
        let start = index
        var high: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(
                    UnsafeBufferPointer(rebasing: bytes[start..<index]), ascii: high < 0x80,
                    at: start)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return try escapedString(from: start) }
            high |= byte
            index += 1
        }
        if !isFinal { throw .needMore }
        throw fail("unterminated string")
    }

    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool, at start: Int) throws(ScanFailure)
        -> String
    {
        if ascii { return String(decoding: utf8, as: UTF8.self) }
        // Invalid UTF-8 is refused rather than replaced: the input is not the text its writer meant.
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw fail("invalid UTF-8 in a string", at: start - 1)
        }
        return text
    }

    /// The slow path: from `start` (just after the quote), with at least one escape or control character ahead.
    private mutating func escapedString(from start: Int) throws(ScanFailure) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(index - start + 16)
        out.append(contentsOf: bytes[start..<index])
        while true {
            guard index < bytes.count else {
                if !isFinal { throw .needMore }
                throw fail("unterminated string")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try out.withUnsafeBufferPointer { buffer throws(ScanFailure) in
                    try makeString(buffer, ascii: false, at: start)
                }
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw fail(byte == 10 ? "unterminated string (line break inside)" : "control character inside a string")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    /// Decodes the escape at `index` (a backslash) into `out`.
    private mutating func escape(into out: inout [UInt8]) throws(ScanFailure) {
        guard index + 1 < bytes.count else {
            if !isFinal { throw .needMore }
            throw fail("unterminated string")
        }
        let escaped = bytes[index + 1]
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
        case UInt8(ascii: "n"): out.append(10)
        case UInt8(ascii: "t"): out.append(9)
        case UInt8(ascii: "r"): out.append(13)
        case UInt8(ascii: "b"): out.append(8)
        case UInt8(ascii: "f"): out.append(12)
        case UInt8(ascii: "u"):
            index += 2
            appendUTF8(try unicodeEscape(), to: &out)
            return
        default:
            throw fail("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
        }
        index += 2
    }

    /// Reads the hex digits of a `\u` escape at `index`, and a second escape when the first is a high surrogate.
    ///
    /// A surrogate without its partner is not a Unicode scalar and has no UTF-8 form: it is refused with the place
    /// of its escape, because replacing it with U+FFFD would store a character the writer never meant (see
    /// docs/decisions/0007-exact-values.md).
    private mutating func unicodeEscape() throws(ScanFailure) -> Unicode.Scalar {
        let escapeStart = index - 2
        let unit = try hex4()
        func lone(_ unit: UInt32) -> ScanFailure {
            let hex = String(unit, radix: 16, uppercase: true)
            let kind = unit < 0xDC00 ? "high" : "low"
            return fail("lone \(kind) surrogate \\u\(hex) (not a Unicode character; a \(kind == "high" ? "low" : "high") "
                        + "surrogate escape must \(kind == "high" ? "follow" : "precede") it)", at: escapeStart)
        }
        switch unit {
        case 0xD800..<0xDC00:
            // A low surrogate must follow as `\uDC00`…`\uDFFF`.
            guard bytes.count - index >= 6 else {
                if !isFinal { throw .needMore }
                throw lone(unit)
            }
            guard bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { throw lone(unit) }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw lone(unit) }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
        case 0xDC00..<0xE000:
            throw lone(unit)
        default:
            // Every other 16-bit value, U+0000 included, is a scalar; NUL is valid text in JSON and in SQLite.
            return Unicode.Scalar(unit)!
        }
    }

    private mutating func hex4() throws(ScanFailure) -> UInt32 {
        guard bytes.count - index >= 4 else {
            if !isFinal { throw .needMore }
            throw fail("invalid \\u escape")
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }
}
