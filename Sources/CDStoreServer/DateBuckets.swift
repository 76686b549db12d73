import CDStore
import Foundation

/// Objects counted per year, month or day (UTC) of a date, for date facets and charts.
struct DateBucket: Equatable {
    /// Where the period starts and the next one does, in seconds since 2001-01-01 UTC (Core Data's dates).
    var start: Double
    var end: Double
    /// `2024`, `2024-03`, `2024-03-05`.
    var text: String
    var count: Int

    /// `hiredAt >= CAST(…) AND hiredAt < CAST(…)`.
    func condition(_ keyPath: String) -> String {
        PredicateText.range(keyPath, PredicateText.date(start), PredicateText.date(end), closed: false)
    }
}

enum DateBuckets {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The objects `view` selects counted per `period` of `key`, in time order; objects without a date are left
    /// out. One query grouped by day (UTC days since 2001), the days folded into periods here.
    static func count(_ key: FacetKey, period: FacetKey.Period, view: EntityView, in ctx: CDStore.Context) throws -> [DateBucket] {
        var counts: [Double: Int] = [:]
        try ctx.forEachProjection(view.entity.name, ["floor:(\(key.keyPath) / 86400) AS day", "count:(SELF) AS n"],
                                  matching: try Criteria(parsing: view.predicate) && .notEqual(key.keyPath, nil), groupBy: ["day"]) { row in
            guard let day = StoreBrowser.number(row.value(forKey: "day")) else { return }
            counts[periodStart(day * 86_400, period), default: 0] += Int(row.get("n", as: Int64.self) ?? 0)
        }
        return counts.keys.sorted().map { start in
            DateBucket(start: start, end: next(start, period), text: text(start, period), count: counts[start] ?? 0)
        }
    }

    /// Every period from the first bucket's to the last one's, empty ones included (a chart shows the gaps).
    static func filled(_ buckets: [DateBucket], _ period: FacetKey.Period) -> [DateBucket] {
        guard var start = buckets.first?.start, let last = buckets.last?.start else { return [] }
        let byStart = Dictionary(buckets.map { ($0.start, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [DateBucket] = []
        while start <= last && out.count < 2000 {
            let end = next(start, period)
            out.append(byStart[start] ?? DateBucket(start: start, end: end, text: text(start, period), count: 0))
            start = end
        }
        return out
    }

    /// The period a span of `seconds` reads best by: days up to three months, months up to five years, then years.
    static func period(spanning seconds: Double) -> FacetKey.Period {
        seconds <= 92 * 86_400 ? .day : seconds <= 5 * 366 * 86_400 ? .month : .year
    }

    static func periodStart(_ seconds: Double, _ period: FacetKey.Period) -> Double {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let wanted: Set<Calendar.Component> = switch period {
        case .year: [.year]
        case .month: [.year, .month]
        case .day: [.year, .month, .day]
        }
        let start = calendar.date(from: calendar.dateComponents(wanted, from: date)) ?? date
        return start.timeIntervalSinceReferenceDate
    }

    static func next(_ start: Double, _ period: FacetKey.Period) -> Double {
        let component: Calendar.Component = switch period {
        case .year: .year
        case .month: .month
        case .day: .day
        }
        let date = Date(timeIntervalSinceReferenceDate: start)
        return (calendar.date(byAdding: component, value: 1, to: date) ?? date.addingTimeInterval(86_400)).timeIntervalSinceReferenceDate
    }

    static func text(_ start: Double, _ period: FacetKey.Period) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSinceReferenceDate: start))
        let year = String(parts.year ?? 0), month = String(parts.month ?? 1).leftPadded(2), day = String(parts.day ?? 1).leftPadded(2)
        return switch period {
        case .year: year
        case .month: "\(year)-\(month)"
        case .day: "\(year)-\(month)-\(day)"
        }
    }
}
