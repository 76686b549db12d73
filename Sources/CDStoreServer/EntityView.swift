import CDStore
import Foundation

/// What an entity page shows: which columns, in which order, filtered how, with which facets and chart; and the
/// links that change one of these and keep the rest.
struct EntityView {
    let entity: Entity
    /// The attributes shown: of the entity and its sub-entities, each once, or those `columns` names.
    let attributes: [Attribute]
    /// The relationships shown, likewise.
    let relationships: [Relationship]
    /// Whether `columns` chose the columns.
    let choseColumns: Bool
    let hasSubentities: Bool
    let predicate: String?
    /// Sort keys as the URL has them: `name`, `-name`.
    let sort: [String]
    let after: Int64?
    let limit: Int
    /// The facets asked for (`facet=department.name,isActive,hiredAt:month`), checked against the model.
    let facets: [FacetKey]
    /// The chart asked for (`chart=salary`, `chart=hiredAt:month`).
    let chart: FacetKey?
    /// Whether the first page counts every match (`count=exact`) instead of stopping at ``ObjectCount/cap``.
    let exactCount: Bool

    /// Most sort keys in one request.
    static let maximumSortKeys = 4
    /// Most facets on one page.
    static let maximumFacets = 6

    init(entity: Entity, model: ManagedObjectModel, request: BrowseRequest) throws {
        self.entity = entity
        let members = model.subtree(of: entity)
        hasSubentities = members.count > 1
        var attributes: [Attribute] = [], relationships: [Relationship] = []
        for member in members {
            for attribute in model.attributes(of: member) where !attribute.isTransient
                && !attributes.contains(where: { $0.name == attribute.name }) {
                attributes.append(attribute)
            }
            for relationship in model.relationships(of: member) where !relationship.isTransient
                && !relationships.contains(where: { $0.name == relationship.name }) {
                relationships.append(relationship)
            }
        }
        let columns = try request.names("columns", atMost: 64)
        if columns.isEmpty {
            self.attributes = attributes
            self.relationships = relationships
        } else {
            for name in columns where !attributes.contains(where: { $0.name == name }) && !relationships.contains(where: { $0.name == name }) {
                throw BrowseError(.badRequest, "no column '\(name.prefix(100))': columns are properties of \(entity.name) ("
                                  + (attributes.map(\.name) + relationships.map(\.name)).prefix(16).joined(separator: ", ") + ")")
            }
            self.attributes = columns.compactMap { name in attributes.first { $0.name == name } }
            self.relationships = columns.compactMap { name in relationships.first { $0.name == name } }
        }
        choseColumns = !columns.isEmpty
        predicate = try request.predicate()
        after = try request.key("after")
        limit = try request.pageSize()
        let sortText = request.query["sort"] ?? ""
        let keys = sortText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard keys.count <= Self.maximumSortKeys else {
            throw BrowseError(.badRequest, "sort takes at most \(Self.maximumSortKeys) keys, not \(keys.count)")
        }
        let own = model.attributes(of: entity).filter { !$0.isTransient }.map(\.name)
        for key in keys {
            let name = key.hasPrefix("-") ? String(key.dropFirst()) : key
            guard own.contains(name) else {
                throw BrowseError(.badRequest, "cannot sort by '\(name.prefix(100))': sort keys are attributes of \(entity.name)"
                                  + (own.isEmpty ? "" : " (" + own.prefix(12).joined(separator: ", ") + ")"))
            }
        }
        sort = keys
        facets = try request.names("facet", atMost: Self.maximumFacets).map { try FacetKey(parsing: $0, of: entity, in: model) }
        let charts = try request.names("chart", atMost: 1)
        chart = try charts.first.map { try FacetKey(parsing: $0, of: entity, in: model, forChart: true) }
        exactCount = request.query["count"] == "exact"
    }

    /// What a link changes; everything it does not name stays as it is (`nil` fields keep the current value).
    struct Change {
        var predicate: String??
        var sort: [String]?
        var after: Int64??
        var facets: [String]?
        var chart: String??
        var exactCount: Bool?
        var json = false
    }

    /// `/Entity?where=…&sort=…&columns=…&facet=…&chart=…` with `change` applied; the page starts over unless
    /// `after` is given.
    func url(_ change: Change) -> String {
        let predicate = change.predicate ?? self.predicate
        let facets = change.facets ?? self.facets.map(\.text)
        let chart = change.chart ?? self.chart?.text
        return HTML.url("/" + HTML.percentEncoded(entity.name) + (change.json ? ".json" : ""), [
            ("where", predicate), ("sort", (change.sort ?? sort).joined(separator: ",")),
            ("columns", choseColumns ? (attributes.map(\.name) + relationships.map(\.name)).joined(separator: ",") : nil),
            ("facet", facets.joined(separator: ",")), ("chart", chart),
            ("count", (change.exactCount ?? false) ? "exact" : nil),
            ("after", (change.after ?? nil).map(String.init)),
            ("limit", limit == BrowseRequest.defaultPageSize ? nil : String(limit)),
        ])
    }

    /// `/Entity?…` for this view with other sort keys, from the first page.
    func url(sort: [String]? = nil, after: Int64? = nil, json: Bool = false) -> String {
        url(Change(sort: sort, after: .some(after), json: json))
    }

    /// The current predicate and `condition`, both holding: `(current) AND condition`.
    func narrowed(by condition: String) -> String {
        guard let predicate else { return condition }
        return "(\(predicate)) AND \(condition)"
    }

    /// `/_export/Entity?format=…` for this filter and order.
    func exportURL(_ format: ExportFormat) -> String {
        HTML.url("/_export/" + HTML.percentEncoded(entity.name),
                 [("format", format.rawValue), ("where", predicate), ("sort", sort.joined(separator: ","))])
    }
}
