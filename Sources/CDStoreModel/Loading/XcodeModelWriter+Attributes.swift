/// The property elements of an entity: `<attribute>`, `<relationship>` and `<fetchedProperty>`, with their XML
/// attributes in the order Xcode writes them (taken from the corpus's `contents` files; where two settings
/// never appear together there, the order is Xcode's editor order and does not matter to any reader).
extension XcodeModelWriter {
    static func attributeElement(_ attribute: Attribute) -> ModelXMLElement {
        var element = ModelXMLElement("attribute")
        element.set("name", attribute.name)
        element.flag("optional", attribute.isOptional)
        element.flag("transient", attribute.isTransient)
        element.set("attributeType", attribute.type.rawValue)
        element.set("minValueString", attribute.minValue)
        element.set("maxValueString", attribute.maxValue)
        element.set("minDateTimeInterval", attribute.minDateTimeInterval.map(timeInterval))
        element.set("maxDateTimeInterval", attribute.maxDateTimeInterval.map(timeInterval))
        element.set("regularExpressionString", attribute.regularExpression)
        element.set("defaultValueString", attribute.defaultValue)
        element.set("defaultDateTimeInterval", attribute.defaultDateTimeInterval.map(timeInterval))
        element.flag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        element.set("valueTransformerName", attribute.valueTransformerName)
        if let expression = attribute.derivationExpression {
            element.flag("derived", true)
            element.set("derivationExpression", expression)
        }
        element.set("customClassName", attribute.customClassName)
        element.set("composite", attribute.compositeName)
        element.yesNo("usesScalarValueType", attribute.usesScalarValueType)
        element.flag("spotlightIndexingEnabled", attribute.isIndexedBySpotlight)
        element.flag("storedInTruthFile", attribute.isStoredInExternalRecord)
        element.flag("preserveAfterDeletion", attribute.preservesValueInHistoryOnDeletion)
        element.flag("allowsCloudEncryption", attribute.allowsCloudEncryption)
        element.set("elementID", attribute.renamingIdentifier)
        element.set("versionHashModifier", attribute.versionHashModifier)
        element.flag("indexed", attribute.isIndexed)
        element.yesNo("syncable", attribute.syncable)
        element.addUserInfo(userInfo(attribute.userInfo, syncable: attribute.syncable))
        return element
    }

    static func relationshipElement(_ relationship: Relationship) -> ModelXMLElement {
        var element = ModelXMLElement("relationship")
        element.set("name", relationship.name)
        element.flag("optional", relationship.isOptional)
        element.flag("transient", relationship.isTransient)
        element.flag("toMany", relationship.isToMany)
        // Both counts enter the version hash as written (a to-one is written with maxCount 1); 0 is the default.
        element.set("minCount", relationship.minCount == 0 ? nil : String(relationship.minCount))
        element.set("maxCount", relationship.maxCount == 0 ? nil : String(relationship.maxCount))
        element.set("deletionRule", relationship.deleteRule.rawValue)
        element.flag("ordered", relationship.isOrdered)
        element.set("destinationEntity", relationship.destination.isEmpty ? nil : relationship.destination)
        element.set("inverseName", relationship.inverseName)
        element.set("inverseEntity", relationship.inverseEntity)
        element.set("elementID", relationship.renamingIdentifier)
        element.set("versionHashModifier", relationship.versionHashModifier)
        element.yesNo("syncable", relationship.syncable)
        element.addUserInfo(userInfo(relationship.userInfo, syncable: relationship.syncable))
        return element
    }

    static func fetchedPropertyElement(_ property: FetchedProperty) -> ModelXMLElement {
        var element = ModelXMLElement("fetchedProperty")
        element.set("name", property.name)
        element.flag("optional", property.isOptional)
        // Xcode names every fetched property's request so; a compiled model keeps no name.
        let name = property.fetchRequest.name.isEmpty ? "fetchedPropertyFetchRequest" : property.fetchRequest.name
        element.children.append(fetchRequestElement(property.fetchRequest, name: name))
        element.addUserInfo(userInfo(property.userInfo, syncable: nil))
        return element
    }

    /// Seconds since 2001-01-01 as Xcode writes them: whole numbers without a fraction ("-978307200").
    static func timeInterval(_ seconds: Double) -> String { formatNumber(seconds) }
}
