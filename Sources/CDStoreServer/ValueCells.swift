import CDStore
import Foundation

/// How stored values show in pages: escaped always, cut short in tables, whole on an object's page.
enum ValueCells {
    /// Characters of a text value a table cell shows before cutting it.
    static let tableTextLimit = 120

    /// `/<Entity>/p<PK>` of an object ID.
    static func href(_ id: ObjectID) -> String {
        "/" + HTML.percentEncoded(id.entity) + "/p\(id.primaryKey)"
    }

    /// A link to an object that reads as its label (`R&D`), titled by its key; by key (`Department/p3`) when it
    /// has no label.
    static func objectLink(_ id: ObjectID, labels: Labels, into html: inout HTML) {
        let key = "\(id.entity)/p\(id.primaryKey)"
        if let label = labels[id] {
            html.link(href(id), label, class: "label", title: key)
        } else {
            html.link(href(id), key)
        }
    }

    /// An attribute value as table-cell content; `limit` cuts long text (nil: whole).
    static func attribute(_ value: ObjectValue, limit: Int?, into html: inout HTML) {
        switch value {
        case .null:
            html.raw("<span class=\"null\">null</span>")
        case .data(let data):
            html.text(byteCount(data.count))
        case .string(let text):
            if let limit, text.count > limit {
                html.text(String(text.prefix(limit)))
                html.raw("<span class=\"trunc\">… (\(text.count) characters)</span>")
            } else if limit == nil, text.contains("\n") || text.count > 80 {
                html.raw("<pre>")
                html.text(text)
                html.raw("</pre>")
            } else {
                html.text(text)
            }
        case .array, .dictionary:
            let text = jsonText(value)
            if let limit, text.count > limit {
                html.text(String(text.prefix(limit)))
                html.raw("<span class=\"trunc\">…</span>")
            } else {
                html.raw("<pre>")
                html.text(text)
                html.raw("</pre>")
            }
        default:
            html.text(value.plainText)
        }
    }

    /// Whether a value is a number, for right-aligned cells.
    static func isNumber(_ value: ObjectValue) -> Bool {
        switch value {
        case .integer, .double, .float, .decimal: true
        default: false
        }
    }

    /// `1 byte`, `2,048 bytes`.
    static func byteCount(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(grouped(count)) bytes"
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }

    /// A value as JSON for scripts: Binary as its size and a link rather than base64 (`{"bytes": n, "href": …}`).
    static func json(_ value: ObjectValue, binaryHref: String?) -> ObjectValue {
        if case .data(let data) = value, let binaryHref {
            return .dictionary([("bytes", .integer(Int64(data.count))), ("href", .string(binaryHref))])
        }
        return value
    }
}
