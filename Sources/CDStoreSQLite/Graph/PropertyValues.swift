import CDStoreModel

/// A record's fields sorted into the entity's attributes and relationships, after applying the JSON mapping.
/// Keys that name nothing are errors (with a suggestion); `_entity`, `_id` and `_ref` are cdstore's own keys.
struct PropertyValues {
    var attributes: [(Attribute, InputValue)] = []
    var relationships: [(Relationship, InputValue)] = []

    /// The attribute inputs by name, for error messages.
    var attributeInputs: [String: InputValue] {
        Dictionary(attributes.map { ($0.0.name, $0.1) }, uniquingKeysWith: { a, _ in a })
    }

    /// `properties` are the entity's attributes and relationships, inherited ones included, when the caller has
    /// them at hand (inserts look them up once per entity, not once per record).
    init(fields: [(String, InputValue)], entity: Entity, model: ManagedObjectModel,
         mapping: JSONMapping.EntityMapping?, properties: EntityProperties? = nil) throws {
        let properties = properties ?? EntityProperties(entity, in: model)
        let attributes = properties.attributes
        let relationships = properties.relationships
        var remaining = fields.filter { !["_entity", "_id"].contains($0.0) }
        var seen: Set<String> = []
        for key in Set(remaining.map(\.0)) where remaining.filter({ $0.0 == key }).count > 1 {
            throw StoreError(.invalidInput, "given twice", entity: entity.name, property: key)
        }
        func take(_ property: String) -> InputValue? {
            if let path = mapping?.keyPaths[property], let value = Self.value(at: path, in: remaining) {
                remaining.removeAll { $0.0 == path[0] && path.count == 1 }
                return value
            }
            guard let index = remaining.firstIndex(where: { $0.0 == property }) else { return nil }
            return remaining.remove(at: index).1
        }
        for attribute in attributes {
            guard let value = take(attribute.name) else { continue }
            guard !attribute.isTransient else {
                throw StoreError(.invalidInput, "transient attributes are not stored", entity: entity.name, property: attribute.name)
            }
            guard seen.insert(attribute.name).inserted else { continue }
            self.attributes.append((attribute, value))
        }
        for relationship in relationships {
            guard let value = take(relationship.name), seen.insert(relationship.name).inserted else { continue }
            guard !relationship.isTransient else {
                throw StoreError(.invalidInput, "transient relationships are not stored", entity: entity.name,
                                 property: relationship.name)
            }
            self.relationships.append((relationship, value))
        }
        // Top-level keys consumed by nested key paths ("user" of "user.name") are not unknown.
        let consumed = Set(mapping?.keyPaths.values.compactMap(\.first) ?? [])
        if let unknown = remaining.first(where: { !consumed.contains($0.0) }) {
            let candidates = attributes.filter { !$0.isTransient }.map(\.name) + relationships.map(\.name)
            throw StoreError(.unknownName, "no such attribute or relationship" + Suggestion.didYouMean(unknown.0, among: candidates),
                             entity: entity.name, property: unknown.0)
        }
    }

    /// The value at a dotted key path inside nested objects (`["user", "name"]`).
    static func value(at path: [String], in fields: [(String, InputValue)]) -> InputValue? {
        guard let first = path.first, let value = fields.first(where: { $0.0 == first })?.1 else { return nil }
        if path.count == 1 { return value }
        guard case .object(let nested) = value else { return nil }
        return Self.value(at: Array(path.dropFirst()), in: nested)
    }
}

/// An entity's attributes and relationships, inherited ones included, looked up once.
struct EntityProperties {
    let attributes: [Attribute]
    let relationships: [Relationship]

    init(_ entity: Entity, in model: ManagedObjectModel) {
        attributes = model.attributes(of: entity)
        relationships = model.relationships(of: entity)
    }
}
