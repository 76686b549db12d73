import CDStoreModel

/// Composite attributes in records: Core Data keeps their elements in columns of the entity's table, so a record's
/// `"home": {"street": "1 Main St", "city": null}` is written as the fields `home.street` and `home.city`. A
/// composite holding a SwiftData enum's raw value (``Attribute/holdsRawValue``) takes the raw value itself:
/// `"tier": 2` is the field `tier.tier`.
extension EntityWritePlan {
    /// The attribute itself, then — for a composite — its elements named by path (``Attribute/columnAttributes``).
    static func flattened(_ attribute: Attribute) -> [Attribute] {
        attribute.type == .composite ? [attribute] + attribute.columnAttributes : [attribute]
    }

    /// `fields` with each composite given as an object (or null) replaced by its elements' fields.
    func expandingComposites(_ fields: [(String, InputValue)]) throws -> [(String, InputValue)] {
        try CompositeInput.expanding(fields, composites: compositeAttributes, entity: entity.name)
    }
}

/// A composite attribute's input value spread into its elements' fields, named by path (`home.city`).
enum CompositeInput {
    /// `fields` with each of `composites` (by name) given as an object (or null) replaced by its elements' fields;
    /// other fields as they are.
    static func expanding(_ fields: [(String, InputValue)], composites: [String: Attribute],
                          entity: String) throws -> [(String, InputValue)] {
        var result: [(String, InputValue)] = []
        for (key, value) in fields {
            guard let composite = composites[key] else {
                result.append((key, value))
                continue
            }
            try expand(composite, path: key, value: value, entity: entity, into: &result)
        }
        return result
    }

    /// `fields` with element paths of `composites` given as fields of their own (`"home.city": "Paris"`) folded
    /// into the composite's object (`"home": {"city": "Paris"}`), for readers that look properties up by name.
    static func folding(_ fields: [(String, InputValue)], composites: [String: Attribute]) -> [(String, InputValue)] {
        var result: [(String, InputValue)] = []
        for (key, value) in fields {
            let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard path.count > 1, composites[path[0]] != nil else {
                result.append((key, value))
                continue
            }
            if let index = result.firstIndex(where: { $0.0 == path[0] }) {
                guard case .object(let members) = result[index].1 else { continue }
                result[index].1 = .object(PropertyValues.setting(Array(path.dropFirst()), to: value, in: members))
            } else {
                result.append((path[0], .object(PropertyValues.setting(Array(path.dropFirst()), to: value, in: []))))
            }
        }
        return result
    }

    private static func expand(_ composite: Attribute, path: String, value: InputValue, entity: String,
                               into result: inout [(String, InputValue)]) throws {
        switch value {
        case .null:
            for element in composite.compositeElements {
                let elementPath = path + "." + element.name
                if element.type == .composite {
                    try expand(element, path: elementPath, value: .null, entity: entity, into: &result)
                } else {
                    result.append((elementPath, .null))
                }
            }
        case .object(let members):
            for (name, member) in members {
                guard let element = composite.compositeElements.first(where: { $0.name == name }) else {
                    throw StoreError(.unknownName, "composite attribute '\(path)' has no element '\(name)'"
                                     + Suggestion.didYouMean(name, among: composite.compositeElements.map(\.name)),
                                     entity: entity, property: path)
                }
                let elementPath = path + "." + name
                if element.type == .composite {
                    try expand(element, path: elementPath, value: member, entity: entity, into: &result)
                } else {
                    result.append((elementPath, member))
                }
            }
        default:
            // An enum's raw value (`"tier": 2`), as records print it; the element's object form is taken too.
            if composite.holdsRawValue {
                result.append((path + "." + composite.compositeElements[0].name, value))
                return
            }
            throw StoreError(.invalidInput, "a composite attribute takes an object of its elements ("
                             + composite.compositeElements.map(\.name).joined(separator: ", ") + ") or null",
                             entity: entity, property: path)
        }
    }
}
