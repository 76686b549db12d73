import Foundation

/// HTML text built by appending: every piece of text from a store or a request goes through ``text(_:)`` or
/// ``attribute(_:)``, which escape it, so that markup stored in a store shows as text and never runs.
struct HTML {
    private(set) var text = ""

    /// Appends markup written here (never text from a store or a request).
    mutating func raw(_ markup: String) { text += markup }

    /// Appends text, escaped for element content.
    mutating func text(_ value: String) { text += HTML.escape(value) }

    /// `<tag attributes>escaped text</tag>`.
    mutating func element(_ tag: String, _ content: String, class className: String? = nil) {
        text += "<\(tag)" + (className.map { " class=\"\($0)\"" } ?? "") + ">" + HTML.escape(content) + "</\(tag)>"
    }

    /// A link whose text, address and title are escaped.
    mutating func link(_ href: String, _ content: String, class className: String? = nil, title: String? = nil) {
        text += "<a href=\"" + HTML.escape(href) + "\"" + (className.map { " class=\"\($0)\"" } ?? "")
            + (title.map { " title=\"" + HTML.escape($0) + "\"" } ?? "") + ">" + HTML.escape(content) + "</a>"
    }

    /// Text escaped for element content and for quoted attribute values alike.
    static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Control characters other than tab and newlines are not allowed in HTML text.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}":
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A path segment or query value percent-encoded: only unreserved characters stay as they are.
    static func percentEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// `path?key=value&…` with the values percent-encoded; pairs with a nil or empty value are left out.
    static func url(_ path: String, _ query: [(String, String?)]) -> String {
        let pairs = query.compactMap { key, value -> String? in
            guard let value, !value.isEmpty else { return nil }
            return key + "=" + percentEncoded(value)
        }
        return pairs.isEmpty ? path : path + "?" + pairs.joined(separator: "&")
    }

    /// A whole page: the document, its title, the navigation and `body`.
    /// `live`, with `--watch`, is the `data-events` address the page's script listens to.
    static func page(title: String, crumbs: [(String, String?)], body: HTML, live: String? = nil) -> String {
        var page = HTML()
        page.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        page.raw("<title>")
        page.text(title + " — cdstore")
        page.raw("</title><link rel=\"stylesheet\" href=\"/_static/style.css\"><link rel=\"icon\" href=\"data:,\">")
        if let live {
            page.raw("<script src=\"/_static/live.js\" defer></script></head><body data-events=\"" + escape(live) + "\">")
        } else {
            page.raw("</head><body>")
        }
        page.raw("<nav>")
        for (i, crumb) in crumbs.enumerated() {
            if i > 0 { page.raw(" <span class=\"sep\">/</span> ") }
            if let href = crumb.1 { page.link(href, crumb.0) } else { page.element("span", crumb.0) }
        }
        page.raw("<span class=\"nav-right\"><a href=\"/_model\">model</a> · <a href=\"/_history\">history</a></span></nav>\n<main>")
        page.raw(body.text)
        page.raw("</main><footer>cdstore serve · read-only</footer></body></html>\n")
        return page.text
    }

    /// The stylesheet, served from `/_static/style.css` (the Content-Security-Policy allows no inline style).
    static let stylesheet = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #fafafa; }
        nav { padding: 8px 16px; background: #24292f; color: #fff; }
        nav a { color: #9cdcfe; text-decoration: none; } nav .sep { color: #888; }
        .nav-right { float: right; }
        main { padding: 12px 16px; }
        h1 { font-size: 20px; margin: 8px 0; } h2 { font-size: 16px; margin: 16px 0 6px; }
        table { border-collapse: collapse; background: #fff; }
        th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
        th { background: #f0f3f6; white-space: nowrap; } th a { color: inherit; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        td pre, .value pre { margin: 0; white-space: pre-wrap; word-break: break-all; font: 12px ui-monospace, monospace; }
        .null { color: #999; font-style: italic; } .trunc { color: #b35900; }
        .warning { background: #fff3cd; border: 1px solid #e0c36b; padding: 6px 10px; margin: 6px 0; }
        .error { background: #fde7e9; border: 1px solid #d1242f; padding: 6px 10px; margin: 6px 0; }
        .error pre { margin: 4px 0 0; font: 13px ui-monospace, monospace; }
        form.where input[type=text] { width: 60%; font: 13px ui-monospace, monospace; padding: 3px; }
        .pager a, .exports a { margin-right: 12px; }
        dl.info dt { font-weight: 600; float: left; clear: left; width: 160px; } dl.info dd { margin-left: 170px; }
        img.diagram { max-width: 100%; background: #fff; border: 1px solid #d0d7de; }
        footer { color: #888; padding: 16px; font-size: 12px; }
        .suggest { color: #555; } .suggest a { margin: 0 2px; }
        .facets { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0; }
        .facet { background: #fff; border: 1px solid #d0d7de; padding: 4px 10px; min-width: 160px; }
        .facet h2 { font-size: 14px; margin: 4px 0; } .facet ul { list-style: none; margin: 0; padding: 0; }
        .facet .count { color: #666; font-variant-numeric: tabular-nums; } .facet a.remove { color: #999; text-decoration: none; }
        .periods { margin: 0 0 4px; font-size: 12px; }
        figure.chart { margin: 8px 0; } figure.chart svg { background: #fff; border: 1px solid #d0d7de; max-width: 100%; height: auto; }
        figure.chart a.bar:hover rect { fill: #2b5a94; } figcaption { color: #555; font-size: 12px; }
        a.label { text-decoration: none; border-bottom: 1px dotted #888; }
        .live { background: #e8f4ff; border: 1px solid #7fb2e5; padding: 4px 10px; margin: 6px 0; }
        tr.inserted td { background: #e6ffec; } tr.updated td, #attributes tr.updated td { background: #fff8c5; }
        tr.deleted td { text-decoration: line-through; color: #999; } h1.deleted { text-decoration: line-through; }
        """
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
