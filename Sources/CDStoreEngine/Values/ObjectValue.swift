import CDStoreJSON
import Foundation

/// A stored value read back from a store, typed by the model, ready for an output format.
///
/// The case says how to print it: a ``date(_:)`` holds seconds since 2001-01-01 and prints as ISO 8601;
/// a ``float(_:)`` prints in the shortest form that reads back to the same `Float`.
public enum ObjectValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A Float attribute: SQLite holds the Float widened to Double; printing uses the Float.
    case float(Float)
    /// A Decimal attribute. Core Data keeps decimals as SQLite REAL, so the precision is a Double's.
    case decimal(Double)
    case string(String)
    /// Seconds since 2001-01-01T00:00:00Z (Core Data's reference date).
    case date(Double)
    case uuid(UUID)
    case data(Data)
    /// A list (to-many object IDs, or JSON from a transformable attribute).
    case array([ObjectValue])
    /// Ordered keys and values (nested objects).
    case dictionary([(String, ObjectValue)])

    public static func == (lhs: ObjectValue, rhs: ObjectValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)), let (.decimal(a), .decimal(b)), let (.date(a), .date(b)):
            a == b || (a.isNaN && b.isNaN)
        case let (.float(a), .float(b)): a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): a == b
        case let (.uuid(a), .uuid(b)): a == b
        case let (.data(a), .data(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.dictionary(a), .dictionary(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}

extension ObjectValue {
    /// Whether the value prints as text (strings, dates, UUIDs, data), so messages quote it.
    package var isText: Bool {
        switch self {
        case .string, .date, .uuid, .data: true
        default: false
        }
    }
}

/// Text forms shared by every output format, so JSON, CSV and tables print values alike.
package enum ValueText {
    /// Seconds between 1970-01-01 and Core Data's reference date 2001-01-01.
    package static let referenceDateOffset: Double = 978_307_200

    /// ISO 8601 in UTC with milliseconds: `2024-05-01T12:30:00.000Z`; more fraction digits when the milliseconds
    /// would not read back to the same stored Double (``secondAndFraction(_:)``).
    package static func iso8601(_ secondsSince2001: Double) -> String {
        guard secondsSince2001.isFinite else { return String(secondsSince2001) }
        let (seconds, fraction, width) = secondAndFraction(secondsSince2001)
        guard abs(seconds) < 1e15 else { return String(secondsSince2001) }
        let total = Int(seconds) + CivilCalendar.referenceOffset
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilCalendar.date(days: days)
        let yearText = year >= 0 && year <= 9999 ? pad(year, 4) : (year < 0 ? "-" + pad(-year, 6) : "+" + pad(year, 6))
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(fraction, width))Z"
    }

    /// Whole seconds since 2001 (rounded down) and the fraction as `width` decimal digits.
    ///
    /// Milliseconds (`width` 3) when they read back through ``DateParsing`` to the very same Double, which is
    /// every date written with at most milliseconds; otherwise the fewest digits, up to 15, that do, so that a
    /// stored date with a sub-millisecond part survives export and import (docs/decisions/0007-exact-values.md).
    /// The test is ``DateParsing/seconds(whole:fraction:width:)``, the function the parser reads with.
    package static func secondAndFraction(_ value: Double) -> (seconds: Double, fraction: Int, width: Int) {
        let millis = (value * 1000).rounded()
        var seconds = (millis / 1000).rounded(.down)
        var ms = millis - seconds * 1000
        if ms >= 1000 { seconds += 1; ms -= 1000 }
        guard abs(value) < 1e14, DateParsing.seconds(whole: Int(seconds), fraction: Int(ms), width: 3) != value else {
            return (seconds, Int(ms), 3)
        }
        let whole = value.rounded(.down)
        // Exact: `whole` and `value` are within 1 of each other (Sterbenz) — except for values in (-1, 0), where
        // the digits below are only a first guess that the test corrects or rejects.
        let fraction = value - whole
        for width in 4...15 {
            let scaled = (fraction * powersOfTen[width]).rounded()
            guard scaled < powersOfTen[width] else { continue }
            for candidate in [scaled, scaled - 1, scaled + 1] where candidate >= 0 && candidate < powersOfTen[width] {
                if DateParsing.seconds(whole: Int(whole), fraction: Int(candidate), width: width) == value {
                    return (whole, Int(candidate), width)
                }
            }
        }
        return (seconds, Int(ms), 3)
    }

    private static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }

    /// The shortest decimal text that reads back to the same Double (`0.1`, `1e-05`, `NaN`).
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 && value.sign == .minus { return "-0.0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// The shortest decimal text that reads back to the same Float.
    package static func number(_ value: Float) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == value.rounded(), abs(value) < 1e7 { return String(Int64(value)) }
        return String(value)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// The plain text of a value for CSV cells and tables: no quotes; NULL is the empty string.
    package static func plain(_ value: ObjectValue) -> String {
        switch value {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .integer(let i): String(i)
        case .double(let d), .decimal(let d): number(d)
        case .float(let f): number(f)
        case .string(let s): s
        case .date(let d): iso8601(d)
        case .uuid(let u): u.uuidString
        case .data(let d): d.base64EncodedString()
        case .array, .dictionary: JSONText.encode(value)
        }
    }
}
