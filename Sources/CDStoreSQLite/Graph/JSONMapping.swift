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
public struct JSONMapping: Sendable, Equatable {
    /// The mapping of one entity.
    public struct EntityMapping: Sendable, Equatable {
        /// Input key path of a property, split at dots (`"user.name"` → `["user", "name"]`).
        public var keyPaths: [String: [String]] = [:]
        /// Attributes whose values identify an object (for merging and for scalar references).
        public var identity: [String] = []
        /// For a relationship given as a scalar value: the destination attribute holding that value.
        public var relatedBy: [String: String] = [:]
        public init() {}
    }

    /// Mappings by entity name (sub-entities inherit their parent's).
    public var entities: [String: EntityMapping]

    public init(entities: [String: EntityMapping] = [:]) {
        self.entities = entities
    }

    /// Whether anything is mapped at all.
    public var isEmpty: Bool { entities.values.allSatisfy { $0 == EntityMapping() } }

    /// The mapping the model's user info describes.
    public static func fromModel(_ model: ManagedObjectModel) -> JSONMapping {
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
    public static func fromFile(_ data: Data, model: ManagedObjectModel) throws -> JSONMapping {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw StoreError(.invalidInput, "the mapping file is not a JSON object of entity names")
        }
        var entities: [String: EntityMapping] = [:]
        for (entityName, value) in root {
            guard let entity = model.entity(named: entityName) else {
                throw StoreError(.unknownName, "mapping file: no entity '\(entityName)'"
                                 + Suggestion.didYouMean(entityName, among: model.entities.map(\.name)))
            }
            guard let object = value as? [String: Any] else {
                throw StoreError(.invalidInput, "mapping file: the value of '\(entityName)' must be an object", entity: entityName)
            }
            let properties = model.attributes(of: entity).map(\.name) + model.relationships(of: entity).map(\.name)
            var mapping = EntityMapping()
            for (key, item) in object {
                switch key {
                case "identity":
                    mapping.identity = (item as? [String]) ?? (item as? String).map { [$0] } ?? []
                case "keys":
                    for (property, path) in item as? [String: String] ?? [:] {
                        guard properties.contains(property) else {
                            throw StoreError(.unknownName, "mapping file: no property '\(property)'"
                                             + Suggestion.didYouMean(property, among: properties), entity: entityName)
                        }
                        mapping.keyPaths[property] = path.split(separator: ".").map(String.init)
                    }
                case "relatedBy":
                    mapping.relatedBy = item as? [String: String] ?? [:]
                default:
                    throw StoreError(.invalidInput, "mapping file: unknown key '\(key)' (expected identity, keys, relatedBy)",
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

    /// This mapping with `other`'s entries taking precedence.
    public func overridden(by other: JSONMapping) -> JSONMapping {
        var merged = entities
        for (name, mapping) in other.entities { merged[name] = mapping }
        return JSONMapping(entities: merged)
    }

    /// The mapping that applies to `entity`: its own entries over those of its ancestors.
    public func mapping(for entity: Entity, in model: ManagedObjectModel) -> EntityMapping {
        var result = EntityMapping()
        for member in model.ancestors(of: entity).reversed() + [entity] {
            guard let own = entities[member.name] else { continue }
            result.keyPaths.merge(own.keyPaths) { $1 }
            result.relatedBy.merge(own.relatedBy) { $1 }
            if !own.identity.isEmpty { result.identity = own.identity }
        }
        return result
    }
}
