import CDStoreJSON
import Foundation
internal import GRDB

/// Aggregate functions SQLite lacks, registered on the connection that runs a projection, so that every value is
/// still computed inside the one SQL query.
///
/// - `cdstore_decimal_sum(x)`: the exact sum of Decimal attributes. Core Data keeps a Decimal as a REAL, so a
///   stored value is a Double; each one is read back as the shortest decimal text that round-trips to it (which
///   is the decimal that was stored, for decimals of up to 15 significant digits), the texts are added exactly
///   as `Foundation.Decimal` (38 significant digits), and the sum is rounded once to the nearest Double. So
///   `0.1 + 0.2` is `0.3`, not `0.30000000000000004`. NULLs are skipped; no values give 0.
/// - `cdstore_median(x)`: the exact median of the non-NULL values: the middle value, or the mean of the two
///   middle values for an even count. NULL for no values.
/// - `cdstore_stddev(x)`: the population standard deviation (divide by n, as `NSExpression`'s `stddev:`), computed
///   in two passes (mean, then squared deviations) for accuracy. NULL for no values, 0 for one.
enum ProjectionFunctions {
    static let decimalSum = "cdstore_decimal_sum"
    static let median = "cdstore_median"
    static let stddev = "cdstore_stddev"

    static func register(on db: Database) {
        db.add(function: DatabaseFunction(decimalSum, argumentCount: 1, pure: true, aggregate: DecimalSum.self))
        db.add(function: DatabaseFunction(median, argumentCount: 1, pure: true, aggregate: Median.self))
        db.add(function: DatabaseFunction(stddev, argumentCount: 1, pure: true, aggregate: StandardDeviation.self))
    }

    /// The decimal a stored value stands for.
    static func decimal(_ value: DatabaseValue) -> Decimal? {
        switch value.storage {
        case .int64(let i): return Decimal(i)
        case .double(let d) where d.isFinite: return Decimal(string: "\(d)", locale: Locale(identifier: "en_US_POSIX"))
        case .string(let s): return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))
        default: return nil
        }
    }

    static func double(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .int64(let i): Double(i)
        case .double(let d): d
        case .string(let s): Double(s)
        default: nil
        }
    }

    struct DecimalSum: DatabaseAggregate {
        var sum = Decimal(0)
        var special: Double?
        init() {}
        mutating func step(_ values: [DatabaseValue]) throws {
            if case .double(let d) = values[0].storage, !d.isFinite {
                special = (special ?? 0) + d
                return
            }
            if let d = ProjectionFunctions.decimal(values[0]) { sum += d }
        }
        func finalize() throws -> (any DatabaseValueConvertible)? {
            if let special { return special }
            return Double("\(sum)") ?? NSDecimalNumber(decimal: sum).doubleValue
        }
    }

    struct Median: DatabaseAggregate {
        var values: [Double] = []
        init() {}
        mutating func step(_ values: [DatabaseValue]) throws {
            if let d = ProjectionFunctions.double(values[0]) { self.values.append(d) }
        }
        func finalize() throws -> (any DatabaseValueConvertible)? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : sorted[middle - 1] / 2 + sorted[middle] / 2
        }
    }

    struct StandardDeviation: DatabaseAggregate {
        var values: [Double] = []
        init() {}
        mutating func step(_ values: [DatabaseValue]) throws {
            if let d = ProjectionFunctions.double(values[0]) { self.values.append(d) }
        }
        func finalize() throws -> (any DatabaseValueConvertible)? {
            guard !values.isEmpty else { return nil }
            let n = Double(values.count)
            let mean = values.reduce(0, +) / n
            let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            return (squares / n).squareRoot()
        }
    }
}
