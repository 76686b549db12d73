import CDStoreModel

extension KeyPathResolver {
    /// `address.city`: an element of a composite attribute, a column of the entity's own table (Core Data flattens
    /// composites), compared and sorted as a value of the element's type.
    func compositeElement(_ composite: Attribute, keys: [String], in scope: Scope, source: PathSource?,
                          whole: String) throws -> ResolvedPath {
        var element = composite
        var path = keys[0]
        for key in keys.dropFirst() {
            guard element.type == .composite else {
                throw error("'\(element.name)' is an element of \(composite.name), so '\(whole)' cannot go on to '\(key)'",
                            scope.entity)
            }
            guard let next = element.compositeElements.first(where: { $0.name == key }) else {
                throw error(.unknownName, "composite attribute '\(path)' of \(scope.entity.name) has no element '\(key)'"
                            + Suggestion.didYouMean(key, among: element.compositeElements.map(\.name)), scope.entity)
            }
            element = next
            path += "." + key
        }
        // An enum's raw value is compared as the value itself (`tier == 2`), as records give it.
        if element.holdsRawValue {
            element = element.compositeElements[0]
            path += "." + element.name
        }
        guard element.type != .composite, let column = scope.layout.attributeColumns[path] else {
            let elements = element.compositeElements.map { "\(path).\($0.name)" }.joined(separator: ", ")
            throw error("'\(path)' is a composite attribute, stored as its elements: use one of them ("
                        + (elements.isEmpty ? "it has none" : elements) + ")", scope.entity)
        }
        return ResolvedPath(source: source, sql: "\(scope.alias).\(column)", value: .attribute(element), scope: nil)
    }
}
