import CDStore

/// The model as JSON and as short text an assistant reads: entity, attribute and relationship names with their
/// types, rules and delete rules.
enum ModelDescription {
    static func model(_ model: ManagedObjectModel) -> JSONValue {
        ["version_identifiers": .array(model.versionIdentifiers.map(JSONValue.string)),
         "entities": .array(model.entities.map { entity($0, in: model) })]
    }

    static func entity(_ entity: Entity, in model: ManagedObjectModel) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("name", .string(entity.name))]
        if let parent = entity.parentName { pairs.append(("parent", .string(parent))) }
        let children = model.entities.filter { $0.parentName == entity.name }.map(\.name)
        if !children.isEmpty { pairs.append(("sub_entities", .array(children.map(JSONValue.string)))) }
        if entity.isAbstract { pairs.append(("abstract", true)) }
        pairs.append(("attributes", .array(entity.attributes.map(attribute))))
        pairs.append(("relationships", .array(entity.relationships.map(relationship))))
        pairs.append(("uniqueness_constraints", .array(entity.uniquenessConstraints.map { .array($0.map(JSONValue.string)) })))
        pairs.append(("fetch_indexes", .array(entity.fetchIndexes.map { index -> JSONValue in
            let elements = index.elements.map { element -> JSONValue in
                .object([("property", element.property.map(JSONValue.string) ?? .null), ("ascending", .bool(element.isAscending))])
            }
            return JSONValue.object([("name", .string(index.name)), ("elements", .array(elements))])
        })))
        return .object(pairs)
    }

    static func attribute(_ attribute: Attribute) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("name", .string(attribute.name)), ("type", .string(attribute.type.rawValue)),
                                            ("optional", .bool(attribute.isOptional))]
        if let value = attribute.defaultValue { pairs.append(("default", .string(value))) }
        if let value = attribute.minValue { pairs.append(("min", .string(value))) }
        if let value = attribute.maxValue { pairs.append(("max", .string(value))) }
        if let value = attribute.regularExpression { pairs.append(("pattern", .string(value))) }
        if attribute.isTransient { pairs.append(("transient", true)) }
        if let value = attribute.derivationExpression { pairs.append(("derived", .string(value))) }
        if let value = attribute.valueTransformerName { pairs.append(("transformer", .string(value))) }
        return .object(pairs)
    }

    static func relationship(_ relationship: Relationship) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("name", .string(relationship.name)), ("destination", .string(relationship.destination)),
            ("to_many", .bool(relationship.isToMany)), ("optional", .bool(relationship.isOptional)),
            ("inverse", relationship.inverseName.map(JSONValue.string) ?? .null),
            ("delete_rule", .string("\(relationship.deleteRule)")),
        ]
        if relationship.isOrdered { pairs.append(("ordered", true)) }
        if relationship.minCount > 0 { pairs.append(("min_count", .integer(Int64(relationship.minCount)))) }
        if relationship.maxCount > 0 { pairs.append(("max_count", .integer(Int64(relationship.maxCount)))) }
        return .object(pairs)
    }

    /// One entity as a few lines of text: its properties with types and rules, for the `cdstore://entity/NAME`
    /// resource.
    static func schemaText(_ entity: Entity, in model: ManagedObjectModel, objects: Int?) -> String {
        var lines = ["entity \(entity.name)" + (entity.parentName.map { " : \($0)" } ?? "")
                     + (entity.isAbstract ? " (abstract)" : "") + (objects.map { " — \($0) objects" } ?? "")]
        for attribute in entity.attributes {
            var rules: [String] = [attribute.isOptional ? "optional" : "required"]
            if let value = attribute.defaultValue { rules.append("default \(value)") }
            if let value = attribute.minValue { rules.append("min \(value)") }
            if let value = attribute.maxValue { rules.append("max \(value)") }
            if let value = attribute.regularExpression { rules.append("pattern \(value)") }
            lines.append("  \(attribute.name): \(attribute.type.rawValue) (\(rules.joined(separator: ", ")))")
        }
        for relationship in entity.relationships {
            let target = relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination
            lines.append("  \(relationship.name) -> \(target) (inverse \(relationship.inverseName ?? "none"), "
                         + "delete rule \(relationship.deleteRule)\(relationship.isOptional ? "" : ", required"))")
        }
        for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
            lines.append("  unique (\(constraint.joined(separator: ", ")))")
        }
        let children = model.entities.filter { $0.parentName == entity.name }.map(\.name)
        if !children.isEmpty { lines.append("  sub-entities: \(children.joined(separator: ", "))") }
        lines.append("Predicate example: \(example(entity))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A predicate over the entity's first attributes, to show the syntax with its own names.
    static func example(_ entity: Entity) -> String {
        guard let attribute = entity.attributes.first(where: { !$0.isTransient }) else { return "TRUEPREDICATE" }
        switch attribute.type {
        case .string: return "\(attribute.name) BEGINSWITH[c] 'a'"
        case .integer16, .integer32, .integer64, .double, .float, .decimal: return "\(attribute.name) > 0"
        case .boolean: return "\(attribute.name) == YES"
        case .date: return "\(attribute.name) > '2024-01-01'"
        default: return "\(attribute.name) != nil"
        }
    }

    /// "no entity 'X' in the model" with the model's entity names (a few), for a tool error.
    static func unknownEntity(_ name: String, in model: ManagedObjectModel) -> String {
        let names = model.entities.map(\.name)
        let close = names.filter { $0.lowercased() == name.lowercased() || $0.lowercased().hasPrefix(name.lowercased().prefix(3)) }
        let listed = (close.isEmpty ? Array(names.prefix(20)) : close).joined(separator: ", ")
        return "no entity '\(name.prefix(120))' in the model; " + (close.isEmpty ? "its entities: " : "did you mean: ") + listed
    }
}
