/// One SwiftData `@Model` class per entity, for a move from Core Data to SwiftData.
///
/// The output follows SwiftData's conventions: the class is named after the entity (SwiftData names entities
/// after classes, and the name is part of the version hash); attributes with their Swift types (Integer 64 as
/// `Int`), optional where the model says optional, the model's defaults as initial values;
/// `@Attribute(.unique)` for a one-property uniqueness constraint and `#Unique<E>([\.a, \.b])` for the others;
/// `#Index<E>(…)` for fetch indexes; `.externalStorage`, `.preserveValueOnDeletion`, `.allowsCloudEncryption`,
/// `.spotlight`, `.transformable(by:)`, `originalName:` and `hashModifier:` as the model says;
/// `@Relationship(deleteRule:minimumModelCount:maximumModelCount:originalName:inverse:hashModifier:)` with
/// `inverse:` written on one side of each pair only (the to-many side, else the side whose entity and name sort
/// first), as SwiftData requires. A to-many is `[Dest]` (non-optional, `= []`) or `[Dest]?` (optional).
/// Sub-entities are subclasses (SwiftData 26); parents are not `final`. Every class gets an `init` taking its
/// stored properties.
///
/// What SwiftData cannot say is left out or approximated and listed in ``ModelCode/losses`` (see
/// ``SwiftDataLosses``).
struct SwiftDataWriter {
    let model: ManagedObjectModel
    let header: CodeHeader

    func code() -> ModelCode {
        let files = model.entities.map { entity in
            ModelCodeFile(name: "\(entity.name).swift", text: header.comment("\(entity.name).swift") + classText(entity))
        }
        return ModelCode(files: files, losses: SwiftDataLosses(model: model).all())
    }

    /// A stored property of the generated class and how the init takes it.
    struct Stored {
        let name: String
        let type: String
        let initial: String?
    }

    func classText(_ entity: Entity) -> String {
        let name = entity.name
        let parent = model.parent(of: entity)
        let inHierarchy = parent != nil || !model.subentities(of: entity).isEmpty
        let singleUnique = singleUniqueAttributes(entity)
        let multiUnique = entity.uniquenessConstraints.filter { !($0.count == 1 && singleUnique.contains($0[0])) && !$0.isEmpty }
        let indexes = indexElements(entity)
        var text = "import Foundation\nimport SwiftData\n\n"
        if inHierarchy {
            text += "@available(iOS 26, macOS 26, tvOS 26, watchOS 26, visionOS 26, *)\n"
        } else if !multiUnique.isEmpty || !indexes.isEmpty {
            text += "@available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)\n"
        }
        let isFinal = model.subentities(of: entity).isEmpty
        text += "@Model\n\(isFinal ? "final " : "")class \(name)\(parent.map { ": \($0.name)" } ?? "") {\n"
        if !multiUnique.isEmpty {
            text += "    #Unique<\(name)>(\(multiUnique.map(keyPathList).joined(separator: ", ")))\n"
        }
        if !indexes.isEmpty {
            text += "    #Index<\(name)>(\(indexes.map(keyPathList).joined(separator: ", ")))\n"
        }
        if !multiUnique.isEmpty || !indexes.isEmpty { text += "\n" }
        var own: [Stored] = []
        for attribute in entity.attributes {
            guard let (declaration, stored) = attributeDeclaration(attribute, unique: singleUnique.contains(attribute.name)) else {
                text += "    // \(attribute.name): \(attribute.type.rawValue) has no SwiftData type (see the losses)\n"
                continue
            }
            text += declaration
            if let stored { own.append(stored) }
        }
        for relationship in entity.relationships {
            let (declaration, stored) = relationshipDeclaration(relationship, of: entity)
            text += declaration
            if let stored { own.append(stored) }
        }
        text += "\n" + initializer(entity, own: own) + "}\n"
        return text
    }

    /// The attributes with a one-property uniqueness constraint of their own.
    private func singleUniqueAttributes(_ entity: Entity) -> Set<String> {
        Set(entity.uniquenessConstraints.filter { $0.count == 1 && entity.attribute(named: $0[0]) != nil }.map { $0[0] })
    }

    /// The properties of each fetch index (ascending property elements only) and legacy compound index; indexed
    /// attributes alone.
    private func indexElements(_ entity: Entity) -> [[String]] {
        var result = entity.fetchIndexes.map { $0.elements.compactMap(\.property) }.filter { !$0.isEmpty }
        result += entity.compoundIndexes.filter { !$0.isEmpty }
        for attribute in entity.attributes where attribute.isIndexed && !result.contains([attribute.name]) {
            result.append([attribute.name])
        }
        return result
    }

    private func keyPathList(_ names: [String]) -> String {
        "[" + names.map { "\\.\(CodeNames.swiftIdentifier($0))" }.joined(separator: ", ") + "]"
    }

    private func attributeDeclaration(_ attribute: Attribute, unique: Bool) -> (String, Stored?)? {
        guard let base = SwiftValues.type(attribute, plainInt: true) else { return nil }
        let name = CodeNames.swiftIdentifier(attribute.name)
        let type = base + (attribute.isOptional ? "?" : "")
        let literal = SwiftValues.defaultLiteral(attribute)
        if attribute.isTransient {
            let initial = literal ?? (attribute.isOptional ? "nil" : nil)
            guard let initial else {
                return ("    @Transient var \(name): \(base)? = nil\n", nil)
            }
            return ("    @Transient var \(name): \(type) = \(initial)\n", nil)
        }
        var options: [String] = []
        if unique { options.append(".unique") }
        if attribute.allowsExternalBinaryDataStorage { options.append(".externalStorage") }
        if attribute.preservesValueInHistoryOnDeletion { options.append(".preserveValueOnDeletion") }
        if attribute.allowsCloudEncryption { options.append(".allowsCloudEncryption") }
        if attribute.isIndexedBySpotlight { options.append(".spotlight") }
        if attribute.type == .transformable {
            let transformer = attribute.valueTransformerName.flatMap { $0.isEmpty ? nil : $0 } ?? "NSSecureUnarchiveFromData"
            options.append(".transformable(by: \(CodeNames.swiftString(transformer)))")
        }
        if let original = attribute.renamingIdentifier, !original.isEmpty, original != attribute.name {
            options.append("originalName: \(CodeNames.swiftString(original))")
        }
        if let modifier = attribute.versionHashModifier, !modifier.isEmpty {
            options.append("hashModifier: \(CodeNames.swiftString(modifier))")
        }
        var text = options.isEmpty ? "" : "    @Attribute(\(options.joined(separator: ", ")))\n"
        text += "    var \(name): \(type)\(literal.map { " = \($0)" } ?? "")\n"
        let initial = literal ?? (attribute.isOptional ? "nil" : nil)
        return (text, Stored(name: attribute.name, type: type, initial: initial))
    }

    private func relationshipDeclaration(_ relationship: Relationship, of entity: Entity) -> (String, Stored?) {
        let name = CodeNames.swiftIdentifier(relationship.name)
        let destination = relationship.destination
        if relationship.isTransient {
            return ("    // \(relationship.name): a transient relationship has no SwiftData form (see the losses)\n", nil)
        }
        let type: String
        let initial: String?
        if relationship.isToMany {
            type = relationship.isOptional ? "[\(destination)]?" : "[\(destination)]"
            initial = relationship.isOptional ? "nil" : "[]"
        } else {
            type = relationship.isOptional ? "\(destination)?" : destination
            initial = relationship.isOptional ? "nil" : nil
        }
        var arguments: [String] = []
        if relationship.deleteRule != .nullify { arguments.append("deleteRule: \(deleteRule(relationship.deleteRule))") }
        if relationship.isToMany {
            if relationship.minCount != 0 { arguments.append("minimumModelCount: \(relationship.minCount)") }
            if relationship.maxCount != 0 { arguments.append("maximumModelCount: \(relationship.maxCount)") }
        }
        if let original = relationship.renamingIdentifier, !original.isEmpty, original != relationship.name {
            arguments.append("originalName: \(CodeNames.swiftString(original))")
        }
        if let inverse = model.inverse(of: relationship), Self.declaresInverse(relationship, of: entity, inverse: inverse) {
            arguments.append("inverse: \\\(relationship.inverseEntity ?? destination).\(CodeNames.swiftIdentifier(inverse.name))")
        }
        if let modifier = relationship.versionHashModifier, !modifier.isEmpty {
            arguments.append("hashModifier: \(CodeNames.swiftString(modifier))")
        }
        var text = arguments.isEmpty ? "" : "    @Relationship(\(arguments.joined(separator: ", ")))\n"
        let initialText = relationship.isToMany && !relationship.isOptional ? " = []" : ""
        text += "    var \(name): \(type)\(initialText)\n"
        return (text, Stored(name: relationship.name, type: type, initial: initial))
    }

    private func deleteRule(_ rule: DeleteRule) -> String {
        switch rule {
        case .noAction: ".noAction"
        case .nullify: ".nullify"
        case .cascade: ".cascade"
        case .deny: ".deny"
        }
    }

    /// Whether `relationship` (declared by `entity`) carries `inverse:`: SwiftData wants it on one side only.
    static func declaresInverse(_ relationship: Relationship, of entity: Entity, inverse: Relationship) -> Bool {
        if inverse.name == relationship.name && (relationship.inverseEntity ?? relationship.destination) == entity.name {
            return false  // its own inverse (a reflexive many-to-many): nothing to name
        }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        let mine = (entity.name, relationship.name)
        let theirs = (relationship.inverseEntity ?? relationship.destination, inverse.name)
        return mine < theirs
    }

    /// `init` taking every stored property (inherited ones first, passed to `super.init`).
    private func initializer(_ entity: Entity, own: [Stored]) -> String {
        let inherited = model.ancestors(of: entity).reversed().flatMap { ancestor in storedProperties(ancestor) }
        let all = inherited + own
        let parameters = all.map { "\(CodeNames.swiftIdentifier($0.name)): \($0.type)\($0.initial.map { " = \($0)" } ?? "")" }
        var text = CodeNames.signature("init", parameters, indent: "    ")
        for property in own {
            let name = CodeNames.swiftIdentifier(property.name)
            text += "        self.\(name) = \(name)\n"
        }
        if !inherited.isEmpty {
            let arguments = inherited.map { "\(CodeNames.swiftIdentifier($0.name)): \(CodeNames.swiftIdentifier($0.name))" }
            text += "        super.init(\(arguments.joined(separator: ", ")))\n"
        }
        return text + "    }\n"
    }

    /// The stored properties the class of `entity` itself declares.
    private func storedProperties(_ entity: Entity) -> [Stored] {
        let unique = singleUniqueAttributes(entity)
        return entity.attributes.compactMap { attributeDeclaration($0, unique: unique.contains($0.name))?.1 }
            + entity.relationships.compactMap { relationshipDeclaration($0, of: entity).1 }
    }
}
