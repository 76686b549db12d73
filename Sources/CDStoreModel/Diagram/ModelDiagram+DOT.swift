extension ModelDiagram {
    /// The diagram as Graphviz DOT: one table-shaped node per entity (name, then its own attributes as
    /// `name: Type (flags)`), relationship edges with crow's-foot arrows at both ends (`dir=both`) and the
    /// relationship names as the label, and sub-entities pointing to their parent with a hollow arrow.
    /// `dot -Tsvg` renders it.
    public func dot() -> String {
        var lines = [
            "digraph model {",
            "  graph [rankdir=LR, fontname=\"Helvetica\", nodesep=0.4, ranksep=0.8];",
            "  node [shape=plain, fontname=\"Helvetica\", fontsize=10];",
            "  edge [fontname=\"Helvetica\", fontsize=9];",
        ]
        for entity in entities {
            var rows = ["<tr><td bgcolor=\"#e8e8e8\"><b>\(Self.escaped(entity.name))</b>"
                        + (entity.isAbstract ? " <i>(abstract)</i>" : "") + "</td></tr>"]
            if !entity.attributes.isEmpty {
                let cells = entity.attributes.map { attribute in
                    let notes = flags(attribute, of: entity)
                    return Self.escaped("\(attribute.name): \(attribute.type.rawValue)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"))
                        + "<br align=\"left\"/>"
                }
                rows.append("<tr><td align=\"left\">\(cells.joined())</td></tr>")
            }
            lines.append("  \(Self.quoted(entity.name)) [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">"
                         + rows.joined() + "</table>>];")
        }
        for link in links {
            let head = Self.dotArrow(Cardinality(link.relationship)), tail = Self.dotArrow(Cardinality(link.inverse))
            lines.append("  \(Self.quoted(link.source)) -> \(Self.quoted(link.destination)) [label=\(Self.quoted(Self.label(link))), "
                         + "dir=both, arrowhead=\(head), arrowtail=\(tail)];")
        }
        for (child, parent) in inheritance {
            lines.append("  \(Self.quoted(child)) -> \(Self.quoted(parent)) [arrowhead=empty, style=dashed, label=\"is a\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Graphviz's crow's-foot arrows, nearest the node first: `crowodot` is zero or more.
    static func dotArrow(_ cardinality: Cardinality) -> String {
        switch cardinality {
        case .zeroOrOne: "teeodot"
        case .exactlyOne: "teetee"
        case .zeroOrMore: "crowodot"
        case .oneOrMore: "crowtee"
        }
    }

    /// A DOT string: `"name"`, with `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Text inside an HTML-like label.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
