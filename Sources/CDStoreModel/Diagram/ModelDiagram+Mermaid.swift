extension ModelDiagram {
    /// The diagram as a Mermaid `erDiagram`, which GitHub draws from a ```` ```mermaid ```` block in Markdown.
    ///
    /// ```
    /// erDiagram
    ///     Company {
    ///         String name UK
    ///     }
    ///     Company ||--o{ Department : "departments (cascade) / company"
    ///     Manager |o..|| Employee : "is a"
    /// ```
    ///
    /// Entities list their own attributes as `Type name`, with `UK` for members of a uniqueness constraint and a
    /// comment for optional, transient and derived ones and for constraints shared with other properties; types lose their spaces (`Integer32`), as Mermaid wants
    /// one word. Relationship lines carry crow's-foot cardinalities at both ends; a sub-entity points to its
    /// parent with a dotted "is a" line (erDiagram has no inheritance of its own).
    public func mermaid() -> String {
        var lines = ["erDiagram"]
        for entity in entities {
            let attributes = entity.attributes
            guard !attributes.isEmpty else {
                lines.append("    \(entity.name)")
                continue
            }
            lines.append("    \(entity.name) {")
            for attribute in attributes {
                var line = "        \(attribute.type.rawValue.replacingOccurrences(of: " ", with: "")) \(attribute.name)"
                if isUnique(attribute, of: entity) { line += " UK" }
                let notes = flags(attribute, of: entity).filter { $0 != "unique" }  // UK says it
                if !notes.isEmpty { line += " \"\(notes.joined(separator: ", "))\"" }
                lines.append(line)
            }
            lines.append("    }")
        }
        for link in links {
            let left = Self.mermaidLeft(Cardinality(link.inverse)), right = Self.mermaidRight(Cardinality(link.relationship))
            lines.append("    \(link.source) \(left)--\(right) \(link.destination) : \"\(Self.label(link))\"")
        }
        for (child, parent) in inheritance {
            lines.append("    \(child) |o..|| \(parent) : \"is a\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The marker at the left end of a line (`A |o--… B`).
    static func mermaidLeft(_ cardinality: Cardinality) -> String {
        switch cardinality {
        case .zeroOrOne: "|o"
        case .exactlyOne: "||"
        case .zeroOrMore: "}o"
        case .oneOrMore: "}|"
        }
    }

    /// The marker at the right end of a line (`A …--o{ B`).
    static func mermaidRight(_ cardinality: Cardinality) -> String {
        switch cardinality {
        case .zeroOrOne: "o|"
        case .exactlyOne: "||"
        case .zeroOrMore: "o{"
        case .oneOrMore: "|{"
        }
    }
}
