import CDStoreJSON
import Foundation

/// One difference between two model versions, matched as Core Data's inferred mapping matches them (renaming
/// identifiers and version hashes), as `cdstore model diff` prints it.
public struct ModelChange: Sendable, Equatable, CustomStringConvertible {
    /// What changed; the raw value is the words `description` starts with.
    public enum Kind: String, Sendable {
        case entityAdded = "entity added"
        case entityRemoved = "entity removed"
        case entityRenamed = "entity renamed"
        case entityParentChanged = "entity moved"
        case entityAbstractChanged = "entity abstract changed"
        case entityHashModifierChanged = "entity version hash modifier changed"
        case attributeAdded = "attribute added"
        case attributeRemoved = "attribute removed"
        case attributeRenamed = "attribute renamed"
        case attributeTypeChanged = "attribute type changed"
        case attributeMadeRequired = "attribute made non-optional"
        case attributeMadeOptional = "attribute made optional"
        case attributeStorageChanged = "attribute storage changed"
        case relationshipAdded = "relationship added"
        case relationshipRemoved = "relationship removed"
        case relationshipRenamed = "relationship renamed"
        case relationshipCardinalityChanged = "relationship cardinality changed"
        case relationshipOrderingChanged = "relationship ordering changed"
        case relationshipInverseChanged = "relationship inverse changed"
        case relationshipDestinationChanged = "relationship destination changed"
        case relationshipOptionalityChanged = "relationship optionality changed"
        case uniquenessConstraintAdded = "uniqueness constraint added"
        case uniquenessConstraintRemoved = "uniqueness constraint removed"
        case fetchIndexAdded = "fetch index added"
        case fetchIndexRemoved = "fetch index removed"
        case fetchIndexChanged = "fetch index changed"
    }

    /// What changed.
    public var kind: Kind
    /// The entity concerned (its destination-model name, or source-model name for removals).
    public var entity: String
    /// The property, constraint or index concerned.
    public var subject: String?
    /// Details: the old name, old → new type, …
    public var detail: String?

    package init(_ kind: Kind, entity: String, subject: String? = nil, detail: String? = nil) {
        self.kind = kind
        self.entity = entity
        self.subject = subject
        self.detail = detail
    }

    /// `entity.subject`, or `entity`.
    package var target: String { subject.map { "\(entity).\($0)" } ?? entity }

    /// One line, e.g. `attribute renamed: Staff.fullName (was name)`.
    public var description: String {
        "\(kind.rawValue): \(target)" + (detail.map { " (\($0))" } ?? "")
    }
}

/// How source and destination model elements correspond, by Core Data's rule: an element of the destination
/// model matches the source element named by its renaming identifier (`elementID`), or, without one, the
/// source element of the same name; a source element whose own renaming identifier equals that key also
/// matches (chains v1 → v2 → v3 keep working).
package struct ModelMatcher {
    package let source: ManagedObjectModel
    package let destination: ManagedObjectModel

    package init(source: ManagedObjectModel, destination: ManagedObjectModel) {
        self.source = source
        self.destination = destination
    }

    package static func key(_ name: String, _ renaming: String?) -> String {
        if let renaming, !renaming.isEmpty { return renaming }
        return name
    }

    /// The source entity a destination entity comes from.
    package func sourceEntity(for entity: Entity) -> Entity? {
        let key = Self.key(entity.name, entity.renamingIdentifier)
        if let byName = source.entity(named: key) { return byName }
        return source.entities.first { Self.key($0.name, $0.renamingIdentifier) == key }
    }

    /// The destination entity a source entity goes to.
    package func destinationEntity(for entity: Entity) -> Entity? {
        destination.entities.first { sourceEntity(for: $0)?.name == entity.name }
    }

    /// The source attribute (declared or inherited by `sourceEntity`) that `attribute` comes from.
    package func sourceAttribute(for attribute: Attribute, in sourceEntity: Entity) -> Attribute? {
        let candidates = source.attributes(of: sourceEntity).filter { !$0.isTransient }
        let key = Self.key(attribute.name, attribute.renamingIdentifier)
        return candidates.last { $0.name == key } ?? candidates.last { Self.key($0.name, $0.renamingIdentifier) == key }
    }

    /// The source relationship (declared or inherited by `sourceEntity`) that `relationship` comes from.
    package func sourceRelationship(for relationship: Relationship, in sourceEntity: Entity) -> Relationship? {
        let candidates = source.relationships(of: sourceEntity).filter { !$0.isTransient }
        let key = Self.key(relationship.name, relationship.renamingIdentifier)
        return candidates.last { $0.name == key }
            ?? candidates.last { Self.key($0.name, $0.renamingIdentifier) == key }
    }
}

/// Compares two models the way Core Data's inferred mapping sees them.
///
/// Core Data equivalent: the differences behind `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`.
package enum ModelDiff {
    /// The changes from `source` to `destination`, entities in destination-model order, removals last.
    /// Properties are compared per entity over the properties it declares; a property moved to a parent entity
    /// shows as removed from the child and added to the parent (rows keep their values: the mapping matches
    /// inherited properties).
    package static func changes(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> [ModelChange] {
        let matcher = ModelMatcher(source: source, destination: destination)
        var changes: [ModelChange] = []
        var matchedSources: Set<String> = []
        for entity in destination.entities {
            guard let old = matcher.sourceEntity(for: entity) else {
                changes.append(ModelChange(.entityAdded, entity: entity.name))
                continue
            }
            matchedSources.insert(old.name)
            if old.name != entity.name {
                changes.append(ModelChange(.entityRenamed, entity: entity.name, detail: "was \(old.name)"))
            }
            let oldParent = old.parentName.flatMap { source.entity(named: $0) }.flatMap { matcher.destinationEntity(for: $0)?.name }
                ?? old.parentName
            if oldParent != entity.parentName {
                changes.append(ModelChange(.entityParentChanged, entity: entity.name,
                                           detail: "parent \(old.parentName ?? "none") → \(entity.parentName ?? "none")"))
            }
            if old.isAbstract != entity.isAbstract {
                changes.append(ModelChange(.entityAbstractChanged, entity: entity.name,
                                           detail: entity.isAbstract ? "now abstract" : "no longer abstract"))
            }
            if (old.versionHashModifier ?? "") != (entity.versionHashModifier ?? "") {
                changes.append(ModelChange(.entityHashModifierChanged, entity: entity.name))
            }
            changes += attributeChanges(old, entity, matcher)
            changes += relationshipChanges(old, entity, matcher)
            changes += indexChanges(old, entity)
        }
        for entity in source.entities where !matchedSources.contains(entity.name) {
            changes.append(ModelChange(.entityRemoved, entity: entity.name))
        }
        return changes
    }

    private static func attributeChanges(_ old: Entity, _ new: Entity, _ matcher: ModelMatcher) -> [ModelChange] {
        var changes: [ModelChange] = []
        var matched: Set<String> = []
        for attribute in new.attributes where !attribute.isTransient {
            guard let previous = matcher.sourceAttribute(for: attribute, in: old) else {
                let detail = attribute.type.rawValue + (attribute.isOptional ? ", optional" : "")
                    + (attribute.defaultValue.map { ", default \($0)" } ?? "")
                changes.append(ModelChange(.attributeAdded, entity: new.name, subject: attribute.name, detail: detail))
                continue
            }
            matched.insert(previous.name)
            if previous.name != attribute.name {
                changes.append(ModelChange(.attributeRenamed, entity: new.name, subject: attribute.name, detail: "was \(previous.name)"))
            }
            if previous.type != attribute.type {
                changes.append(ModelChange(.attributeTypeChanged, entity: new.name, subject: attribute.name,
                                           detail: "\(previous.type.rawValue) → \(attribute.type.rawValue)"))
            }
            if previous.isOptional && !attribute.isOptional {
                changes.append(ModelChange(.attributeMadeRequired, entity: new.name, subject: attribute.name,
                                           detail: attribute.defaultValue.map { "default \($0)" } ?? "no default"))
            } else if !previous.isOptional && attribute.isOptional {
                changes.append(ModelChange(.attributeMadeOptional, entity: new.name, subject: attribute.name))
            }
            if previous.allowsExternalBinaryDataStorage != attribute.allowsExternalBinaryDataStorage
                || (previous.versionHashModifier ?? "") != (attribute.versionHashModifier ?? "")
                || previous.isDerived != attribute.isDerived {
                changes.append(ModelChange(.attributeStorageChanged, entity: new.name, subject: attribute.name))
            }
        }
        for attribute in old.attributes where !attribute.isTransient && !matched.contains(attribute.name) {
            // Still there when the destination entity inherits it (moved up to a parent).
            changes.append(ModelChange(.attributeRemoved, entity: new.name, subject: attribute.name))
        }
        return changes
    }

    private static func relationshipChanges(_ old: Entity, _ new: Entity, _ matcher: ModelMatcher) -> [ModelChange] {
        var changes: [ModelChange] = []
        var matched: Set<String> = []
        let source = matcher.source
        for relationship in new.relationships where !relationship.isTransient {
            guard let previous = matcher.sourceRelationship(for: relationship, in: old) else {
                changes.append(ModelChange(.relationshipAdded, entity: new.name, subject: relationship.name,
                                           detail: "\(relationship.isToMany ? "to-many" : "to-one") \(relationship.destination)"))
                continue
            }
            matched.insert(previous.name)
            if previous.name != relationship.name {
                changes.append(ModelChange(.relationshipRenamed, entity: new.name, subject: relationship.name,
                                           detail: "was \(previous.name)"))
            }
            if previous.isToMany != relationship.isToMany {
                changes.append(ModelChange(.relationshipCardinalityChanged, entity: new.name, subject: relationship.name,
                                           detail: previous.isToMany ? "to-many → to-one" : "to-one → to-many"))
            } else if previous.isOrdered != relationship.isOrdered, relationship.isToMany {
                changes.append(ModelChange(.relationshipOrderingChanged, entity: new.name, subject: relationship.name,
                                           detail: relationship.isOrdered ? "now ordered" : "no longer ordered"))
            }
            let oldDestination = source.entity(named: previous.destination).flatMap { matcher.destinationEntity(for: $0)?.name }
            if oldDestination != relationship.destination {
                changes.append(ModelChange(.relationshipDestinationChanged, entity: new.name, subject: relationship.name,
                                           detail: "\(previous.destination) → \(relationship.destination)"))
            }
            let oldInverse = source.inverse(of: previous)?.name
            let newInverse: String? = matcher.destination.inverse(of: relationship).map { inverse in
                matcher.destination.entity(named: relationship.destination).flatMap { matcher.sourceEntity(for: $0) }
                    .flatMap { matcher.sourceRelationship(for: inverse, in: $0)?.name } ?? "+" + inverse.name
            }
            if oldInverse != newInverse {
                changes.append(ModelChange(.relationshipInverseChanged, entity: new.name, subject: relationship.name,
                                           detail: "\(previous.inverseName ?? "none") → \(relationship.inverseName ?? "none")"))
            }
            if previous.isOptional != relationship.isOptional || previous.minCount != relationship.minCount
                || (previous.isToMany && relationship.isToMany && previous.maxCount != relationship.maxCount) {
                changes.append(ModelChange(.relationshipOptionalityChanged, entity: new.name, subject: relationship.name))
            }
        }
        for relationship in old.relationships where !relationship.isTransient && !matched.contains(relationship.name) {
            changes.append(ModelChange(.relationshipRemoved, entity: new.name, subject: relationship.name))
        }
        return changes
    }

    private static func indexChanges(_ old: Entity, _ new: Entity) -> [ModelChange] {
        var changes: [ModelChange] = []
        let oldConstraints = Set(old.uniquenessConstraints.map { $0.sorted() })
        let newConstraints = Set(new.uniquenessConstraints.map { $0.sorted() })
        for constraint in new.uniquenessConstraints where !oldConstraints.contains(constraint.sorted()) {
            changes.append(ModelChange(.uniquenessConstraintAdded, entity: new.name, subject: constraint.joined(separator: ",")))
        }
        for constraint in old.uniquenessConstraints where !newConstraints.contains(constraint.sorted()) {
            changes.append(ModelChange(.uniquenessConstraintRemoved, entity: new.name, subject: constraint.joined(separator: ",")))
        }
        for index in new.fetchIndexes where !old.fetchIndexes.contains(index) {
            let changed = old.fetchIndexes.contains { $0.name == index.name }
            changes.append(ModelChange(changed ? .fetchIndexChanged : .fetchIndexAdded, entity: new.name, subject: index.name))
        }
        for index in old.fetchIndexes where !new.fetchIndexes.contains(index) && !new.fetchIndexes.contains(where: { $0.name == index.name }) {
            changes.append(ModelChange(.fetchIndexRemoved, entity: new.name, subject: index.name))
        }
        return changes
    }
}
