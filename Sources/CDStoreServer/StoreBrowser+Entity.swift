import CDStore
import Foundation

/// What an entity page read, each part within the time limit.
struct EntityPageData {
    /// The page of objects; nil when its query stopped at the time limit.
    var page: ObjectPage?
    /// Why there is no page: its query stopped at the time limit.
    var pageStopped: String?
    /// The first page's count.
    var count: ObjectCount?
    /// Labels of the objects the page links to.
    var labels = Labels()
    /// The facets asked for.
    var facets: [FacetResult] = []
    /// The chart asked for.
    var chart: ChartResult?
}

extension StoreBrowser {
    /// `/<Entity>`: a page of objects as a table, filtered by `where`, ordered by `sort`, after the key `after`,
    /// with facets and a chart when asked for; every query stopped at the time limit.
    func entityPage(_ name: String, _ request: BrowseRequest) throws -> BrowseReply {
        let entity = try requireEntity(name)
        let view = try EntityView(entity: entity, model: store.model, request: request)
        let data: EntityPageData
        do {
            data = try store.read { ctx in try read(view, in: ctx) }
        } catch let error as CDStoreError {
            // The entity and the sort keys were checked already: with a predicate, what fails is the predicate
            // (an unknown key in it too), so the page shows it in place with its column.
            guard let predicate = view.predicate, error.code != .busy else { throw Self.browseError(error, predicate: nil) }
            let browseError = BrowseError(.badRequest, error.message, column: error.column, predicate: predicate)
            if request.wantsJSON { throw browseError }
            return .html(entityHTML(view, EntityPageData(), error: browseError), status: browseError.status.rawValue)
        }
        if request.wantsJSON {
            if let stopped = data.pageStopped {
                return .json(jsonText(.dictionary([("status", .integer(503)), ("error", .string(stopped)),
                                                   ("stoppedAtTimeLimit", .bool(true))])), status: 503)
            }
            return .json(entityJSON(view, data))
        }
        return .html(entityHTML(view, data, error: nil))
    }

    /// The page, its count (first page only), its labels, facets and chart, in one snapshot.
    private func read(_ view: EntityView, in ctx: CDStore.Context) throws -> EntityPageData {
        var data = EntityPageData()
        do {
            data.page = try ctx.withTimeLimit(settings.timeLimit) {
                try ctx.page(view.entity.name, where: view.predicate, sort: view.sort, after: view.after, limit: view.limit)
            }
        } catch let error as CDStoreError where error.code == .interrupted {
            data.pageStopped = stoppedPageWords(view)
        }
        // Counting scans every match: only the first page says how many there are.
        if view.after == nil {
            data.count = try ObjectCount.count(view, page: data.page, timeLimit: settings.timeLimit, model: store.model, in: ctx)
        }
        if let page = data.page {
            let related = page.objects.flatMap { object in view.relationships.filter { !$0.isToMany }.compactMap { object.related($0.name) } }
            do {
                try ctx.withTimeLimit(settings.timeLimit) { try data.labels.read(related, rules: labelRules, in: ctx) }
            } catch let error as CDStoreError where error.code == .interrupted {
                // Links read by key then.
            }
        }
        data.facets = view.facets.map { facet($0, view: view, in: ctx) }
        data.chart = view.chart.map { chart($0, view: view, in: ctx) }
        return data
    }

    /// What a page whose query stopped at the time limit says, naming the index that would help a sort.
    func stoppedPageWords(_ view: EntityView) -> String {
        let limit = settings.timeLimitWords
        guard let first = view.sort.first else {
            return "The query stopped at the \(limit) time limit before it found a page of objects: a narrower predicate, "
                + "or an index on the attributes it tests, would help."
        }
        let keys = view.sort.map { $0.hasPrefix("-") ? String($0.dropFirst()) : $0 }
        let name = keys[0]
        let lineage = [view.entity] + store.model.ancestors(of: view.entity)
        let indexed = store.model.attribute(name, of: view.entity)?.isIndexed == true
            || lineage.contains { $0.fetchIndexes.contains { $0.elements.first?.property == name } }
        if indexed {
            return "Sorting by \(first) stopped at the \(limit) time limit, although \(name) is indexed: a narrower "
                + "predicate would help."
        }
        return "Sorting by \(view.sort.joined(separator: ", ")) stopped at the \(limit) time limit: \(view.entity.name) has no index on "
            + "\(name), so SQLite reads every object to find the first page. An index on \(view.entity.name) ("
            + keys.joined(separator: ", ") + ") — a fetch index in the model — would let it read the page in order."
    }

    private func entityJSON(_ view: EntityView, _ data: EntityPageData) -> String {
        let page = data.page ?? ObjectPage(objects: [], nextAfter: nil)
        let objects: [ObjectValue] = page.objects.map { object in
            var fields: [(String, ObjectValue)] = [("_id", .string(object.objectID.description)),
                                                   ("_href", .string(ValueCells.href(object.objectID))),
                                                   ("_label", labelRules.label(of: object).map { .string($0) } ?? .null)]
            if object.entity != view.entity.name { fields.append(("_entity", .string(object.entity))) }
            for (key, value) in zip(object.propertyNames, object.values) {
                if let relationship = view.relationships.first(where: { $0.name == key }), !relationship.isToMany {
                    fields.append((key, object.related(key).map { reference($0, labels: data.labels) } ?? .null))
                    continue
                }
                let href = ValueCells.href(object.objectID) + "/" + HTML.percentEncoded(key)
                fields.append((key, ValueCells.json(value, binaryHref: href)))
            }
            return .dictionary(fields)
        }
        var fields: [(String, ObjectValue)] = [("entity", .string(view.entity.name)),
                                               ("where", view.predicate.map { .string($0) } ?? .null),
                                               ("sort", .array(view.sort.map { .string($0) }))]
        if let count = data.count { fields += count.jsonFields }
        fields.append(("objects", .array(objects)))
        fields.append(("next", page.nextAfter.map { .string(view.url(after: $0, json: true)) } ?? .null))
        if !data.facets.isEmpty { fields.append(("facets", .dictionary(data.facets.map { ($0.key.text, $0.json) }))) }
        if let chart = data.chart { fields.append(("chart", chart.json)) }
        return jsonText(.dictionary(fields))
    }

    /// A related object in JSON: `{"_id": …, "_href": …, "_label": …}`.
    func reference(_ id: ObjectID, labels: Labels) -> ObjectValue {
        .dictionary([("_id", .string(id.description)), ("_href", .string(ValueCells.href(id))),
                     ("_label", labels[id].map { .string($0) } ?? .null)])
    }
}
