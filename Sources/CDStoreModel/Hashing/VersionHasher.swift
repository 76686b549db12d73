import CDStorePredicate
import Foundation

/// Computes Core Data's version hashes for a model: the per-entity hashes a store records in its metadata
/// (`NSStoreModelVersionHashes`), the model checksum and the hashes digest.
///
/// Two models with equal entity hashes are "the same version" for Core Data: a store written with one opens
/// with the other without migration. Everything here follows Core Data byte for byte, so a store cdstore
/// writes opens in an app, and a store an app wrote is recognised by cdstore.
///
/// ```swift
/// let hashes = VersionHasher.entityHashes(of: model)      // ["Person": 32 bytes, …]
/// let checksum = VersionHasher.versionChecksum(of: model) // base64, as in NSStoreModelVersionChecksumKey
/// ```
///
/// Derived attributes: Core Data hashes the derivation expression as Foundation prints it
/// (`NSExpression.predicateFormat`, e.g. `count:(pages)`), not as the model file writes it
/// (`pages.@count`): the text is parsed with `PredicateParser.parseExpression` and printed with
/// `PredicateFormatter.format` (text that does not parse is hashed as written). ``canonicalDerivation(_:)`` then
/// rewrites collection operators as momc does (`path.@count` → `count:(path)`, `@sum`/`@avg`/`@min`/`@max`
/// likewise), the form Core Data hashes.
/// Compiled models and model caches already give the expression in Foundation's form.
///
/// Core Data equivalent: `NSManagedObjectModel.entityVersionHashesByName`, `versionChecksum`.
///
/// ## Topics
/// - ``entityHashes(of:)``, ``entityHash(_:in:)``
/// - ``versionHash(of:)``, ``versionChecksum(of:)``, ``hashesDigest(of:)``
/// - ``attributeHash(_:)``, ``relationshipHash(_:declaredBy:in:)``
package enum VersionHasher {
    /// The version hash of every entity of `model`, keyed by entity name (32 bytes each).
    ///
    /// Core Data equivalent: `NSManagedObjectModel.entityVersionHashesByName`.
    package static func entityHashes(of model: ManagedObjectModel) -> [String: [UInt8]] {
        var memo: [String: [UInt8]] = [:]
        var result: [String: [UInt8]] = [:]
        for entity in model.entities {
            result[entity.name] = entityHash(entity, in: model, memo: &memo, visiting: [])
        }
        return result
    }

    /// The version hash of one entity of `model`.
    ///
    /// Core Data equivalent: `NSEntityDescription.versionHash`.
    package static func entityHash(_ entity: Entity, in model: ManagedObjectModel) -> [UInt8] {
        var memo: [String: [UInt8]] = [:]
        return entityHash(entity, in: model, memo: &memo, visiting: [])
    }

    /// The model's version hash: SHA-256 over the entity hashes in entity-name order.
    ///
    /// Core Data equivalent: `NSManagedObjectModel.versionHash`.
    package static func versionHash(of model: ManagedObjectModel) -> [UInt8] {
        let hashes = entityHashes(of: model)
        var sha = SHA256()
        for name in hashes.keys.sorted(by: utf16Order) { sha.update(data: hashes[name]!) }
        return sha.finalize()
    }

    /// The model's version checksum: ``versionHash(of:)`` in base64.
    ///
    /// Core Data equivalent: `NSManagedObjectModel.versionChecksum`; stores keep it as
    /// `NSStoreModelVersionChecksumKey`, compiled models in `NSManagedObjectModel_VersionChecksums`.
    package static func versionChecksum(of model: ManagedObjectModel) -> String {
        Data(versionHash(of: model)).base64EncodedString()
    }

    /// The store metadata value `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over every entity,
    /// in name order, as its UTF-8 name followed by its 32-byte hash.
    package static func hashesDigest(of model: ManagedObjectModel) -> String {
        hashesDigest(of: entityHashes(of: model))
    }

    /// `NSStoreModelVersionHashesDigest` of a set of entity hashes (for example read from a store).
    package static func hashesDigest(of hashes: [String: [UInt8]]) -> String {
        var sha = SHA512()
        for name in hashes.keys.sorted(by: utf16Order) {
            sha.update(data: Array(name.utf8))
            sha.update(data: hashes[name]!)
        }
        return Data(sha.finalize()).base64EncodedString()
    }

    // MARK: - Properties

    /// The hash of an attribute.
    ///
    /// Not hashed: default value, validation, value transformer, class names, indexing, userInfo and the
    /// renaming identifier; changing those needs no migration. A Composite attribute is the SHA-256 of its
    /// elements' hashes in name order (``Attribute/compositeElements``), nothing of its own.
    package static func attributeHash(_ attribute: Attribute) -> [UInt8] {
        if attribute.type == .composite {
            // Checked on real SwiftData stores: a composite is hashed from its elements' own attribute hashes in
            // name order and nothing of its own (not its name, flags, type or default).
            var sha = SHA256()
            for element in attribute.compositeElements.sorted(by: { utf16Order($0.name, $1.name) }) {
                sha.update(data: attributeHash(element))
            }
            return sha.finalize()
        }
        if let expression = attribute.derivationExpression {
            // Core Data computes the base hash of a derived attribute but does not feed it in: only the
            // expression counts (see the type's note on expression text).
            return SHA256.hash(data: Array(canonicalDerivation(expression).utf8))
        }
        var sha = SHA256()
        sha.update(data: propertyBaseHash(name: attribute.name, isOptional: attribute.isOptional,
                                          isTransient: attribute.isTransient, isReadOnly: attribute.isReadOnly,
                                          versionHashModifier: attribute.versionHashModifier))
        sha.update(data: littleEndian(attribute.type.code))
        if attribute.allowsExternalBinaryDataStorage { sha.update(data: [1]) }
        if attribute.preservesValueInHistoryOnDeletion { sha.update(data: [1]) }
        return sha.finalize()
    }

    /// The hash of a relationship declared by the entity named `declaringEntity`.
    ///
    /// The delete rule is not hashed. The inverse's name is hashed unless the relationship is its own
    /// inverse (a reflexive many-to-many).
    package static func relationshipHash(_ relationship: Relationship, declaredBy declaringEntity: String,
                                        in model: ManagedObjectModel) -> [UInt8] {
        var sha = SHA256()
        sha.update(data: propertyBaseHash(name: relationship.name, isOptional: relationship.isOptional,
                                          isTransient: relationship.isTransient, isReadOnly: false,
                                          versionHashModifier: relationship.versionHashModifier))
        if !relationship.destination.isEmpty { sha.update(data: Array(relationship.destination.utf8)) }
        if let inverse = relationship.inverseName, !inverse.isEmpty,
           !isOwnInverse(relationship, declaredBy: declaringEntity, in: model) {
            sha.update(data: Array(inverse.utf8))
        }
        sha.update(data: littleEndian(Int32(truncatingIfNeeded: relationship.maxCount)))
        sha.update(data: littleEndian(Int32(truncatingIfNeeded: relationship.minCount)))
        if relationship.isOrdered { sha.update(data: littleEndian(UInt16(1))) }
        return sha.finalize()
    }

    /// The derivation expression text that is hashed: Foundation's `predicateFormat` of it (or the text as
    /// written, when it does not parse), with collection operators rewritten as momc does (``rewritingCollectionOperators(_:)``).
    package static func canonicalDerivation(_ expression: String) -> String {
        var text = expression.trimmingCharacters(in: .whitespaces)
        if let parsed = try? PredicateParser.parseExpression(text) { text = PredicateFormatter.format(parsed) }
        return rewritingCollectionOperators(text)
    }

    /// momc stores a derivation `a.b.@count` as the function expression `count:(a.b)` (seen in SwiftGen's
    /// compiled model), so that is the form Core Data hashes; likewise `@sum` → `sum:`, `@avg` → `average:`,
    /// `@min` → `min:`, `@max` → `max:`. Other text is returned unchanged.
    package static func rewritingCollectionOperators(_ expression: String) -> String {
        let text = expression
        let functions = ["@count": "count:", "@sum": "sum:", "@avg": "average:", "@min": "min:", "@max": "max:"]
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let index = parts.firstIndex(where: { functions[$0] != nil }), index > 0,
           parts.allSatisfy({ !$0.isEmpty && !$0.contains("(") && !$0.contains(" ") }) {
            let function = functions[parts[index]]!
            parts.remove(at: index)
            return function + "(" + parts.joined(separator: ".") + ")"
        }
        return text
    }

    /// SHA-256 of name, flags (optional 1, transient 2, read-only 4; 2 bytes) and the version hash modifier.
    static func propertyBaseHash(name: String, isOptional: Bool, isTransient: Bool, isReadOnly: Bool,
                                 versionHashModifier: String?) -> [UInt8] {
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
        var sha = SHA256()
        sha.update(data: Array(name.utf8))
        sha.update(data: littleEndian(flags))
        if let modifier = versionHashModifier { sha.update(data: Array(modifier.utf8)) }
        return sha.finalize()
    }

    /// Whether the inverse of `relationship` resolves to that same declaration.
    static func isOwnInverse(_ relationship: Relationship, declaredBy declaringEntity: String,
                             in model: ManagedObjectModel) -> Bool {
        guard relationship.inverseName == relationship.name,
              let destination = model.entity(named: relationship.inverseEntity ?? relationship.destination)
        else { return false }
        // The nearest entity, from the destination upwards, that declares a relationship with the inverse name.
        for candidate in [destination] + model.ancestors(of: destination)
        where candidate.relationship(named: relationship.name) != nil {
            return candidate.name == declaringEntity
        }
        return false
    }

    // MARK: - Entities

    private static func entityHash(_ entity: Entity, in model: ManagedObjectModel, memo: inout [String: [UInt8]],
                                   visiting: Set<String>) -> [UInt8] {
        if let known = memo[entity.name] { return known }
        var sha = SHA256()
        sha.update(data: Array(entity.name.utf8))
        sha.update(data: [entity.isAbstract ? 1 : 0])
        // A cycle in the inheritance tree is a broken model (the validator reports it); stop instead of looping.
        if let parent = model.parent(of: entity), !visiting.contains(parent.name) {
            sha.update(data: entityHash(parent, in: model, memo: &memo, visiting: visiting.union([entity.name])))
        }
        for property in hashedProperties(of: entity, in: model) {
            sha.update(data: property)
        }
        if let modifier = entity.versionHashModifier { sha.update(data: Array(modifier.utf8)) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }.sorted(by: utf16Order)
        for constraint in constraints where !constraint.isEmpty { sha.update(data: Array(constraint.utf8)) }
        let digest = sha.finalize()
        memo[entity.name] = digest
        return digest
    }

    /// The hashes of the stored attributes and relationships of `entity`, inherited ones included, in the
    /// UTF-16 order of their names (`NSString compare:`). A sub-entity's own declaration replaces an
    /// inherited one of the same name.
    private static func hashedProperties(of entity: Entity, in model: ManagedObjectModel) -> [[UInt8]] {
        var byName: [String: [UInt8]] = [:]
        var transient: Set<String> = []
        for owner in model.ancestors(of: entity).reversed() + [entity] {
            for attribute in owner.attributes {
                byName[attribute.name] = attributeHash(attribute)
                if attribute.isTransient { transient.insert(attribute.name) } else { transient.remove(attribute.name) }
            }
            for relationship in owner.relationships {
                byName[relationship.name] = relationshipHash(relationship, declaredBy: owner.name, in: model)
                if relationship.isTransient { transient.insert(relationship.name) } else {
                    transient.remove(relationship.name)
                }
            }
        }
        return byName.keys.filter { !transient.contains($0) }.sorted(by: utf16Order).map { byName[$0]! }
    }
}

/// `NSString compare:` without options: UTF-16 code-unit order ("Z" before "a").
func utf16Order(_ a: String, _ b: String) -> Bool {
    a.utf16.lexicographicallyPrecedes(b.utf16)
}

private func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}
