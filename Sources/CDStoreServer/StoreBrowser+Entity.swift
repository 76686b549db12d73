import CDStore
import Foundation

/// What an entity page shows: which columns, in which order, filtered how.
struct EntityView {
    let entity: Entity
    /// Attributes of the entity and its sub-entities, then relationships, each once.
    let attributes: [Attribute]
    let relationships: [Relationship]
    let hasSubentities: Bool
    let predicate: String?
    /// Sort keys as the URL has them: `name`, `-name`.
    let sort: [String]
    let after: Int64?
    let limit: Int

    /// Most sort keys in one request.
    static let maximumSortKeys = 4

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
        self.attributes = attributes
        self.relationships = relationships
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
    }

    /// `/Entity?where=…&sort=…` with changes.
    func url(sort: [String]? = nil, after: Int64? = nil, json: Bool = false) -> String {
        HTML.url("/" + HTML.percentEncoded(entity.name) + (json ? ".json" : ""),
                 [("where", predicate), ("sort", (sort ?? self.sort).joined(separator: ",")), ("after", after.map(String.init)),
                  ("limit", limit == BrowseRequest.defaultPageSize ? nil : String(limit))])
    }

    /// `/_export/Entity?format=…` for this filter and order.
    func exportURL(_ format: ExportFormat) -> String {
        HTML.url("/_export/" + HTML.percentEncoded(entity.name),
                 [("format", format.rawValue), ("where", predicate), ("sort", sort.joined(separator: ","))])
    }
}

extension StoreBrowser {
    /// `/<Entity>`: a page of objects as a table, filtered by `where`, ordered by `sort`, after the key `after`.
    func entityPage(_ name: String, _ request: BrowseRequest) throws -> BrowseReply {
        let entity = try requireEntity(name)
        let view = try EntityView(entity: entity, model: store.model, request: request)
        let result: (page: ObjectPage, count: Int?)
        do {
            result = try store.read { ctx in
                let page = try ctx.page(entity.name, where: view.predicate, sort: view.sort, after: view.after, limit: view.limit)
                // Counting scans every match: only the first page says how many there are.
                let count = view.after == nil ? try ctx.count(entity.name, matching: try Criteria(parsing: view.predicate)) : nil
                return (page, count)
            }
        } catch let error as CDStoreError {
            // The entity and the sort keys were checked already: with a predicate, what fails is the predicate
            // (an unknown key in it too), so the page shows it in place with its column.
            guard let predicate = view.predicate, error.code != .busy else { throw Self.browseError(error, predicate: nil) }
            let browseError = BrowseError(.badRequest, error.message, column: error.column, predicate: predicate)
            if request.wantsJSON { throw browseError }
            return .html(entityHTML(view, page: nil, count: nil, error: browseError), status: browseError.status.rawValue)
        }
        if request.wantsJSON { return .json(entityJSON(view, page: result.page, count: result.count)) }
        return .html(entityHTML(view, page: result.page, count: result.count, error: nil))
    }

    private func entityJSON(_ view: EntityView, page: ObjectPage, count: Int?) -> String {
        let objects: [ObjectValue] = page.objects.map { object in
            var fields: [(String, ObjectValue)] = [("_id", .string(object.objectID.description)),
                                                   ("_href", .string(ValueCells.href(object.objectID)))]
            if object.entity != view.entity.name { fields.append(("_entity", .string(object.entity))) }
            for (key, value) in zip(object.propertyNames, object.values) {
                let href = ValueCells.href(object.objectID) + "/" + HTML.percentEncoded(key)
                fields.append((key, ValueCells.json(value, binaryHref: href)))
            }
            return .dictionary(fields)
        }
        var fields: [(String, ObjectValue)] = [("entity", .string(view.entity.name)),
                                               ("where", view.predicate.map { .string($0) } ?? .null),
                                               ("sort", .array(view.sort.map { .string($0) }))]
        if let count { fields.append(("count", .integer(Int64(count)))) }
        fields.append(("objects", .array(objects)))
        fields.append(("next", page.nextAfter.map { .string(view.url(after: $0, json: true)) } ?? .null))
        return jsonText(.dictionary(fields))
    }

    private func entityHTML(_ view: EntityView, page: ObjectPage?, count: Int?, error: BrowseError?) -> String {
        let name = view.entity.name
        var body = HTML()
        body.element("h1", name)
        if let count { body.element("p", "\(ValueCells.grouped(count)) object\(count == 1 ? "" : "s")" + (view.predicate == nil ? "" : " match")) }
        body.raw("<form class=\"where\" method=\"get\" action=\"/" + HTML.escape(HTML.percentEncoded(name)) + "\">")
        body.raw("<input type=\"text\" name=\"where\" placeholder=\"predicate, e.g. age &gt; 30 AND name BEGINSWITH[c] &quot;a&quot;\" value=\"")
        body.text(view.predicate ?? "")
        body.raw("\">")
        if !view.sort.isEmpty {
            body.raw("<input type=\"hidden\" name=\"sort\" value=\"")
            body.text(view.sort.joined(separator: ","))
            body.raw("\">")
        }
        body.raw(" <button type=\"submit\">Filter</button> ")
        if view.predicate != nil { body.link(HTML.url("/" + HTML.percentEncoded(name), [("sort", view.sort.joined(separator: ","))]), "clear") }
        body.raw("</form>")
        if let error {
            body.raw("<div class=\"error\" id=\"predicate-error\">")
            body.text("predicate: " + error.message)
            if let predicate = error.predicate {
                body.raw("<pre>")
                body.text(predicate)
                if let column = error.column, column >= 1, column <= predicate.count + 1 {
                    body.text("\n" + String(repeating: " ", count: column - 1) + "^ column \(column)")
                }
                body.raw("</pre>")
            }
            body.raw("</div>")
        }
        body.raw("<p class=\"exports\">Export: ")
        for format in ExportFormat.allCases { body.link(view.exportURL(format), format.rawValue.uppercased()) }
        body.link(view.url(json: true), "this page as JSON")
        body.raw("</p>")
        if let page {
            table(view, page: page, into: &body)
            body.raw("<p class=\"pager\">")
            if view.after != nil { body.link(view.url(), "« first page") }
            if let next = page.nextAfter { body.link(view.url(after: next), "next »") }
            body.raw("</p>")
        }
        return HTML.page(title: name, crumbs: [("store", "/"), (name, nil)], body: body)
    }

    private func table(_ view: EntityView, page: ObjectPage, into body: inout HTML) {
        body.raw("<table id=\"objects\"><thead><tr><th>object</th>")
        if view.hasSubentities { body.raw("<th>entity</th>") }
        for attribute in view.attributes {
            body.raw("<th>")
            let current = view.sort.first
            let next = current == attribute.name ? "-" + attribute.name : attribute.name
            let arrow = current == attribute.name ? " ▲" : current == "-" + attribute.name ? " ▼" : ""
            body.link(view.url(sort: [next]), attribute.name + arrow)
            body.raw("</th>")
        }
        for relationship in view.relationships {
            body.raw("<th>")
            body.text(relationship.name + (relationship.isToMany ? " (to-many)" : ""))
            body.raw("</th>")
        }
        body.raw("</tr></thead><tbody>")
        if page.objects.isEmpty {
            body.raw("<tr><td colspan=\"\(1 + (view.hasSubentities ? 1 : 0) + view.attributes.count + view.relationships.count)\">"
                     + "<span class=\"null\">no objects</span></td></tr>")
        }
        for object in page.objects {
            body.raw("<tr><td>")
            body.link(ValueCells.href(object.objectID), "p\(object.primaryKey)")
            body.raw("</td>")
            if view.hasSubentities {
                body.raw("<td>")
                body.text(object.entity)
                body.raw("</td>")
            }
            for attribute in view.attributes {
                let value = object.value(forKey: attribute.name)
                body.raw(value.map(ValueCells.isNumber) == true ? "<td class=\"num\">" : "<td>")
                if let value { ValueCells.attribute(value, limit: ValueCells.tableTextLimit, into: &body) }
                body.raw("</td>")
            }
            for relationship in view.relationships {
                body.raw("<td>")
                relationshipCell(object, relationship, into: &body)
                body.raw("</td>")
            }
            body.raw("</tr>")
        }
        body.raw("</tbody></table>")
    }

    /// A to-one as a link to its object, a to-many as its count linking to the object's list of them.
    private func relationshipCell(_ object: StoredObject, _ relationship: Relationship, into body: inout HTML) {
        guard let value = object.value(forKey: relationship.name) else { return }
        if relationship.isToMany {
            guard case .integer(let count) = value else { return }
            body.link(ValueCells.href(object.objectID) + "#rel-" + HTML.percentEncoded(relationship.name), ValueCells.grouped(Int(count)))
            return
        }
        if let id = object.related(relationship.name) {
            body.link(ValueCells.href(id), "\(id.entity)/p\(id.primaryKey)")
        } else {
            body.raw("<span class=\"null\">null</span>")
        }
    }
}
