import CDStore
import Foundation

/// A chart of one property among the objects a page's filter selects: a histogram of a number, or objects per
/// period of a date; each bar with the condition that narrows the page to its range.
struct ChartResult {
    struct Bar {
        /// `10,000 – 20,000`, `2024-03`.
        var text: String
        var count: Int
        var condition: String
        var low: ObjectValue
        var high: ObjectValue
    }

    let key: FacetKey
    var bars: [Bar] = []
    /// What one bar counts: `salary, 5,000 wide`, `hiredAt by month`.
    var caption = ""
    var stoppedAtTimeLimit = false
    var problem: String?

    var json: ObjectValue {
        .dictionary([("property", .string(key.text)), ("caption", .string(caption)), ("stoppedAtTimeLimit", .bool(stoppedAtTimeLimit)),
                     ("bars", .array(bars.map { bar in
                         .dictionary([("label", .string(bar.text)), ("low", bar.low), ("high", bar.high),
                                      ("count", .integer(Int64(bar.count))), ("where", .string(bar.condition))])
                     }))])
    }
}

extension StoreBrowser {
    /// Bars a numeric chart aims at.
    static let chartBars = 20

    /// Draws `key` for the objects `view` selects, within the time limit.
    func chart(_ key: FacetKey, view: EntityView, in ctx: CDStore.Context) -> ChartResult {
        var result = ChartResult(key: key)
        do {
            try ctx.withTimeLimit(settings.timeLimit) {
                let criteria = try Criteria(parsing: view.predicate)
                let range = try ctx.project(view.entity.name, ["min:(\(key.keyPath)) AS low", "max:(\(key.keyPath)) AS high"],
                                            matching: criteria).first
                guard let low = range.flatMap({ Self.number($0.value(forKey: "low")) }),
                      let high = range.flatMap({ Self.number($0.value(forKey: "high")) }) else { return }
                if key.isDate {
                    let period = key.period ?? DateBuckets.period(spanning: high - low)
                    let buckets = DateBuckets.filled(try DateBuckets.count(key, period: period, view: view, in: ctx), period)
                    result.caption = "objects per \(period.rawValue) of \(key.keyPath) (UTC)"
                    result.bars = buckets.map { bucket in
                        ChartResult.Bar(text: bucket.text, count: bucket.count, condition: bucket.condition(key.keyPath),
                                        low: .date(bucket.start), high: .date(bucket.end))
                    }
                    return
                }
                let width = Self.barWidth(low: low, high: high, integer: key.isInteger)
                let start = (low / width).rounded(.down) * width
                let bucketCount = Int(((high - start) / width).rounded(.down)) + 1
                var counts = [Int](repeating: 0, count: bucketCount)
                let bucket = "floor:((\(key.keyPath) - \(Self.literal(start))) / \(Self.literal(width))) AS bucket"
                try ctx.forEachProjection(view.entity.name, [bucket, "count:(SELF) AS n"],
                                          matching: criteria && .notEqual(key.keyPath, nil), groupBy: ["bucket"]) { row in
                    guard let index = Self.number(row.value(forKey: "bucket")).map({ Int($0) }) else { return }
                    counts[min(max(index, 0), bucketCount - 1)] += Int(row.get("n", as: Int64.self) ?? 0)
                }
                result.caption = "\(key.keyPath), bars \(Self.numberText(width, integer: key.isInteger)) wide"
                result.bars = counts.enumerated().map { i, count in
                    let lo = start + Double(i) * width, hi = lo + width
                    let last = i == bucketCount - 1
                    let high = last ? max(hi, high) : hi
                    return ChartResult.Bar(
                        text: Self.numberText(lo, integer: key.isInteger) + " – " + Self.numberText(high, integer: key.isInteger),
                        count: count,
                        condition: PredicateText.range(key.keyPath, Self.literal(lo), Self.literal(high), closed: last),
                        low: key.isInteger ? .integer(Int64(lo)) : .double(lo), high: key.isInteger ? .integer(Int64(high)) : .double(high))
                }
            }
        } catch let error as CDStoreError where error.code == .interrupted {
            result.bars = []
            result.stoppedAtTimeLimit = true
        } catch {
            result.problem = (error as? CDStoreError)?.message ?? "\(error)"
        }
        return result
    }

    /// A number or a date as a Double (dates in seconds since 2001).
    static func number(_ value: ObjectValue?) -> Double? {
        switch value {
        case .integer(let n)?: Double(n)
        case .double(let n)?, .decimal(let n)?, .date(let n)?: n
        case .float(let n)?: Double(n)
        default: nil
        }
    }

    /// A bar width of 1, 2 or 5 times a power of ten, making about ``chartBars`` bars; whole for integers.
    static func barWidth(low: Double, high: Double, integer: Bool) -> Double {
        let raw = (high - low) / Double(chartBars)
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        let width = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? raw
        return integer ? max(1, width.rounded(.up)) : width
    }

    /// A number as predicate text: whole numbers without a fraction.
    static func literal(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }

    static func numberText(_ number: Double, integer: Bool) -> String {
        if number == number.rounded() && abs(number) < 1e15 { return ValueCells.grouped(Int(number)) }
        return String(format: "%.4g", number)
    }

    /// The chart as SVG inside the page: bars are links, titles are tooltips, and nothing runs.
    func chartHTML(_ chart: ChartResult, _ view: EntityView, into body: inout HTML) {
        body.raw("<figure class=\"chart\" id=\"chart\">")
        if chart.stoppedAtTimeLimit {
            body.element("p", "Drawing \(chart.key.keyPath) stopped at the \(settings.timeLimitWords) time limit.", class: "warning")
        } else if let problem = chart.problem {
            body.element("p", problem, class: "error")
        } else if chart.bars.isEmpty {
            body.element("p", "no values of \(chart.key.keyPath) to draw", class: "null")
        } else {
            let width = 720.0, height = 180.0, left = 48.0, bottom = 22.0
            let highest = max(1, chart.bars.map(\.count).max() ?? 1)
            let step = (width - left) / Double(chart.bars.count)
            body.raw("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height + bottom))\" "
                     + "width=\"\(Int(width))\" height=\"\(Int(height + bottom))\" role=\"img\">")
            body.raw("<text x=\"\(Int(left - 4))\" y=\"12\" text-anchor=\"end\" font-size=\"11\" fill=\"#555\">")
            body.text(ValueCells.grouped(highest))
            body.raw("</text><line x1=\"\(Int(left))\" y1=\"\(Int(height))\" x2=\"\(Int(width))\" y2=\"\(Int(height))\" stroke=\"#999\"/>")
            for (i, bar) in chart.bars.enumerated() {
                let h = bar.count == 0 ? 0 : max(1, (height - 4) * Double(bar.count) / Double(highest))
                let x = left + Double(i) * step
                let href = view.url(EntityView.Change(predicate: .some(view.narrowed(by: bar.condition)), chart: .some(nil)))
                body.raw("<a class=\"bar\" href=\"" + HTML.escape(href) + "\"><rect x=\"" + Self.svgNumber(x + 1)
                         + "\" y=\"" + Self.svgNumber(height - h) + "\" width=\"" + Self.svgNumber(max(1, step - 2))
                         + "\" height=\"" + Self.svgNumber(max(h, 0)) + "\" fill=\"#4a7fc1\"/>"
                         + "<rect x=\"" + Self.svgNumber(x) + "\" y=\"0\" width=\"" + Self.svgNumber(step) + "\" height=\""
                         + Self.svgNumber(height) + "\" fill=\"transparent\"/><title>")
                body.text("\(bar.text): \(ValueCells.grouped(bar.count))")
                body.raw("</title></a>")
            }
            let labelled = Set([0, chart.bars.count / 2, chart.bars.count - 1])
            for i in labelled.sorted() {
                let anchor = i == 0 ? "start" : i == chart.bars.count - 1 ? "end" : "middle"
                let x = i == 0 ? left : i == chart.bars.count - 1 ? width : left + (Double(i) + 0.5) * step
                body.raw("<text x=\"" + Self.svgNumber(x) + "\" y=\"\(Int(height + 16))\" text-anchor=\"\(anchor)\" font-size=\"11\" fill=\"#555\">")
                body.text(chart.bars[i].text)
                body.raw("</text>")
            }
            body.raw("</svg>")
        }
        body.raw("<figcaption>")
        body.text(chart.caption)
        body.raw("</figcaption></figure>")
    }

    static func svgNumber(_ value: Double) -> String { String(format: "%.1f", value) }
}
