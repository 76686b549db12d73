import CDStoreEngine
import CDStoreJSON
import Foundation

/// Value forms of ``ValueText`` and ``JSONText``, written as bytes. Each must print exactly what its `String`
/// counterpart prints: the export tests compare both paths byte for byte.
extension ByteBuffer {
    /// ``ValueText/number(_:)-(Double)``.
    func appendNumber(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15, !(value == 0 && value.sign == .minus) {
            appendInteger(Int64(value))
        } else {
            append(ValueText.number(value))
        }
    }

    /// ``ValueText/iso8601(_:)``: `2024-05-01T12:30:00.000Z`.
    func appendISO8601(_ secondsSince2001: Double) {
        guard secondsSince2001.isFinite, abs(secondsSince2001) < 1e14 else {
            append(ValueText.iso8601(secondsSince2001))
            return
        }
        let (seconds, fraction, width) = ValueText.secondAndFraction(secondsSince2001)
        guard width == 3 else {
            // Sub-millisecond parts are rare enough for the String path.
            append(ValueText.iso8601(secondsSince2001))
            return
        }
        let total = Int(seconds) + CivilCalendar.referenceOffset
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilCalendar.date(days: days)
        guard year >= 0 && year <= 9999 else {
            // Signed six-digit years are rare enough for the String path.
            append(ValueText.iso8601(secondsSince2001))
            return
        }
        appendPadded(year, width: 4)
        append(UInt8(ascii: "-")); appendPadded(month, width: 2)
        append(UInt8(ascii: "-")); appendPadded(day, width: 2)
        append(UInt8(ascii: "T")); appendPadded(secondOfDay / 3600, width: 2)
        append(UInt8(ascii: ":")); appendPadded(secondOfDay / 60 % 60, width: 2)
        append(UInt8(ascii: ":")); appendPadded(secondOfDay % 60, width: 2)
        append(UInt8(ascii: ".")); appendPadded(fraction, width: 3)
        append(UInt8(ascii: "Z"))
    }

    /// `UUID.uuidString`: upper-case hex in 8-4-4-4-12 groups.
    func appendUUID(_ bytes16: UnsafeRawBufferPointer) {
        for (i, byte) in bytes16.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { append(UInt8(ascii: "-")) }
            append(Self.upperHex[Int(byte >> 4)])
            append(Self.upperHex[Int(byte & 0x0F)])
        }
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)
    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `Data.base64EncodedString()`: standard alphabet, padded, no line breaks.
    func appendBase64(_ data: UnsafeRawBufferPointer) {
        let table = Self.base64Alphabet
        var i = 0
        let n = data.count
        while i + 3 <= n {
            let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
            append(table[Int(v >> 18 & 63)]); append(table[Int(v >> 12 & 63)])
            append(table[Int(v >> 6 & 63)]); append(table[Int(v & 63)])
            i += 3
        }
        if n - i == 1 {
            let v = UInt32(data[i]) << 16
            append(table[Int(v >> 18 & 63)]); append(table[Int(v >> 12 & 63)])
            append(UInt8(ascii: "=")); append(UInt8(ascii: "="))
        } else if n - i == 2 {
            let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8
            append(table[Int(v >> 18 & 63)]); append(table[Int(v >> 12 & 63)])
            append(table[Int(v >> 6 & 63)]); append(UInt8(ascii: "="))
        }
    }

    /// ``JSONText/quoted(_:)`` of valid UTF-8 text: escapes work byte by byte, since every byte that needs one is
    /// ASCII and never part of a multi-byte sequence — except U+2028 and U+2029 (`E2 80 A8`, `E2 80 A9`),
    /// found by their lead byte.
    func appendJSONString(_ text: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        while i < text.count {
            let byte = text[i]
            if byte == 0xE2, i + 2 < text.count, text[i + 1] == 0x80, text[i + 2] == 0xA8 || text[i + 2] == 0xA9 {
                if i > runStart { append(UnsafeBufferPointer(rebasing: text[runStart..<i])) }
                for ascii in text[i + 2] == 0xA8 ? Self.lineSeparator : Self.paragraphSeparator { append(ascii) }
                i += 3
                runStart = i
                continue
            }
            defer { i += 1 }
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if i > runStart { append(UnsafeBufferPointer(rebasing: text[runStart..<i])) }
            runStart = i + 1
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
            case 0x0A: append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "t"))
            case 0x08: append(UInt8(ascii: "b"))
            case 0x0C: append(UInt8(ascii: "f"))
            default:
                append(UInt8(ascii: "u")); append(UInt8(ascii: "0")); append(UInt8(ascii: "0"))
                append(Self.lowerHex[Int(byte >> 4)]); append(Self.lowerHex[Int(byte & 0x0F)])
            }
        }
        if text.count > runStart { append(UnsafeBufferPointer(rebasing: text[runStart...])) }
        append(UInt8(ascii: "\""))
    }

    private static let lowerHex: [UInt8] = Array("0123456789abcdef".utf8)
    private static let lineSeparator: [UInt8] = Array("\\u2028".utf8)
    private static let paragraphSeparator: [UInt8] = Array("\\u2029".utf8)

    /// ``CSVText/field(_:)`` of valid UTF-8 text. Text with none of `,` `"` CR LF and no space at either end is
    /// written as it is; anything else goes through the `String` rule, whose Character-based checks (a CR LF
    /// pair, a comma with a combining mark) bytes alone cannot reproduce.
    func appendCSVField(_ text: UnsafeBufferPointer<UInt8>) {
        guard let first = text.first, let last = text.last else {
            append(UInt8(ascii: "\"")); append(UInt8(ascii: "\""))
            return
        }
        var plain = first != 0x20 && last != 0x20
        if plain {
            for byte in text where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D {
                plain = false
                break
            }
        }
        if plain {
            append(text)
        } else {
            append(CSVText.field(String(decoding: text, as: UTF8.self)))
        }
    }
}
