import Foundation

/// A constant value in a predicate: a literal, a bound `%@` argument or a substituted `$VARIABLE`.
///
/// Numbers keep the integer/floating distinction the text had (`3` is `.int`, `3.0` and `3e0` are `.double`)
/// so that the SQL layer can bind them with the right storage class.
package enum PredicateValue: Equatable, Hashable, Sendable {
    /// `NULL` / `NIL`, or an argument that stands for nil.
    case null
    /// `TRUE` / `YES` / `FALSE` / `NO`. Compares as the number 1 or 0.
    case bool(Bool)
    /// An integer literal (decimal, `0x`, `0o` or `0b`) or an integer argument.
    case int(Int64)
    /// A floating-point literal or argument.
    case double(Double)
    /// A quoted string literal or a string argument. A string argument that looks like a number stays a
    /// string here; the SQL layer coerces it by the attribute's type.
    case string(String)
    /// A date, from `CAST(…, "NSDate")` of a constant or from a date argument.
    case date(Date)
    /// A constant collection: `{1, 2}` whose members are all constants, or an array argument.
    case array([PredicateValue])

    /// The value as a `Double` when it is a number, a boolean (0 or 1) or a date (seconds since 2001-01-01).
    package var numericValue: Double? {
        switch self {
        case .bool(let b): return b ? 1 : 0
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .date(let d): return d.timeIntervalSinceReferenceDate
        default: return nil
        }
    }

    /// The value when it is a string, otherwise nil.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// True for `.null`.
    package var isNull: Bool { self == .null }
}

/// Dates as the text form of `CAST(…, "NSDate")` accepts them.
package enum PredicateDate {
    /// Parses an ISO-8601 date as accepted by `CAST('…', 'NSDate')`: `2024-01-01T00:00:00Z`, with optional
    /// fractional seconds and a `Z` or `±hh:mm` zone, or a bare `2024-01-01` (midnight UTC). Nil if invalid.
    package static func parseISO8601(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let withTime = ISO8601DateFormatter()
        withTime.formatOptions = [.withInternetDateTime]
        if let d = withTime.date(from: trimmed) { return d }
        withTime.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = withTime.date(from: trimmed) { return d }
        // A date without a time is taken as midnight UTC, which is what a user typing `'2024-01-01'` on a
        // command line expects regardless of the machine's zone.
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        dateOnly.timeZone = TimeZone(secondsFromGMT: 0)
        if trimmed.count == 10, let d = dateOnly.date(from: trimmed) { return d }
        return nil
    }

    /// A date from seconds since the reference date 2001-01-01T00:00:00Z, as Core Data stores them.
    package static func fromReferenceSeconds(_ seconds: Double) -> Date {
        Date(timeIntervalSinceReferenceDate: seconds)
    }
}
