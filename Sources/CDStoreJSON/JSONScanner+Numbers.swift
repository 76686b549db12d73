/// A number as scanned: its text, and its value when that could be had without going through a `String`.
struct ScannedNumber {
    /// The bytes of the number as written (valid only while the scan lasts).
    let text: UnsafeBufferPointer<UInt8>
    /// The exact value, for numbers without fraction or exponent that fit in 64 bits.
    let integer: Int64?
    /// The correctly rounded value when the fast path applies; nil means parse `text`.
    let fastDouble: Double?

    /// The number as a Double (integers too large for 64 bits land here).
    var double: Double {
        if let fastDouble { return fastDouble }
        return Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }

    /// The text as a String, for those that keep numbers as written (model files).
    var string: String { String(decoding: text, as: UTF8.self) }
}

extension JSONScanner {
    /// Reads a number (RFC 8259 grammar) at `index`.
    ///
    /// Digits accumulate into a UInt64 as they are scanned. Integers are then exact; a decimal whose digits fit
    /// in 53 bits and whose power of ten is at most 22 is one exact multiplication or division away, which is
    /// correctly rounded (Clinger's fast path). Only the rest goes through `Double(String)`.
    mutating func number() throws(ScanFailure) -> ScannedNumber {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var overflow = false
        @inline(__always) func digits(_ index: inout Int) -> Int {
            let from = index
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
                overflow = overflow || o1 || o2
                mantissa = sum
                index += 1
            }
            return index - from
        }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let integerDigits = digits(&index)
        var valid = integerDigits > 0 && !(leadingZero && integerDigits > 1)
        var fractionDigits = 0
        var exponent = 0
        var isInteger = true
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            fractionDigits = digits(&index)
            valid = valid && fractionDigits > 0
        }
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let from = index
            while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                exponent = min(exponent * 10 + Int(digit), 100_000)
                index += 1
            }
            valid = valid && index > from
            if exponentNegative { exponent = -exponent }
        }
        // A number at the end of the window may go on in the next chunk.
        if index == bytes.count && !isFinal { throw .needMore }
        guard valid else { throw invalidNumber(from: start) }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger && !overflow {
            if !negative && mantissa <= UInt64(Int64.max) {
                return ScannedNumber(text: text, integer: Int64(mantissa), fastDouble: Double(mantissa))
            }
            if negative && mantissa <= UInt64(Int64.max) + 1 {
                return ScannedNumber(
                    text: text, integer: Int64(bitPattern: 0 &- mantissa), fastDouble: -Double(mantissa))
            }
        }
        let power = exponent - fractionDigits
        var fast: Double?
        if !overflow && mantissa <= 1 << 53 && (-22...22).contains(power) {
            let value =
                power < 0
                ? Double(mantissa) / DecimalText.exactPowersOfTen[-power]
                : Double(mantissa) * DecimalText.exactPowersOfTen[power]
            fast = negative ? -value : value
        }
        return ScannedNumber(text: text, integer: nil, fastDouble: fast)
    }

    /// The error for a malformed number, quoting the run of number-like characters as cdstore always has.
    private mutating func invalidNumber(from start: Int) -> ScanFailure {
        var end = start
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                UInt8(ascii: "+"), UInt8(ascii: "-"):
                end += 1
            default:
                return fail("invalid number '\(String(decoding: bytes[start..<end], as: UTF8.self))'", at: start)
            }
        }
        return fail("invalid number '\(String(decoding: bytes[start..<end], as: UTF8.self))'", at: start)
    }
}
