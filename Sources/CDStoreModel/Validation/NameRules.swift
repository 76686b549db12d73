/// The names Xcode accepts for entities and properties, which are also the names that can become SQL
/// identifiers: Core Data makes columns and tables of them unquoted (`Z` + the name in upper case).
///
/// Xcode requires letters, digits and underscores, an entity name starting with an upper-case letter and a
/// property name with a lower-case one. Every model of the corpus keeps to that. cdstore refuses to create or
/// open a store for a model that breaks the first rule (``unsafeName(in:)``): such a name would be spliced into
/// SQL text.
package enum NameRules {
    /// Why `name` is not a valid entity name, or nil.
    package static func problem(entityName name: String) -> String? {
        guard !name.isEmpty else { return nil }
        if let problem = characterProblem(name) { return problem }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else {
            return "an entity name must begin with an upper-case letter"
        }
        return nil
    }

    /// Why `name` is not a valid property name, or nil.
    package static func problem(propertyName name: String) -> String? {
        guard !name.isEmpty else { return nil }
        if let problem = characterProblem(name) { return problem }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else {
            return "a property name must begin with a lower-case letter"
        }
        return nil
    }

    /// The first entity or property name of `model` that is not a plain identifier (ASCII letters, digits and
    /// `_`, not starting with a digit), with its entity, or nil when every name is one.
    package static func unsafeName(in model: ManagedObjectModel) -> (entity: String, property: String?)? {
        for entity in model.entities {
            if !isIdentifier(entity.name) { return (entity.name, nil) }
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            if let name = names.first(where: { !isIdentifier($0) }) { return (entity.name, name) }
        }
        return nil
    }

    /// Whether `name` is a plain identifier: ASCII letters, digits and `_`, not starting with a digit.
    package static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    private static func characterProblem(_ name: String) -> String? {
        isIdentifier(name) ? nil : "'\(name)' is not a valid name: use letters, digits and _, starting with a letter"
    }
}
