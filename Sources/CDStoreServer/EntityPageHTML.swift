import CDStore
import Foundation

extension StoreBrowser {
    func entityHTML(_ view: EntityView, _ data: EntityPageData, error: BrowseError?) -> String {
        let name = view.entity.name
        var body = HTML()
        body.element("h1", name)
        if let count = data.count { countParagraph(count, view, into: &body) }
        whereForm(view, into: &body)
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
        if let stopped = data.pageStopped {
            body.raw("<div class=\"warning\" id=\"stopped\">")
            body.text(stopped)
            body.raw("</div>")
        }
        suggestions(view, page: data.page, into: &body)
        if let chart = data.chart { chartHTML(chart, view, into: &body) }
        if !data.facets.isEmpty { facetsHTML(data.facets, view, into: &body) }
        body.raw("<p class=\"exports\">Export: ")
        for format in ExportFormat.allCases { body.link(view.exportURL(format), format.rawValue.uppercased()) }
        body.link(view.url(json: true), "this page as JSON")
        body.raw("</p>")
        if let page = data.page {
            table(view, page: page, labels: data.labels, into: &body)
            body.raw("<p class=\"pager\">")
            if view.after != nil { body.link(view.url(), "« first page") }
            if let next = page.nextAfter { body.link(view.url(after: next), "next »") }
            body.raw("</p>")
        }
        return HTML.page(title: name, crumbs: [("store", "/"), (name, nil)], body: body, live: liveHook(entity: name))
    }

    /// `5 objects match: Employee 4, Manager 1`, or `more than 10,000 objects` with a link to count them all.
    private func countParagraph(_ count: ObjectCount, _ view: EntityView, into body: inout HTML) {
        body.raw("<p id=\"count\">")
        if count.stoppedAtTimeLimit && count.objects == 0 {
            body.text("Not counted: counting stopped at the \(settings.timeLimitWords) time limit.")
        } else {
            body.text(count.words + (view.predicate == nil ? "" : " match"))
        }
        if !count.byEntity.isEmpty {
            body.raw(": ")
            for (i, part) in count.byEntity.enumerated() {
                if i > 0 { body.raw(", ") }
                body.link(HTML.url("/" + HTML.percentEncoded(part.name), [("where", view.predicate)]), part.name)
                body.text(" " + ValueCells.grouped(part.objects))
            }
        }
        if count.stoppedAtTimeLimit {
            if count.objects > 0 { body.text(" (counting stopped at the \(settings.timeLimitWords) time limit)") }
        } else if !count.isComplete {
            body.raw(" · ")
            body.link(view.url(EntityView.Change(exactCount: true)), "count exactly")
        }
        body.raw("</p>")
    }

    private func whereForm(_ view: EntityView, into body: inout HTML) {
        let name = view.entity.name
        body.raw("<form class=\"where\" method=\"get\" action=\"/" + HTML.escape(HTML.percentEncoded(name)) + "\">")
        body.raw("<input type=\"text\" name=\"where\" placeholder=\"predicate, e.g. age &gt; 30 AND name BEGINSWITH[c] &quot;a&quot;\" value=\"")
        body.text(view.predicate ?? "")
        body.raw("\">")
        var kept: [(String, String)] = [("sort", view.sort.joined(separator: ",")), ("facet", view.facets.map(\.text).joined(separator: ",")),
                                        ("chart", view.chart?.text ?? "")]
        if view.choseColumns { kept.append(("columns", (view.attributes.map(\.name) + view.relationships.map(\.name)).joined(separator: ","))) }
        for (key, value) in kept where !value.isEmpty {
            body.raw("<input type=\"hidden\" name=\"\(key)\" value=\"")
            body.text(value)
            body.raw("\">")
        }
        body.raw(" <button type=\"submit\">Filter</button> ")
        if view.predicate != nil { body.link(view.url(EntityView.Change(predicate: .some(nil))), "clear") }
        body.raw("</form>")
    }

    private func table(_ view: EntityView, page: ObjectPage, labels: Labels, into body: inout HTML) {
        body.raw("<table id=\"objects\"><thead><tr><th data-key=\"_object\">object</th>")
        if view.hasSubentities { body.raw("<th data-key=\"_entity\">entity</th>") }
        for attribute in view.attributes {
            body.raw("<th data-key=\"" + HTML.escape(attribute.name) + "\">")
            let current = view.sort.first
            let next = current == attribute.name ? "-" + attribute.name : attribute.name
            let arrow = current == attribute.name ? " ▲" : current == "-" + attribute.name ? " ▼" : ""
            body.link(view.url(sort: [next]), attribute.name + arrow)
            body.raw("</th>")
        }
        for relationship in view.relationships {
            body.raw("<th data-key=\"" + HTML.escape(relationship.name) + "\">")
            body.text(relationship.name + (relationship.isToMany ? " (to-many)" : ""))
            body.raw("</th>")
        }
        body.raw("</tr></thead><tbody>")
        if page.objects.isEmpty {
            body.raw("<tr><td colspan=\"\(1 + (view.hasSubentities ? 1 : 0) + view.attributes.count + view.relationships.count)\">"
                     + "<span class=\"null\">no objects</span></td></tr>")
        }
        for object in page.objects {
            body.raw("<tr data-id=\"" + HTML.escape(ValueCells.href(object.objectID)) + "\"><td>")
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
                relationshipCell(object, relationship, labels: labels, into: &body)
                body.raw("</td>")
            }
            body.raw("</tr>")
        }
        body.raw("</tbody></table>")
    }

    /// A to-one as a link to its object reading as its label, a to-many as its count linking to the object's list.
    private func relationshipCell(_ object: StoredObject, _ relationship: Relationship, labels: Labels, into body: inout HTML) {
        guard let value = object.value(forKey: relationship.name) else { return }
        if relationship.isToMany {
            guard case .integer(let count) = value else { return }
            body.link(ValueCells.href(object.objectID) + "#rel-" + HTML.percentEncoded(relationship.name), ValueCells.grouped(Int(count)))
            return
        }
        if let id = object.related(relationship.name) {
            ValueCells.objectLink(id, labels: labels, into: &body)
        } else {
            body.raw("<span class=\"null\">null</span>")
        }
    }
}
