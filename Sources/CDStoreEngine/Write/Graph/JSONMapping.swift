import CDStoreJSON
import CDStoreModel
import Foundation

/// How API-shaped JSON maps onto the model: input key paths per property, the attributes that identify an
/// object, and the destination attribute a scalar relationship value refers to.
///
/// Read from the conventions Core Data projects already keep in their models' user info —
/// Groot's `JSONKeyPath` (property) and `identityAttribute`/`identityAttributes` (entity), MagicalRecord's
/// `mappedKeyName` (property) and `relatedByAttribute` (entity: its identity; relationship: the destination
/// attribute a scalar value names) — or from a `--map` file for models that have none:
///
/// ```json
/// {"Employee": {"identity": ["employeeNumber"],
///               "keys": {"firstName": "first_name", "email": "contact.email", "department": "dept"},
///               "relatedBy": {"department": "code"}}}
/// ```
package struct JSONMapping: Sendable, Equatable {
    /// The mapping of one entity.
    package struct EntityMapping: Sendable, Equatable {
        /// Input key path of a property, split at dots (`"user.name"` → `["user", "name"]`).
        package var keyPaths: [String: [String]] = [:]
        /// Attributes whose values identify an object (for merging and for scalar references).
        package var identity: [String] = []
        /// For a relationship given as a scalar value: the destination attribute holding that value.
        package var relatedBy: [String: String] = [:]
        /// Binary attributes (by model key path, possibly through to-one relationships: `picture.data`) whose
        /// JSON value names a file in this folder; the file's bytes are the value.
        package var files: [String: URL] = [:]
        package init() {}
    }

    /// Mappings by entity name (sub-entities inherit their parent's).
    package var entities: [String: EntityMapping]

    package init(entities: [String: EntityMapping] = [:]) {
        self.entities = entities
    }

    /// Whether anything is mapped at all.
    package var isEmpty: Bool { entities.values.allSatisfy { $0 == EntityMapping() } }

    /// The mapping the model's user info describes.
    package static func fromModel(_ model: ManagedObjectModel) -> JSONMapping {
        var entities: [String: EntityMapping] = [:]
        for entity in model.entities {
            var mapping = EntityMapping()
            for attribute in entity.attributes {
                if let path = attribute.userInfo["JSONKeyPath"] ?? attribute.userInfo["mappedKeyName"] {
                    mapping.keyPaths[attribute.name] = path.split(separator: ".").map(String.init)
                }
            }
            for relationship in entity.relationships {
                if let path = relationship.userInfo["JSONKeyPath"] ?? relationship.userInfo["mappedKeyName"] {
                    mapping.keyPaths[relationship.name] = path.split(separator: ".").map(String.init)
                }
                if let attribute = relationship.userInfo["relatedByAttribute"] {
                    mapping.relatedBy[relationship.name] = attribute
                }
            }
            let identity = entity.userInfo["identityAttributes"] ?? entity.userInfo["identityAttribute"]
                ?? entity.userInfo["relatedByAttribute"]
            if let identity {
                mapping.identity = identity.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            if mapping != EntityMapping() { entities[entity.name] = mapping }
        }
        return JSONMapping(entities: entities)
    }

    /// Reads a `--map` file (format above), checking every name against the model.
    ///
    /// A model-side name in `"keys"` may be a key path through to-one relationships (`"picture.data": "photo"`
    /// creates the related object and sets its `data`), and `"files": {"picture.data": "images"}` says that the
    /// JSON value of that Binary attribute names a file in the folder `images`, relative to `baseDirectory` (the
    /// input file's folder).
    package static func fromFile(_ data: Data, model: ManagedObjectModel,
                                baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws -> JSONMapping {
        let root: [(String, JSONValue)]
        do {
            guard case .object(let members) = try JSONReader.parse(String(decoding: data, as: UTF8.self)) else {
                throw StoreError(.invalidInput, "the mapping file is not a JSON object of entity names")
            }
            root = members
        } catch let error as JSONSyntaxError {
            throw StoreError(.invalidInput, "the mapping file is not valid JSON: \(error.description)")
        }
        var entities: [String: EntityMapping] = [:]
        for (entityName, value) in root {
            guard let entity = model.entity(named: entityName) else {
                throw StoreError(.unknownName, "mapping file: no entity '\(entityName)'"
                                 + Suggestion.didYouMean(entityName, among: model.entities.map(\.name)))
            }
            guard case .object(let object) = value else {
                throw StoreError(.invalidInput, "mapping file: the value of '\(entityName)' must be an object", entity: entityName)
            }
            let properties = model.attributes(of: entity).map(\.name) + model.relationships(of: entity).map(\.name)
            var mapping = EntityMapping()
            for (key, item) in object {
                switch key {
                case "identity":
                    switch item {
                    case .string(let name): mapping.identity = [name]
                    case .array(let names): mapping.identity = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
                    default: mapping.identity = []
                    }
                case "keys":
                    for (property, path) in Self.strings(item) {
                        _ = try Self.resolve(property, from: entity, in: model)
                        mapping.keyPaths[property] = path.split(separator: ".").map(String.init)
                    }
                case "files":
                    for (property, folder) in Self.strings(item) {
                        let target = try Self.resolve(property, from: entity, in: model)
                        guard case .attribute(let attribute) = target, attribute.type == .binary else {
                            throw StoreError(.invalidInput, "mapping file: \"files\" names '\(property)', which is not a "
                                             + "Binary attribute", entity: entityName)
                        }
                        mapping.files[property] = URL(fileURLWithPath: folder, relativeTo: baseDirectory).standardizedFileURL
                    }
                case "relatedBy":
                    mapping.relatedBy = Dictionary(Self.strings(item), uniquingKeysWith: { _, last in last })
                default:
                    throw StoreError(.invalidInput, "mapping file: unknown key '\(key)' (expected identity, keys, relatedBy, files)",
                                     entity: entityName)
                }
            }
            for name in mapping.identity where !properties.contains(name) {
                throw StoreError(.unknownName, "mapping file: identity names no property '\(name)'", entity: entityName)
            }
            entities[entityName] = mapping
        }
        return JSONMapping(entities: entities)
    }

    enum Target {
        case attribute(Attribute)
        case relationship(Relationship)
    }

    /// The property a model-side key path names from `entity`: every component but the last a to-one
    /// relationship, or a composite attribute and then its elements (`home.city`).
    static func resolve(_ keyPath: String, from entity: Entity, in model: ManagedObjectModel) throws -> Target {
        var current = entity
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (index, name) in components.enumerated() {
            let attributes = model.attributes(of: current), relationships = model.relationships(of: current)
            let isLast = index == components.count - 1
            if isLast, let attribute = attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
            if let composite = attributes.first(where: { $0.name == name && $0.type == .composite }) {
                return .attribute(try element(Array(components[(index + 1)...]), of: composite, keyPath: keyPath,
                                              entity: current))
            }
            guard let relationship = relationships.first(where: { $0.name == name }) else {
                throw StoreError(.unknownName, "mapping file: no property '\(name)'" + (index > 0 ? " in '\(keyPath)'" : "")
                                 + Suggestion.didYouMean(name, among: attributes.map(\.name) + relationships.map(\.name)),
                                 entity: current.name)
            }
            if isLast { return .relationship(relationship) }
            guard !relationship.isToMany, let destination = model.entity(named: relationship.destination) else {
                throw StoreError(.invalidInput, "mapping file: '\(keyPath)' goes through '\(name)', which is not a to-one "
                                 + "relationship", entity: current.name)
            }
            current = destination
        }
        throw StoreError(.invalidInput, "mapping file: an empty key path", entity: entity.name)
    }

    /// The element of `composite` at `path` (nested composites give longer paths).
    private static func element(_ path: [String], of composite: Attribute, keyPath: String,
                                entity: Entity) throws -> Attribute {
        var current = composite
        for name in path {
            guard current.type == .composite else {
                throw StoreError(.invalidInput, "mapping file: '\(keyPath)' goes through '\(current.name)', which is "
                                 + "not a composite attribute", entity: entity.name)
            }
            guard let element = current.compositeElements.first(where: { $0.name == name }) else {
                throw StoreError(.unknownName, "mapping file: composite attribute '\(current.name)' has no element "
                                 + "'\(name)' in '\(keyPath)'"
                                 + Suggestion.didYouMean(name, among: current.compositeElements.map(\.name)),
                                 entity: entity.name)
            }
            current = element
        }
        return current
    }

    /// The string members of a JSON object (others are left out, as a mapping names key paths with strings).
    private static func strings(_ value: JSONValue) -> [(String, String)] {
        guard case .object(let members) = value else { return [] }
        return members.compactMap { key, item in if case .string(let text) = item { (key, text) } else { nil } }
    }

    /// This mapping with `other`'s entries taking precedence.
    package func overridden(by other: JSONMapping) -> JSONMapping {
        var merged = entities
        for (name, mapping) in other.entities { merged[name] = mapping }
        return JSONMapping(entities: merged)
    }

    /// The mapping that applies to `entity`: its own entries over those of its ancestors.
    package func mapping(for entity: Entity, in model: ManagedObjectModel) -> EntityMapping {
        var result = EntityMapping()
        for member in model.ancestors(of: entity).reversed() + [entity] {
            guard let own = entities[member.name] else { continue }
            result.keyPaths.merge(own.keyPaths) { $1 }
            result.relatedBy.merge(own.relatedBy) { $1 }
            result.files.merge(own.files) { $1 }
            if !own.identity.isEmpty { result.identity = own.identity }
        }
        return result
    }
}
