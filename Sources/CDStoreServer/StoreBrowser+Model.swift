import CDStore
import Foundation

extension StoreBrowser {
    /// `/_model`: the diagram, then each entity's attributes (type, rules), relationships, indexes and
    /// uniqueness constraints.
    func modelPage(_ request: BrowseRequest) throws -> BrowseReply {
        let model = store.model
        if request.wantsJSON {
            let entities: [ObjectValue] = model.entities.map { entity in
                .dictionary([
                    ("name", .string(entity.name)), ("parent", entity.parentName.map { .string($0) } ?? .null),
                    ("abstract", .bool(entity.isAbstract)),
                    ("attributes", .array(entity.attributes.map { attribute in
                        .dictionary([("name", .string(attribute.name)), ("type", .string(attribute.type.rawValue)),
                                     ("optional", .bool(attribute.isOptional)), ("rules", .string(Self.rules(attribute)))])
                    })),
                    ("relationships", .array(entity.relationships.map { relationship in
                        .dictionary([("name", .string(relationship.name)), ("destination", .string(relationship.destination)),
                                     ("toMany", .bool(relationship.isToMany)),
                                     ("inverse", relationship.inverseName.map { .string($0) } ?? .null),
                                     ("deleteRule", .string(relationship.deleteRule.rawValue))])
                    })),
                    ("uniquenessConstraints", .array(entity.uniquenessConstraints.map { .array($0.map { .string($0) }) })),
                    ("indexes", .array(Self.indexes(entity).map { .string($0) })),
                ])
            }
            return .json(jsonText(.dictionary([("versionIdentifiers", .array(model.versionIdentifiers.map { .string($0) })),
                                                      ("entities", .array(entities))])))
        }
        var body = HTML()
        body.element("h1", "Model")
        body.raw("<p><img class=\"diagram\" src=\"/_model.svg\" alt=\"diagram of the model (needs Graphviz's dot on the server)\"></p>")
        for entity in model.entities {
            body.raw("<h2 id=\"entity-" + HTML.escape(HTML.percentEncoded(entity.name)) + "\">")
            body.link("/" + HTML.percentEncoded(entity.name), entity.name)
            if let parent = entity.parentName { body.text(" : " + parent) }
            if entity.isAbstract { body.text(" (abstract)") }
            body.raw("</h2><table><thead><tr><th>property</th><th>type</th><th>rules</th></tr></thead><tbody>")
            for attribute in entity.attributes {
                row([attribute.name, attribute.type.rawValue, Self.rules(attribute)], into: &body)
            }
            for relationship in entity.relationships {
                var rules = ["inverse " + (relationship.inverseName ?? "none"), "delete " + relationship.deleteRule.rawValue]
                if relationship.isOptional { rules.append("optional") }
                if relationship.isOrdered { rules.append("ordered") }
                if relationship.isToMany && relationship.minCount > 0 { rules.append("min \(relationship.minCount)") }
                if relationship.isToMany && relationship.maxCount > 0 { rules.append("max \(relationship.maxCount)") }
                if relationship.isTransient { rules.append("transient") }
                row([relationship.name, (relationship.isToMany ? "to-many " : "to-one ") + relationship.destination,
                     rules.joined(separator: ", ")], into: &body)
            }
            body.raw("</tbody></table>")
            for constraint in entity.uniquenessConstraints {
                body.element("p", "unique: " + constraint.joined(separator: ", "))
            }
            for index in Self.indexes(entity) { body.element("p", "index: " + index) }
        }
        return .html(HTML.page(title: "Model", crumbs: [("store", "/"), ("model", nil)], body: body))
    }

    private func row(_ cells: [String], into body: inout HTML) {
        body.raw("<tr>")
        for cell in cells { body.element("td", cell) }
        body.raw("</tr>")
    }

    /// An attribute's rules in words: optional, default, bounds, pattern, indexed, derived, transient.
    static func rules(_ attribute: Attribute) -> String {
        var rules: [String] = [attribute.isOptional ? "optional" : "required"]
        if let value = attribute.defaultValue { rules.append("default " + value) }
        if let value = attribute.minValue { rules.append("min " + value) }
        if let value = attribute.maxValue { rules.append("max " + value) }
        if let value = attribute.regularExpression { rules.append("matches " + value) }
        if attribute.isIndexed { rules.append("indexed") }
        if let expression = attribute.derivationExpression { rules.append("derived " + expression) }
        if attribute.isTransient { rules.append("transient") }
        if attribute.allowsExternalBinaryDataStorage { rules.append("external storage") }
        if let transformer = attribute.valueTransformerName { rules.append("transformer " + transformer) }
        return rules.joined(separator: ", ")
    }

    /// Fetch indexes (`name: a, -b`) and compound indexes.
    static func indexes(_ entity: Entity) -> [String] {
        entity.fetchIndexes.map { index in
            index.name + ": " + index.elements.map { ($0.isAscending ? "" : "-") + ($0.property ?? $0.expression ?? "?") }
                .joined(separator: ", ")
        } + entity.compoundIndexes.map { "compound: " + $0.joined(separator: ", ") }
    }

    /// `/_model.svg`: the diagram `cdstore model diagram --format svg` draws, shown through `<img>` so that
    /// nothing in it can run.
    func modelDiagram() throws -> BrowseReply {
        guard let drawModel else { throw BrowseError(.notFound, "this server draws no model diagram") }
        do {
            return BrowseReply(status: 200, contentType: "image/svg+xml", body: .bytes(try drawModel()))
        } catch {
            throw BrowseError(.notFound, "\(error)")
        }
    }

    /// `/_history`: persistent history transactions, oldest first, a page at a time (`?after=<transaction>`).
    func historyPage(_ request: BrowseRequest) throws -> BrowseReply {
        let after = try request.key("after")
        let limit = try request.pageSize()
        guard try store.hasPersistentHistory else {
            throw BrowseError(.notFound, "this store keeps no persistent history (no ATRANSACTION and ACHANGE tables)")
        }
        let entries = try store.history(after: after, limit: limit)
        let next = entries.count == limit ? entries.last?.number : nil
        let nextURL = next.map { HTML.url(request.wantsJSON ? "/_history.json" : "/_history", [("after", String($0)),
                                          ("limit", limit == BrowseRequest.defaultPageSize ? nil : String(limit))]) }
        if request.wantsJSON {
            let transactions: [ObjectValue] = entries.map { t in
                .dictionary([
                    ("number", .integer(t.number)), ("timestamp", t.date.map { .date($0.timeIntervalSinceReferenceDate) } ?? .null),
                    ("author", t.author.map { .string($0) } ?? .null), ("bundleID", t.bundleID.map { .string($0) } ?? .null),
                    ("contextName", t.contextName.map { .string($0) } ?? .null),
                    ("changes", .array(t.changes.map { change in
                        .dictionary([("type", .string(change.type.description)), ("entity", .string(change.entity)),
                                     ("object", .string(change.objectID.description)),
                                     ("updatedProperties", change.updatedProperties.map { .array($0.map { .string($0) }) } ?? .null)])
                    })),
                ])
            }
            return .json(jsonText(.dictionary([("transactions", .array(transactions)),
                                                      ("next", nextURL.map { .string($0) } ?? .null)])))
        }
        var body = HTML()
        body.element("h1", "Persistent history")
        body.raw("<table id=\"history\"><thead><tr><th>transaction</th><th>time</th><th>author</th><th>context</th><th>changes</th></tr></thead><tbody>")
        for t in entries {
            body.raw("<tr><td class=\"num\">\(t.number)</td><td>")
            body.text(t.date.map { ObjectValue.date($0.timeIntervalSinceReferenceDate).plainText } ?? "")
            body.raw("</td><td>")
            body.text(t.author ?? "")
            body.raw("</td><td>")
            body.text(t.contextName ?? "")
            body.raw("</td><td>")
            for (i, change) in t.changes.enumerated() {
                if i > 0 { body.raw("<br>") }
                body.text(change.type.description + " ")
                body.link(ValueCells.href(change.objectID), "\(change.entity)/p\(change.objectID.primaryKey)")
                if let properties = change.updatedProperties, !properties.isEmpty { body.text(" (" + properties.joined(separator: ", ") + ")") }
            }
            body.raw("</td></tr>")
        }
        body.raw("</tbody></table><p class=\"pager\">")
        if after != nil { body.link("/_history", "« first page") }
        if let nextURL { body.link(nextURL, "next »") }
        body.raw("</p>")
        return .html(HTML.page(title: "History", crumbs: [("store", "/"), ("history", nil)], body: body))
    }

    /// `/_export/<Entity>?format=ndjson|json|csv&where=…&sort=…`: checked here (a bad predicate is a 400 before
    /// the first byte), then streamed by the server.
    func export(_ entityName: String, _ request: BrowseRequest) throws -> BrowseReply {
        let entity = try requireEntity(entityName)
        let view = try EntityView(entity: entity, model: store.model, request: request)
        let formatName = request.query["format"] ?? "ndjson"
        guard let format = ExportFormat(rawValue: formatName) else {
            throw BrowseError(.badRequest, "format must be ndjson, json or csv, not '\(formatName.prefix(40))'")
        }
        do {
            _ = try store.read { ctx in try ctx.page(entity.name, where: view.predicate, sort: view.sort, limit: 1) }
        } catch let error as CDStoreError {
            throw Self.browseError(error, predicate: view.predicate)
        }
        let contentType = switch format {
        case .json: "application/json; charset=utf-8"
        case .ndjson: "application/x-ndjson; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        }
        return BrowseReply(status: 200, contentType: contentType,
                           body: .export(entity: entity.name, predicate: view.predicate, sort: view.sort, format: format),
                           headers: [("Content-Disposition", "attachment; filename=\"\(entity.name).\(format.rawValue)\"")])
    }
}
