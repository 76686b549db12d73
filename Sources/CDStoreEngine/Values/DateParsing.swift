import CDStoreJSON
import Foundation

/// Reads dates the way users write them on a command line or in JSON.
package enum DateParsing {
    /// Seconds since 2001-01-01 for ISO 8601 text: a date (`2024-05-01`, midnight UTC), or a date and time with
    /// optional fractional seconds and a `Z` or `±hh:mm` offset (no offset means UTC); or a plain number, taken
    /// as seconds since 2001-01-01 (Core Data's reference date).
    package static func secondsSince2001(_ text: String) -> Double? {
        var s = text.trimmedSpaces
        // The ISO form starts with four digits and a dash; anything else may be a number of seconds.
        let parsed: Double?? = s.withUTF8 { bytes in
            guard bytes.count >= 10, bytes[4] == 45, bytes[0..<4].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return .none }
            return .some(iso(bytes))
        }
        return parsed ?? Double(s)
    }

    /// Reads `yyyy-MM-dd[(T| )HH:mm[:ss[.fff]]][Z|±hh[:mm]]` from UTF-8 bytes.
    private static func iso(_ scalars: UnsafeBufferPointer<UInt8>) -> Double? {
        var text = ISOText(scalars)
        guard let year = text.digits(4), text.expect(45), let month = text.digits(2), text.expect(45),
              let day = text.digits(2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fractionDigits = 0, fractionWidth = 0
        var fractionText: String?
        var offset = 0
        if !text.isAtEnd {
            guard text.expect(84) || text.expect(116) || text.expect(32),
                  let h = text.digits(2), text.expect(58), let m = text.digits(2) else { return nil }
            hour = h
            minute = m
            if text.expect(58) {
                guard let sec = text.digits(2) else { return nil }
                second = sec
                if text.expect(46) || text.expect(44) {
                    let start = text.index
                    while let digit = text.digit() {
                        if text.index - start <= 15 { fractionDigits = fractionDigits * 10 + digit }
                    }
                    guard text.index > start else { return nil }
                    fractionWidth = text.index - start
                    if fractionWidth > 15 {
                        fractionText = "0." + String(decoding: UnsafeBufferPointer(rebasing: scalars[start..<text.index]),
                                                     as: UTF8.self)
                    }
                }
            }
            if !text.isAtEnd {
                if text.expect(90) || text.expect(122) {
                    // UTC
                } else if let sign = text.sign() {
                    guard let oh = text.digits(2) else { return nil }
                    _ = text.expect(58)
                    let om = text.digits(2) ?? 0
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
            guard text.isAtEnd, hour < 24, minute < 60, second < 61 else { return nil }
        }
        guard day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - CivilCalendar.referenceOffset - offset
        if let fractionText { return Double(seconds) + (Double(fractionText) ?? 0) }
        return DateParsing.seconds(whole: seconds, fraction: fractionDigits, width: fractionWidth)
    }

    /// A position in the bytes of a date, moved by what it reads. A struct rather than nested functions capturing
    /// the index: captured, the index was boxed and every access checked at run time, and reading one date took
    /// 1,800 instructions of a bulk load's record (docs/decisions/0013-bulk-load-speed.md).
    private struct ISOText {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var isAtEnd: Bool { index >= bytes.count }

        /// The value of exactly `count` decimal digits, or nil (nothing consumed) when there are fewer.
        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for k in index..<index + count {
                let c = bytes[k]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            index += count
            return value
        }

        /// The next byte's digit value, consumed; nil (nothing consumed) when it is not a digit.
        mutating func digit() -> Int? {
            guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
            index += 1
            return Int(bytes[index - 1] - 48)
        }

        /// Whether the next byte is `c`, consumed if so.
        mutating func expect(_ c: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == c else { return false }
            index += 1
            return true
        }

        /// +1 or -1 for a `+` or `-`, consumed; nil otherwise.
        mutating func sign() -> Int? {
            if expect(43) { return 1 }
            if expect(45) { return -1 }
            return nil
        }
    }

    /// `whole` seconds plus `fraction` / 10^`width` (`width` ≤ 15) as the nearest Double when the scaled sum is an
    /// exact Double (below 2^53: every date of years 0001–9999 to the microsecond), so that the text of a date
    /// reads back to the Double it was printed from; otherwise the sum of the two parts.
    /// ``ValueText/secondAndFraction(_:)`` prints with this very function, so what it prints reads back exactly.
    static func seconds(whole: Int, fraction: Int, width: Int) -> Double {
        guard width > 0 else { return Double(whole) }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: powersOfTenInt[width])
        // The fraction counts up from `whole` (rounded down), also before 2001: -1 s + 0.9995 s is -0.0005 s.
        let total = scaled + fraction
        if !overflow, abs(scaled) < 1 << 53, abs(total) < 1 << 53 {
            // Both operands are exact, so the quotient is the correctly rounded value of the decimal text.
            return Double(total) / powersOfTen[width]
        }
        return Double(whole) + Double(fraction) / powersOfTen[width]
    }

    private static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }
    private static let powersOfTenInt: [Int] = (0...15).map { Int(pow(10, Double($0))) }
}
