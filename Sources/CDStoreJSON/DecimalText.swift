/// Decimal numbers read from their UTF-8 text without going through `strtod`, where that gives the same Double.
///
/// A decimal whose digits fit in 53 bits and whose power of ten is at most 22 in size is one exact multiplication
/// or division of two exactly held Doubles away from its value, and IEEE arithmetic rounds that one operation
/// correctly (Clinger's fast path). The JSON scanner reads its numbers this way as it scans; CSV fields and other
/// text read through ``double(_:)``.
package enum DecimalText {
    /// Powers of ten that a Double holds exactly.
    package static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The correctly rounded value of `text` when it is a plain decimal (`-?digits(.digits)?`) within the fast
    /// path; nil for anything else, which the caller parses the general way (`Double(String)`), so that
    /// exponents, `inf`, hexadecimal and malformed text keep exactly the meaning they have there.
    package static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = !text.isEmpty && text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var lastWasDigit = false
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                guard !seenPoint, lastWasDigit else { return nil }
                seenPoint = true
                lastWasDigit = false
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // 19 digits always fit in a UInt64; the 2^53 limit below is the real bound.
            guard digits < 19 else { return nil }
            mantissa = mantissa * 10 + UInt64(digit)
            digits += 1
            if seenPoint { fractionDigits += 1 }
            lastWasDigit = true
        }
        guard lastWasDigit, mantissa <= 1 << 53, fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// ``double(_:)`` of a String's UTF-8.
    package static func double(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { double($0) }
    }
}
