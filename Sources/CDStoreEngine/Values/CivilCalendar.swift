import CDStoreJSON
/// Proleptic Gregorian calendar arithmetic in UTC, for reading and printing ISO 8601 dates.
///
/// Foundation's `Calendar` is slow on a hot path (it dominated large imports) and switches to the Julian
/// calendar before 1582; ISO 8601 is proleptic Gregorian. These are Howard Hinnant's `days_from_civil` and
/// `civil_from_days`, exact inverses of each other for every representable year.
package enum CivilCalendar {
    /// Days from 1970-01-01 to year-month-day.
    @inlinable package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month and day of the day `days` after 1970-01-01.
    @inlinable package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in `month` of `year`.
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds from 1970-01-01 to Core Data's reference date 2001-01-01.
    package static let referenceOffset = 978_307_200
}
