import CDStore
import Foundation

/// The most common values of one property among the objects a page's filter selects, each with its count and
/// the condition that narrows the page to it.
struct FacetResult {
    struct Value {
        /// How the value reads (`R&D`, `true`, `2024-03`, `null`).
        var text: String
        var count: Int
        /// The predicate that selects it (`department.name == "R&D"`, a date range).
        var condition: String?
        /// The value as JSON.
        var json: ObjectValue
    }

    let key: FacetKey
    var values: [Value] = []
    /// Whether there are more values than those listed.
    var hasMore = false
    /// Whether counting stopped at the time limit (nothing is listed then).
    var stoppedAtTimeLimit = false
    /// Why the facet could not be counted.
    var problem: String?

    /// `[{"value": …, "count": n}, …]`.
    var json: ObjectValue {
        .array(values.map { .dictionary([("value", $0.json), ("count", .integer(Int64($0.count)))]) })
    }
}

extension StoreBrowser {
    /// Values listed per facet.
    static let facetValueCount = 12

    /// Counts the values of `key` among the objects `view` selects, within the time limit.
    func facet(_ key: FacetKey, view: EntityView, in ctx: CDStore.Context) -> FacetResult {
        var result = FacetResult(key: key)
        do {
            try ctx.withTimeLimit(settings.timeLimit) {
                if key.isDate {
                    let buckets = try DateBuckets.count(key, period: key.period ?? .year, view: view, in: ctx)
                    result.values = buckets.map { bucket in
                        FacetResult.Value(text: bucket.text, count: bucket.count, condition: bucket.condition(key.keyPath),
                                          json: .string(bucket.text))
                    }
                    if result.values.count > Self.facetValueCount {
                        // The most common periods, in time order.
                        let kept = Set(result.values.indices.sorted { result.values[$0].count > result.values[$1].count }
                                        .prefix(Self.facetValueCount))
                        result.values = result.values.indices.filter(kept.contains).map { result.values[$0] }
                        result.hasMore = true
                    }
                    return
                }
                let rows = try ctx.project(view.entity.name, ["\(key.keyPath) AS value", "count:(SELF) AS n"],
                                           matching: try Criteria(parsing: view.predicate).sorted(by: ["-n"])
                                               .limit(Self.facetValueCount + 1),
                                           groupBy: ["value"])
                result.hasMore = rows.count > Self.facetValueCount
                var labels = Labels()
                let values = rows.prefix(Self.facetValueCount).map { $0.value(forKey: "value") ?? .null }
                if key.attribute == nil { try labels.read(values.compactMap(ObjectID.init(objectValue:)), rules: labelRules, in: ctx) }
                for (row, value) in zip(rows, values) {
                    let count = Int(row.get("n", as: Int64.self) ?? 0)
                    if key.attribute == nil, let id = ObjectID(objectValue: value) {
                        result.values.append(FacetResult.Value(text: labels.linkText(id), count: count,
                                                               condition: "\(key.keyPath) == \(PredicateText.quoted(id.description))",
                                                               json: reference(id, labels: labels)))
                        continue
                    }
                    result.values.append(FacetResult.Value(
                        text: value == .null ? "null" : value.plainText, count: count,
                        condition: PredicateText.literal(value).map { "\(key.keyPath) == \($0)" }, json: value))
                }
            }
        } catch let error as CDStoreError where error.code == .interrupted {
            result.values = []
            result.stoppedAtTimeLimit = true
        } catch {
            result.problem = (error as? CDStoreError)?.message ?? "\(error)"
        }
        return result
    }

    func facetsHTML(_ facets: [FacetResult], _ view: EntityView, into body: inout HTML) {
        body.raw("<div class=\"facets\" id=\"facets\">")
        for facet in facets {
            body.raw("<section class=\"facet\" data-facet=\"" + HTML.escape(facet.key.text) + "\"><h2>")
            body.text(facet.key.text)
            body.raw(" ")
            let others = view.facets.map(\.text).filter { $0 != facet.key.text }
            body.link(view.url(EntityView.Change(facets: others)), "×", class: "remove", title: "remove this facet")
            body.raw("</h2>")
            if facet.key.isDate {
                body.raw("<p class=\"periods\">")
                for period in FacetKey.Period.allCases {
                    let text = facet.key.keyPath + ":" + period.rawValue
                    let facets = view.facets.map { $0.text == facet.key.text ? text : $0.text }
                    if (facet.key.period ?? .year) == period { body.element("b", period.rawValue) } else {
                        body.link(view.url(EntityView.Change(facets: facets)), period.rawValue)
                    }
                    body.raw(" ")
                }
                body.raw("</p>")
            }
            if facet.stoppedAtTimeLimit {
                body.element("p", "Counting stopped at the \(settings.timeLimitWords) time limit.", class: "warning")
            } else if let problem = facet.problem {
                body.element("p", problem, class: "error")
            } else if facet.values.isEmpty {
                body.element("p", "no values", class: "null")
            }
            body.raw("<ul>")
            for value in facet.values {
                body.raw("<li>")
                if let condition = value.condition {
                    body.link(view.url(EntityView.Change(predicate: .some(view.narrowed(by: condition)))), value.text,
                              class: value.text == "null" && value.json == .null ? "null" : nil)
                } else {
                    body.text(value.text)
                }
                body.raw(" <span class=\"count\">")
                body.text(ValueCells.grouped(value.count))
                body.raw("</span></li>")
            }
            if facet.hasMore { body.raw("<li class=\"null\">…</li>") }
            body.raw("</ul></section>")
        }
        body.raw("</div>")
    }

    /// Links that add a facet or draw a chart: booleans, to-one relationships and values that repeat on the
    /// page are suggested as facets; numbers and dates as charts.
    func suggestions(_ view: EntityView, page: ObjectPage?, into body: inout HTML) {
        let shown = Set(view.facets.map(\.keyPath))
        var facets: [String] = []
        for attribute in view.attributes where FacetKey.facetTypes.contains(attribute.type) && !shown.contains(attribute.name) {
            if attribute.type == .boolean || attribute.type == .date || repeats(attribute.name, on: page) { facets.append(attribute.name) }
        }
        for relationship in view.relationships where !relationship.isToMany && !shown.contains(relationship.name) {
            facets.append(relationship.name)
        }
        let charts = view.attributes.filter { $0.type == .date || FacetKey.numericTypes.contains($0.type) }.map(\.name)
        guard !facets.isEmpty || !charts.isEmpty else { return }
        body.raw("<p class=\"suggest\" id=\"suggest\">")
        if !facets.isEmpty {
            body.text("Facet by: ")
            for (i, name) in facets.enumerated() {
                if i > 0 { body.raw(" · ") }
                body.link(view.url(EntityView.Change(facets: view.facets.map(\.text) + [name])), name)
            }
        }
        if !charts.isEmpty {
            if !facets.isEmpty { body.raw(" <span class=\"sep\">|</span> ") }
            body.text("Chart: ")
            for (i, name) in charts.enumerated() {
                if i > 0 { body.raw(" · ") }
                if view.chart?.keyPath == name { body.element("b", name) } else {
                    body.link(view.url(EntityView.Change(chart: .some(name))), name)
                }
            }
            if view.chart != nil {
                body.raw(" · ")
                body.link(view.url(EntityView.Change(chart: .some(nil))), "no chart")
            }
        }
        body.raw("</p>")
    }

    /// Whether the attribute's values repeat on the page: few distinct values among many objects.
    private func repeats(_ name: String, on page: ObjectPage?) -> Bool {
        guard let objects = page?.objects, objects.count >= 6 else { return false }
        let values = objects.compactMap { $0.value(forKey: name) }.filter { $0 != .null }
        guard values.count >= 6 else { return false }
        var distinct: [ObjectValue] = []
        for value in values where !distinct.contains(value) {
            distinct.append(value)
            if distinct.count > values.count / 3 { return false }
        }
        return true
    }
}
