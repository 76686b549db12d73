import Foundation
import Testing
@testable import CDStoreEngine

/// Dates in and out: ISO 8601 text ↔ seconds since 2001-01-01, as Core Data stores them.
@Suite("Date text")
struct DateTextTests {
    @Test(arguments: [
        ("2001-01-01", 0.0), ("2001-01-01T00:00:00Z", 0), ("2000-12-31T23:59:59Z", -1),
        ("2024-05-01T12:30:00.250Z", 736_259_400.25), ("2024-05-01T14:30:00+02:00", 736_259_400),
        ("2024-05-01 12:30", 736_259_400), ("1970-01-01", -978_307_200), ("2024-02-29", 730_857_600),
        ("737057646.84", 737_057_646.84),
        // Every branch of the ISO reader: lower-case separators, a comma fraction, offsets with and without a colon or
        // minutes, and a fraction longer than 15 digits (read through Double's own parser).
        ("2024-05-01t12:30:00z", 736_259_400), ("2024-05-01T12:30:00,5Z", 736_259_400.5),
        ("2024-05-01T07:00:00-0530", 736_259_400), ("2024-05-01T14:30+02", 736_259_400),
        ("2001-01-01T00:00:00.1234567890123456Z", 0.1234567890123456), ("  2001-01-01  ", 0),
    ])
    func parses(text: String, seconds: Double) {
        #expect(DateParsing.secondsSince2001(text) == seconds)
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-04-31", "2024-05-01T25:00", "May 1", "2024-05-01Tnoon", "",
                      "2024-05-01T12:30:00.", "2024-05-01T12:30:00+", "2024-05-01T12:30:00Zx", "2024-05-01T12:3",
                      "2024-5-01", "2024-05-01T12:30:60.5+02:00x"])
    func refusesWhatIsNotADate(text: String) {
        #expect(DateParsing.secondsSince2001(text) == nil)
    }

    @Test(arguments: [
        (0.0, "2001-01-01T00:00:00.000Z"), (-1, "2000-12-31T23:59:59.000Z"), (736_259_400.25, "2024-05-01T12:30:00.250Z"),
        (-0.0005, "2000-12-31T23:59:59.9995Z"), (0.9996, "2001-01-01T00:00:00.9996Z"), (-978_307_200, "1970-01-01T00:00:00.000Z"),
        (-63_113_904_000, "0001-01-01T00:00:00.000Z"),
    ])
    func prints(seconds: Double, text: String) {
        #expect(ValueText.iso8601(seconds) == text)
    }

    /// Every day from 1600 to 2400 reads back to itself, and agrees with Foundation's Gregorian calendar.
    @Test func civilArithmeticMatchesFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = CivilCalendar.days(year: 1600, month: 1, day: 1)
        let end = CivilCalendar.days(year: 2400, month: 12, day: 31)
        for days in stride(from: start, through: end, by: 7) {
            let (year, month, day) = CivilCalendar.date(days: days)
            #expect(CivilCalendar.days(year: year, month: month, day: day) == days)
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let components = calendar.dateComponents([.year, .month, .day], from: date)
            if components.year != year || components.month != month || components.day != day {
                Issue.record("day \(days): \(year)-\(month)-\(day) but Foundation says \(components)")
                return
            }
        }
    }

    /// Sub-millisecond parts are printed with as many digits as reading the Double back needs, not rounded away.
    @Test(arguments: [
        (736_259_400.000_25, "2024-05-01T12:30:00.00025Z"), (-12_622_780_800.123_4, "1600-12-31T23:59:59.8766Z"),
        (3_155_716_800.123_456, "2101-01-01T12:00:00.123456Z"), (-0.000_001, "2000-12-31T23:59:59.999999Z"),
    ])
    func subMillisecondPartsReadBack(seconds: Double, text: String) {
        #expect(ValueText.iso8601(seconds) == text)
        #expect(DateParsing.secondsSince2001(text) == seconds)
    }

    /// Random stored dates from 1600 to 2400 with microseconds and noise read back to the very same Double.
    @Test func everyPrintedDateReadsBackExactly() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let seconds = Double.random(in: -12_700_000_000 ... 12_600_000_000, using: &generator)
            #expect(DateParsing.secondsSince2001(ValueText.iso8601(seconds)) == seconds, "\(seconds)")
        }
    }

    @Test func printedDatesReadBack() {
        for seconds in stride(from: -5e10, through: 5e10, by: 7.3e8) {
            let rounded = (seconds * 1000).rounded() / 1000
            #expect(DateParsing.secondsSince2001(ValueText.iso8601(rounded)) == rounded)
        }
    }
}
