import Foundation

/// Model → JSON tree. Every key whose value is the default is left out (see `Schemas/README.md`), so a
/// written file holds only what differs from a fresh entity, attribute or relationship.
extension JSONModelCodec {
    static func tree(of model: ManagedObjectModel) -> JSONOutputValue {
        var top = Members()
        top["format"] = .string(formatName)
        top["formatVersion"] = .int(formatVersion)
        top.strings("versionIdentifiers", model.versionIdentifiers)
        top["entities"] = .array(model.entities.map(tree(of:)))
        top.array("fetchRequests", model.fetchRequests.map(tree(of:)))
        top.array("configurations", model.configurations.map { configuration in
            var members = Members()
            members["name"] = .string(configuration.name)
            members["entities"] = .array(configuration.entities.map(JSONOutputValue.string))
            members.flag("usedWithCloudKit", configuration.usedWithCloudKit)
            return members.value
        })
        top.map("fileSettings", model.fileSettings)
        return top.value
    }

    private static func tree(of entity: Entity) -> JSONOutputValue {
        var members = Members()
        members["name"] = .string(entity.name)
        members.text("parent", entity.parentName)
        members.flag("abstract", entity.isAbstract)
        members.text("className", entity.className)
        members.text("renamingIdentifier", entity.renamingIdentifier)
        members.text("versionHashModifier", entity.versionHashModifier)
        members.text("codeGenerationType", entity.codeGenerationType)
        members.text("spotlightDisplayNameExpression", entity.spotlightDisplayNameExpression)
        members.optionalFlag("syncable", entity.syncable)
        members.map("userInfo", entity.userInfo)
        members.array("attributes", entity.attributes.map(tree(of:)))
        members.array("relationships", entity.relationships.map(tree(of:)))
        members.array("fetchedProperties", entity.fetchedProperties.map { property in
            var fetched = Members()
            fetched["name"] = .string(property.name)
            fetched.flag("optional", property.isOptional)
            fetched["fetchRequest"] = tree(of: property.fetchRequest)
            fetched.map("userInfo", property.userInfo)
            return fetched.value
        })
        members.array("uniquenessConstraints", entity.uniquenessConstraints.map { .array($0.map(JSONOutputValue.string)) })
        members.array("fetchIndexes", entity.fetchIndexes.map(tree(of:)))
        members.array("compoundIndexes", entity.compoundIndexes.map { .array($0.map(JSONOutputValue.string)) })
        return members.value
    }

    private static func tree(of attribute: Attribute) -> JSONOutputValue {
        var members = Members()
        members["name"] = .string(attribute.name)
        members["type"] = .string(attribute.type.rawValue)
        members.flag("optional", attribute.isOptional)
        members.flag("transient", attribute.isTransient)
        members.text("derivationExpression", attribute.derivationExpression)
        // Read-only defaults to true for derived attributes (Core Data makes them read-only), false otherwise.
        if attribute.isReadOnly != attribute.isDerived { members["readOnly"] = .bool(attribute.isReadOnly) }
        members.text("default", attribute.defaultValue)
        members.number("defaultDate", attribute.defaultDateTimeInterval)
        members.text("minValue", attribute.minValue)
        members.text("maxValue", attribute.maxValue)
        members.number("minDate", attribute.minDateTimeInterval)
        members.number("maxDate", attribute.maxDateTimeInterval)
        members.text("regularExpression", attribute.regularExpression)
        members.optionalFlag("usesScalarValueType", attribute.usesScalarValueType)
        members.text("valueTransformerName", attribute.valueTransformerName)
        members.text("customClassName", attribute.customClassName)
        members.flag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        members.flag("preservesValueInHistoryOnDeletion", attribute.preservesValueInHistoryOnDeletion)
        members.flag("indexedBySpotlight", attribute.isIndexedBySpotlight)
        members.flag("storedInExternalRecord", attribute.isStoredInExternalRecord)
        members.flag("allowsCloudEncryption", attribute.allowsCloudEncryption)
        members.flag("indexed", attribute.isIndexed)
        members.text("composite", attribute.compositeName)
        members.array("elements", attribute.compositeElements.map(tree(of:)))
        members.text("swiftDataValue", attribute.swiftDataValue?.rawValue)
        members.text("renamingIdentifier", attribute.renamingIdentifier)
        members.text("versionHashModifier", attribute.versionHashModifier)
        members.optionalFlag("syncable", attribute.syncable)
        members.map("userInfo", attribute.userInfo)
        return members.value
    }

    private static func tree(of relationship: Relationship) -> JSONOutputValue {
        var members = Members()
        members["name"] = .string(relationship.name)
        members["destination"] = .string(relationship.destination)
        members.text("inverse", relationship.inverseName)
        // The inverse normally lives on the destination; only an unusual inverse entity is written, and
        // `null` says "none" where the default would be the destination.
        if relationship.inverseEntity != defaultInverseEntity(relationship.inverseName, relationship.destination) {
            members["inverseEntity"] = relationship.inverseEntity.map(JSONOutputValue.string) ?? .null
        }
        members.flag("toMany", relationship.isToMany)
        members.flag("ordered", relationship.isOrdered)
        members.flag("optional", relationship.isOptional)
        members.flag("transient", relationship.isTransient)
        if relationship.minCount != 0 { members["minCount"] = .int(relationship.minCount) }
        if relationship.maxCount != defaultMaxCount(toMany: relationship.isToMany) {
            members["maxCount"] = .int(relationship.maxCount)
        }
        if relationship.deleteRule != .nullify { members["deleteRule"] = .string(relationship.deleteRule.rawValue) }
        members.text("renamingIdentifier", relationship.renamingIdentifier)
        members.text("versionHashModifier", relationship.versionHashModifier)
        members.optionalFlag("syncable", relationship.syncable)
        members.map("userInfo", relationship.userInfo)
        return members.value
    }

    private static func tree(of request: FetchRequestTemplate) -> JSONOutputValue {
        var members = Members()
        members["name"] = .string(request.name)
        members["entity"] = .string(request.entity)
        members.text("predicate", request.predicate)
        members.map("options", request.options)
        return members.value
    }

    private static func tree(of index: FetchIndex) -> JSONOutputValue {
        var members = Members()
        members["name"] = .string(index.name)
        members["elements"] = .array(index.elements.map { element in
            var item = Members()
            item.text("property", element.property)
            item.text("expression", element.expression)
            item.text("expressionType", element.expressionType)
            if element.type != "Binary" { item["type"] = .string(element.type) }
            if !element.isAscending { item["ascending"] = .bool(false) }
            return item.value
        })
        members.text("partialIndexPredicate", index.partialIndexPredicate)
        return members.value
    }

    /// The inverse entity a relationship has when the file does not say: the destination if there is an inverse.
    static func defaultInverseEntity(_ inverseName: String?, _ destination: String) -> String? {
        inverseName == nil ? nil : destination
    }

    /// The maximum count a relationship has when the file does not say: 1 for a to-one, 0 (unbounded) for a to-many.
    static func defaultMaxCount(toMany: Bool) -> Int { toMany ? 0 : 1 }
}

/// The members of a JSON object being written, with helpers that leave out default values.
private struct Members {
    private var storage: [String: JSONOutputValue] = [:]

    var value: JSONOutputValue { .object(storage) }

    subscript(key: String) -> JSONOutputValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    mutating func text(_ key: String, _ value: String?) {
        if let value { storage[key] = .string(value) }
    }

    mutating func flag(_ key: String, _ value: Bool) {
        if value { storage[key] = .bool(true) }
    }

    mutating func optionalFlag(_ key: String, _ value: Bool?) {
        if let value { storage[key] = .bool(value) }
    }

    mutating func number(_ key: String, _ value: Double?) {
        if let value { storage[key] = .double(value) }
    }

    mutating func strings(_ key: String, _ values: [String]) {
        if !values.isEmpty { storage[key] = .array(values.map(JSONOutputValue.string)) }
    }

    mutating func array(_ key: String, _ values: [JSONOutputValue]) {
        if !values.isEmpty { storage[key] = .array(values) }
    }

    mutating func map(_ key: String, _ values: [String: String]) {
        if !values.isEmpty { storage[key] = .object(values.mapValues(JSONOutputValue.string)) }
    }
}

/// A JSON value to write; encoded with `JSONEncoder` so output formatting is Foundation's.
enum JSONOutputValue: Encodable, Equatable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONOutputValue])
    case object([String: JSONOutputValue])
    case null

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
