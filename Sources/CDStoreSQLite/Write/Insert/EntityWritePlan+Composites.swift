import CDStoreModel

/// Composite attributes in records: Core Data keeps their elements in columns of the entity's table, so a record's
/// `"home": {"street": "1 Main St", "city": null}` is written as the fields `home.street` and `home.city`.
extension EntityWritePlan {
    /// The attribute itself, then — for a composite — its elements named by path (``Attribute/columnAttributes``).
    static func flattened(_ attribute: Attribute) -> [Attribute] {
        attribute.type == .composite ? [attribute] + attribute.columnAttributes : [attribute]
    }

    /// `fields` with each composite given as an object (or null) replaced by its elements' fields.
    func expandingComposites(_ fields: [(String, InputValue)]) throws -> [(String, InputValue)] {
        var result: [(String, InputValue)] = []
        for (key, value) in fields {
            guard let composite = compositeAttributes[key] else {
                result.append((key, value))
                continue
            }
            try expand(composite, path: key, value: value, into: &result)
        }
        return result
    }

    private func expand(_ composite: Attribute, path: String, value: InputValue,
                        into result: inout [(String, InputValue)]) throws {
        switch value {
        case .null:
            for element in composite.compositeElements {
                let elementPath = path + "." + element.name
                if element.type == .composite {
                    try expand(element, path: elementPath, value: .null, into: &result)
                } else {
                    result.append((elementPath, .null))
                }
            }
        case .object(let members):
            for (name, member) in members {
                guard let element = composite.compositeElements.first(where: { $0.name == name }) else {
                    throw StoreError(.unknownName, "composite attribute '\(path)' has no element '\(name)'"
                                     + Suggestion.didYouMean(name, among: composite.compositeElements.map(\.name)),
                                     entity: entity.name, property: path)
                }
                let elementPath = path + "." + name
                if element.type == .composite {
                    try expand(element, path: elementPath, value: member, into: &result)
                } else {
                    result.append((elementPath, member))
                }
            }
        default:
            throw StoreError(.invalidInput, "a composite attribute takes an object of its elements ("
                             + composite.compositeElements.map(\.name).joined(separator: ", ") + ") or null",
                             entity: entity.name, property: path)
        }
    }
}
