import Foundation

/// Reads dates the way users write them on a command line or in JSON.
public enum DateParsing {
    /// Seconds since 2001-01-01 for ISO 8601 text: a date (`2024-05-01`, midnight UTC), or a date and time with
    /// optional fractional seconds and a `Z` or `±hh:mm` offset (no offset means UTC); or a plain number, taken
    /// as seconds since 2001-01-01 (Core Data's reference date).
    public static func secondsSince2001(_ text: String) -> Double? {
        let s = text.trimmedSpaces
        if let number = Double(s) { return number }
        let scalars = Array(s.utf8)
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
                    while i < scalars.count, scalars[i] >= 48, scalars[i] <= 57 { i += 1 }
                    guard i > start else { return nil }
                    fraction = Double("0." + String(decoding: scalars[start..<i], as: UTF8.self)) ?? 0
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
}
