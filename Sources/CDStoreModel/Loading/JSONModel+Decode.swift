import CDStoreJSON
import Foundation

/// JSON tree → model. Each object is read through an ``ObjectReader`` that knows its allowed keys, so a
/// misspelt key fails loudly instead of being ignored.
extension JSONModelCodec {
    static func model(from root: JSONNode, reader: Reader) throws -> (ManagedObjectModel, ModelSourceMap) {
        let top = try reader.object(root, path: "", keys: [
            "format", "formatVersion", "versionIdentifiers", "entities", "fetchRequests", "configurations",
            "fileSettings",
        ])
        let format = try top.requiredString("format")
        guard format == formatName else {
            throw top.error("'format' is '\(format)', expected '\(formatName)'", at: top.node("format"))
        }
        let version = try top.requiredInt("formatVersion")
        guard version == formatVersion else {
            throw top.error("unsupported formatVersion \(version) (this cdstore reads version \(formatVersion))",
                            at: top.node("formatVersion"))
        }
        var sourceMap = ModelSourceMap()
        var entities: [Entity] = []
        for (index, node) in try top.requiredArray("entities").enumerated() {
            let entity = try self.entity(from: node, path: "entities[\(index)]", reader: reader, sourceMap: &sourceMap)
            entities.append(entity)
        }
        var model = ManagedObjectModel(entities: entities)
        model.versionIdentifiers = try top.strings("versionIdentifiers")
        model.fetchRequests = try top.array("fetchRequests").enumerated().map { index, node in
            try fetchRequest(from: node, path: "fetchRequests[\(index)]", reader: reader, context: .none)
        }
        model.configurations = try top.array("configurations").enumerated().map { index, node in
            let object = try reader.object(node, path: "configurations[\(index)]",
                                           keys: ["name", "entities", "usedWithCloudKit"])
            var configuration = Configuration(name: try object.requiredString("name"),
                                              entities: try object.strings("entities"))
            configuration.usedWithCloudKit = try object.bool("usedWithCloudKit")
            return configuration
        }
        model.fileSettings = try top.stringMap("fileSettings")
        return (model, sourceMap)
    }

    private static func entity(from node: JSONNode, path: String, reader: Reader,
                               sourceMap: inout ModelSourceMap) throws -> Entity {
        var object = try reader.object(node, path: path, keys: [
            "name", "parent", "abstract", "className", "renamingIdentifier", "versionHashModifier",
            "codeGenerationType", "spotlightDisplayNameExpression", "syncable", "userInfo", "attributes",
            "relationships", "fetchedProperties", "uniquenessConstraints", "fetchIndexes", "compoundIndexes",
        ], named: \.entity)
        let name = try object.requiredString("name")
        object.context = .init(entity: name)
        sourceMap.entities[name] = .init(line: node.line, column: node.column)
        var entity = Entity(name: name, parentName: try object.string("parent"), isAbstract: try object.bool("abstract"))
        entity.className = try object.string("className")
        entity.renamingIdentifier = try object.string("renamingIdentifier")
        entity.versionHashModifier = try object.string("versionHashModifier")
        entity.codeGenerationType = try object.string("codeGenerationType")
        entity.spotlightDisplayNameExpression = try object.string("spotlightDisplayNameExpression")
        entity.syncable = try object.optionalBool("syncable")
        entity.userInfo = try object.stringMap("userInfo")
        for (index, child) in try object.array("attributes").enumerated() {
            let attribute = try self.attribute(from: child, path: "\(path).attributes[\(index)]", entity: name,
                                               reader: reader)
            entity.attributes.append(attribute)
            sourceMap.properties["\(name).\(attribute.name)"] = .init(line: child.line, column: child.column)
        }
        for (index, child) in try object.array("relationships").enumerated() {
            let relationship = try self.relationship(from: child, path: "\(path).relationships[\(index)]",
                                                     entity: name, reader: reader)
            entity.relationships.append(relationship)
            sourceMap.properties["\(name).\(relationship.name)"] = .init(line: child.line, column: child.column)
        }
        for (index, child) in try object.array("fetchedProperties").enumerated() {
            let childPath = "\(path).fetchedProperties[\(index)]"
            var fetched = try reader.object(child, path: childPath, keys: ["name", "optional", "fetchRequest", "userInfo"],
                                            context: object.context, named: \.property)
            let propertyName = try fetched.requiredString("name")
            fetched.context.property = propertyName
            guard let requestNode = fetched.node("fetchRequest") else {
                throw fetched.error("missing required key 'fetchRequest'", at: child)
            }
            var property = FetchedProperty(name: propertyName, fetchRequest: try fetchRequest(
                from: requestNode, path: childPath + ".fetchRequest", reader: reader, context: fetched.context))
            property.isOptional = try fetched.bool("optional")
            property.userInfo = try fetched.stringMap("userInfo")
            entity.fetchedProperties.append(property)
            sourceMap.properties["\(name).\(propertyName)"] = .init(line: child.line, column: child.column)
        }
        entity.uniquenessConstraints = try object.stringLists("uniquenessConstraints")
        entity.compoundIndexes = try object.stringLists("compoundIndexes")
        entity.fetchIndexes = try object.array("fetchIndexes").enumerated().map { index, child in
            try fetchIndex(from: child, path: "\(path).fetchIndexes[\(index)]", reader: reader, context: object.context)
        }
        return entity
    }

    private static func attribute(from node: JSONNode, path: String, entity: String, reader: Reader) throws -> Attribute {
        var object = try reader.object(node, path: path, keys: [
            "name", "type", "optional", "transient", "readOnly", "derivationExpression", "default", "defaultDate",
            "minValue", "maxValue", "minDate", "maxDate", "regularExpression", "usesScalarValueType",
            "valueTransformerName", "customClassName", "allowsExternalBinaryDataStorage",
            "preservesValueInHistoryOnDeletion", "indexedBySpotlight", "storedInExternalRecord",
            "allowsCloudEncryption", "indexed", "composite", "elements", "swiftDataValue", "renamingIdentifier",
            "versionHashModifier", "syncable", "userInfo",
        ], context: .init(entity: entity), named: \.property)
        let name = try object.requiredString("name")
        object.context.property = name
        let typeName = try object.requiredString("type")
        guard let type = AttributeType(rawValue: typeName) else {
            let known = AttributeType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw object.error("unknown attribute type '\(typeName)' at \(path).type (expected one of \(known))",
                               at: object.node("type"), code: .invalidValue)
        }
        var attribute = Attribute(name: name, type: type, isOptional: try object.bool("optional"))
        attribute.isTransient = try object.bool("transient")
        attribute.derivationExpression = try object.string("derivationExpression")
        attribute.isReadOnly = try object.optionalBool("readOnly") ?? attribute.isDerived
        attribute.defaultValue = try object.string("default")
        attribute.defaultDateTimeInterval = try object.double("defaultDate")
        attribute.minValue = try object.string("minValue")
        attribute.maxValue = try object.string("maxValue")
        attribute.minDateTimeInterval = try object.double("minDate")
        attribute.maxDateTimeInterval = try object.double("maxDate")
        attribute.regularExpression = try object.string("regularExpression")
        attribute.usesScalarValueType = try object.optionalBool("usesScalarValueType")
        attribute.valueTransformerName = try object.string("valueTransformerName")
        attribute.customClassName = try object.string("customClassName")
        attribute.allowsExternalBinaryDataStorage = try object.bool("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = try object.bool("preservesValueInHistoryOnDeletion")
        attribute.isIndexedBySpotlight = try object.bool("indexedBySpotlight")
        attribute.isStoredInExternalRecord = try object.bool("storedInExternalRecord")
        attribute.allowsCloudEncryption = try object.bool("allowsCloudEncryption")
        attribute.isIndexed = try object.bool("indexed")
        attribute.compositeName = try object.string("composite")
        for (index, child) in try object.array("elements").enumerated() {
            attribute.compositeElements.append(try self.attribute(from: child, path: "\(path).elements[\(index)]",
                                                                  entity: entity, reader: reader))
        }
        if let form = try object.string("swiftDataValue") {
            guard let value = SwiftDataValue(rawValue: form) else {
                let known = SwiftDataValue.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw object.error("unknown SwiftData value form '\(form)' at \(path).swiftDataValue (expected one of "
                                   + "\(known))", at: object.node("swiftDataValue"), code: .invalidValue)
            }
            attribute.swiftDataValue = value
        }
        attribute.renamingIdentifier = try object.string("renamingIdentifier")
        attribute.versionHashModifier = try object.string("versionHashModifier")
        attribute.syncable = try object.optionalBool("syncable")
        attribute.userInfo = try object.stringMap("userInfo")
        return attribute
    }

    private static func relationship(from node: JSONNode, path: String, entity: String,
                                     reader: Reader) throws -> Relationship {
        var object = try reader.object(node, path: path, keys: [
            "name", "destination", "inverse", "inverseEntity", "toMany", "ordered", "optional", "transient",
            "minCount", "maxCount", "deleteRule", "renamingIdentifier", "versionHashModifier", "syncable", "userInfo",
        ], context: .init(entity: entity), named: \.property)
        let name = try object.requiredString("name")
        object.context.property = name
        let destination = try object.requiredString("destination")
        let toMany = try object.bool("toMany")
        var relationship = Relationship(name: name, destination: destination, inverseName: try object.string("inverse"),
                                        isToMany: toMany)
        if object.node("inverseEntity") != nil {
            relationship.inverseEntity = try object.string("inverseEntity", allowNull: true)
        } else {
            relationship.inverseEntity = defaultInverseEntity(relationship.inverseName, destination)
        }
        relationship.isOrdered = try object.bool("ordered")
        relationship.isOptional = try object.bool("optional")
        relationship.isTransient = try object.bool("transient")
        relationship.minCount = try object.int("minCount") ?? 0
        relationship.maxCount = try object.int("maxCount") ?? defaultMaxCount(toMany: toMany)
        if let ruleName = try object.string("deleteRule") {
            guard let rule = DeleteRule(rawValue: ruleName) else {
                let known = DeleteRule.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw object.error("unknown delete rule '\(ruleName)' at \(path).deleteRule (expected one of \(known))",
                                   at: object.node("deleteRule"), code: .invalidValue)
            }
            relationship.deleteRule = rule
        }
        relationship.renamingIdentifier = try object.string("renamingIdentifier")
        relationship.versionHashModifier = try object.string("versionHashModifier")
        relationship.syncable = try object.optionalBool("syncable")
        relationship.userInfo = try object.stringMap("userInfo")
        return relationship
    }

    private static func fetchRequest(from node: JSONNode, path: String, reader: Reader,
                                     context: ObjectReader.Context) throws -> FetchRequestTemplate {
        let object = try reader.object(node, path: path, keys: ["name", "entity", "predicate", "options"],
                                       context: context)
        var request = FetchRequestTemplate(name: try object.requiredString("name"),
                                           entity: try object.requiredString("entity"),
                                           predicate: try object.string("predicate"))
        request.options = try object.stringMap("options")
        return request
    }

    private static func fetchIndex(from node: JSONNode, path: String, reader: Reader,
                                   context: ObjectReader.Context) throws -> FetchIndex {
        let object = try reader.object(node, path: path, keys: ["name", "elements", "partialIndexPredicate"],
                                       context: context)
        let elements = try object.requiredArray("elements").enumerated().map { index, child in
            let item = try reader.object(child, path: "\(path).elements[\(index)]",
                                         keys: ["property", "expression", "expressionType", "type", "ascending"],
                                         context: context)
            return FetchIndex.Element(property: try item.string("property"), expression: try item.string("expression"),
                                      expressionType: try item.string("expressionType"),
                                      type: try item.string("type") ?? "Binary",
                                      isAscending: try item.optionalBool("ascending") ?? true)
        }
        var index = FetchIndex(name: try object.requiredString("name"), elements: elements)
        index.partialIndexPredicate = try object.string("partialIndexPredicate")
        return index
    }
}
