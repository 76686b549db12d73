import CDStore
import Foundation

extension StoreBrowser {
    /// Related objects listed per to-many relationship on an object's page; `?rel=<name>&from=<n>` pages one.
    static let relatedPageSize = 100

    /// `/<Entity>/p<PK>`: every attribute whole, Binary values as sizes with a download link, every relationship
    /// with its inverse and links (to-manys paged), and the relationships without inverse that point here.
    func objectPage(_ entityName: String, _ primaryKey: Int64, _ request: BrowseRequest) throws -> BrowseReply {
        let entity = try requireEntity(entityName)
        guard let object = try store.read({ ctx in
            try ctx.object(entity, primaryKey: primaryKey, storeUUID: store.storeUUID)
        }) else {
            throw BrowseError(.notFound, "no \(entityName) object with primary key \(primaryKey)")
        }
        guard let entity = store.model.entity(named: object.entity) else {
            throw BrowseError(.notFound, "no entity '\(object.entity)' in the model")
        }
        let pagedRelationship = request.query["rel"]
        let from = Int(clamping: try request.key("from") ?? 0)
        let self_ = ValueCells.href(object.objectID)
        let relationships = store.model.relationships(of: entity).filter { !$0.isTransient }
        // The related objects the page names: every to-one, and the shown slice of each to-many.
        func shown(_ relationship: Relationship) -> ArraySlice<ObjectID> {
            let ids = object.relatedMany(relationship.name)
            let start = pagedRelationship == relationship.name ? min(from, ids.count) : 0
            return ids[start..<min(ids.count, start + Self.relatedPageSize)]
        }
        var labels = Labels()
        let named = relationships.flatMap { $0.isToMany ? Array(shown($0)) : object.related($0.name).map { [$0] } ?? [] }
        do {
            try store.read { ctx in try ctx.withTimeLimit(settings.timeLimit) { try labels.read(named, rules: labelRules, in: ctx) } }
        } catch let error as CDStoreError where error.code == .interrupted {
            // Links read by key then.
        }
        let label = labelRules.label(of: object)
        if request.wantsJSON {
            var fields: [(String, ObjectValue)] = [("_id", .string(object.objectID.description)), ("_entity", .string(object.entity)),
                                                   ("_pk", .integer(object.primaryKey)), ("_label", label.map { .string($0) } ?? .null)]
            for (key, value) in zip(object.propertyNames, object.values) {
                if let relationship = relationships.first(where: { $0.name == key }) {
                    fields.append((key, relationship.isToMany ? .array(object.relatedMany(key).map { reference($0, labels: labels) })
                                   : object.related(key).map { reference($0, labels: labels) } ?? .null))
                    continue
                }
                fields.append((key, ValueCells.json(value, binaryHref: self_ + "/" + HTML.percentEncoded(key))))
            }
            return .json(jsonText(.dictionary(fields)))
        }
        var body = HTML()
        body.element("h1", "\(object.entity) p\(object.primaryKey)" + (label.map { " — " + $0 } ?? ""))
        body.element("p", object.objectID.description, class: "null")
        body.element("h2", "Attributes")
        body.raw("<table id=\"attributes\"><thead><tr><th>attribute</th><th>type</th><th>value</th></tr></thead><tbody>")
        for attribute in store.model.attributes(of: entity) where !attribute.isTransient {
            body.raw("<tr><th>")
            body.text(attribute.name)
            body.raw("</th><td>")
            body.text(attribute.type.rawValue + (attribute.allowsExternalBinaryDataStorage ? " (external storage)" : ""))
            body.raw("</td><td class=\"value\">")
            let value = object.value(forKey: attribute.name) ?? .null
            ValueCells.attribute(value, limit: nil, into: &body)
            if case .data = value {
                body.raw(" ")
                body.link(self_ + "/" + HTML.percentEncoded(attribute.name), "download")
            }
            body.raw("</td></tr>")
        }
        body.raw("</tbody></table>")
        body.element("h2", "Relationships")
        body.raw("<table id=\"relationships\"><thead><tr><th>relationship</th><th>destination</th><th>inverse</th><th>objects</th></tr></thead><tbody>")
        for relationship in relationships {
            body.raw("<tr id=\"rel-" + HTML.escape(HTML.percentEncoded(relationship.name)) + "\"><th>")
            body.text(relationship.name)
            body.raw("</th><td>")
            body.link("/" + HTML.percentEncoded(relationship.destination), relationship.destination
                      + (relationship.isToMany ? (relationship.isOrdered ? " (ordered to-many)" : " (to-many)") : " (to-one)"))
            body.raw("</td><td>")
            body.text(relationship.inverseName ?? "none")
            body.raw("</td><td>")
            if relationship.isToMany {
                let ids = object.relatedMany(relationship.name)
                let slice = shown(relationship)
                let start = slice.startIndex, end = slice.endIndex
                body.text(ValueCells.grouped(ids.count) + (ids.count == 1 ? " object" : " objects"))
                if !ids.isEmpty { body.raw(": ") }
                for (i, id) in slice.enumerated() {
                    if i > 0 { body.raw(", ") }
                    ValueCells.objectLink(id, labels: labels, into: &body)
                }
                let here = self_ + "?rel=" + HTML.percentEncoded(relationship.name)
                if start > 0 { body.raw(" "); body.link(here + "&from=\(max(0, start - Self.relatedPageSize))#rel-" + HTML.percentEncoded(relationship.name), "« previous") }
                if end < ids.count { body.raw(" "); body.link(here + "&from=\(end)#rel-" + HTML.percentEncoded(relationship.name), "more »") }
            } else if let id = object.related(relationship.name) {
                ValueCells.objectLink(id, labels: labels, into: &body)
            } else {
                body.raw("<span class=\"null\">null</span>")
            }
            body.raw("</td></tr>")
        }
        body.raw("</tbody></table>")
        pointingHere(object, entity, into: &body)
        return .html(HTML.page(title: "\(object.entity) p\(object.primaryKey)",
                               crumbs: [("store", "/"), (object.entity, "/" + HTML.percentEncoded(object.entity)), ("p\(object.primaryKey)", nil)],
                               body: body, live: liveHook(object: object.objectID)))
    }

    /// To-one relationships of other entities that have no inverse and can hold this object: the inverse side
    /// the object itself does not list, as filtered entity pages.
    private func pointingHere(_ object: StoredObject, _ entity: Entity, into body: inout HTML) {
        let targets = Set([entity.name] + store.model.ancestors(of: entity).map(\.name))
        var links: [(String, String)] = []
        for source in store.model.entities {
            for relationship in source.relationships where !relationship.isToMany && relationship.inverseName == nil
                && !relationship.isTransient && targets.contains(relationship.destination) {
                let predicate = "\(relationship.name) == \"\(object.objectID.description)\""
                links.append((HTML.url("/" + HTML.percentEncoded(source.name), [("where", predicate)]), "\(source.name).\(relationship.name)"))
            }
        }
        guard !links.isEmpty else { return }
        body.element("h2", "Pointed at by (relationships without an inverse)")
        body.raw("<ul>")
        for (href, text) in links {
            body.raw("<li>")
            body.link(href, text)
            body.raw("</li>")
        }
        body.raw("</ul>")
    }

    /// `/<Entity>/p<PK>/<attribute>`: a Binary (or external data) value's bytes, as a download.
    func binaryValue(_ entityName: String, _ primaryKey: Int64, attribute name: String) throws -> BrowseReply {
        let entity = try requireEntity(entityName)
        guard store.model.subtree(of: entity).contains(where: { store.model.attribute(name, of: $0) != nil }) else {
            throw BrowseError(.notFound, "\(entityName) has no attribute '\(name.prefix(100))'")
        }
        guard let object = try store.read({ ctx in
            try ctx.object(entity, primaryKey: primaryKey, storeUUID: store.storeUUID)
        }) else {
            throw BrowseError(.notFound, "no \(entityName) object with primary key \(primaryKey)")
        }
        switch object.value(forKey: name) {
        case .data(let data)?:
            let filename = "\(object.entity)-p\(object.primaryKey)-\(name)".filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            return BrowseReply(status: 200, contentType: "application/octet-stream", body: .bytes(Array(data)),
                               headers: [("Content-Disposition", "attachment; filename=\"\(filename).bin\"")])
        case .null?, nil:
            throw BrowseError(.notFound, "\(object.entity) p\(primaryKey) has no value for '\(name)' (null, or its external file is missing)")
        case let value?:
            return BrowseReply(status: 200, contentType: "text/plain; charset=utf-8", body: .bytes(Array(value.plainText.utf8)))
        }
    }
}
