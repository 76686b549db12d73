import Foundation

/// Reads dates the way users write them on a command line or in JSON.
public enum DateParsing {
    /// Seconds since 2001-01-01 for ISO 8601 text: a date (`2024-05-01`, midnight UTC), or a date and time with
    /// optional fractional seconds and a `Z` or `±hh:mm` offset (no offset means UTC); or a plain number, taken
    /// as seconds since 2001-01-01 (Core Data's reference date).
    public static func secondsSince2001(_ text: String) -> Double? {
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
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= scalars.count else { return nil }
            var value = 0
            for k in 0..<count {
                let c = scalars[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < scalars.count, scalars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if i < scalars.count {
            guard expect(84) || expect(116) || expect(32),
                  let h = digits(2), expect(58), let m = digits(2) else { return nil }
            hour = h
            minute = m
            if expect(58) {
                guard let sec = digits(2) else { return nil }
                second = sec
                if expect(46) || expect(44) {
                    let start = i
                    var value = 0
                    while i < scalars.count, scalars[i] >= 48, scalars[i] <= 57 {
                        if i - start < 15 { value = value * 10 + Int(scalars[i] - 48) }
                        i += 1
                    }
                    guard i > start else { return nil }
                    // Up to 15 digits the quotient of two exact doubles is the correctly rounded fraction, as
                    // parsing "0.fff" would give; longer fractions are parsed as text.
                    fraction = i - start <= 15 ? Double(value) / powersOfTen[i - start]
                        : Double("0." + String(decoding: UnsafeBufferPointer(rebasing: scalars[start..<i]), as: UTF8.self)) ?? 0
                }
            }
            if i < scalars.count {
                if expect(90) || expect(122) {
                    // UTC
                } else if scalars[i] == 43 || scalars[i] == 45 {
                    let sign = scalars[i] == 45 ? -1 : 1
                    i += 1
                    guard let oh = digits(2) else { return nil }
                    _ = expect(58)
                    let om = digits(2) ?? 0
                    offset = sign * (oh * 3600 + om * 60)
                } else {
                    return nil
                }
            }
            guard i == scalars.count, hour < 24, minute < 60, second < 61 else { return nil }
        }
        guard day <= CivilCalendar.daysInMonth(year: year, month: month) else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - CivilCalendar.referenceOffset
        return Double(seconds) + fraction - Double(offset)
    }

    private static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }
}
