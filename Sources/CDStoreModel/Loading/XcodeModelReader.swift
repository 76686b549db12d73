import Foundation

/// Reads the `contents` XML of an Xcode model version (`X.xcdatamodel/contents`).
///
/// Every element and attribute Xcode writes is read. Elements cdstore does not know are skipped with a
/// warning naming the file and line; the diagram layout (`<elements>`) is skipped silently, as it does not
/// belong to the model.
///
/// The XML goes through cdstore's own `XMLReader` (not Foundation's `XMLParser`, which crashed the process on
/// some inputs; see docs/decisions/0012-xml-reader.md). Positions in errors, warnings and the source map are those
/// `XMLParser` gave: the line and column of the `>` (or `/>`) that ends an element's start tag.
package enum XcodeModelReader {
    /// Parses `data`, the contents of `file`.
    package static func read(_ data: Data, file: URL) throws -> LoadedModel {
        var builder = Builder(file: file.path)
        do {
            var reader = try XMLReader([UInt8](data))
            while let event = try reader.next() {
                switch event {
                case .start(let tag):
                    let end = reader.position(at: tag.endOffset)
                    try builder.start(tag, at: ModelSourceMap.Location(line: end.line, column: end.column))
                case .end(let name, _):
                    builder.end(name)
                case .text:
                    break
                }
            }
        } catch let error as XMLError {
            throw ModelError(.malformedXML, "not well-formed XML (\(error.message))", file: file.path,
                             line: error.position.line, column: error.position.column)
        }
        guard builder.sawModel else {
            throw ModelError(.malformedXML, "no <model> element: not an Xcode Core Data model", file: file.path)
        }
        let model = ManagedObjectModel(entities: builder.entities, versionIdentifiers: builder.versionIdentifiers,
                                       fetchRequests: builder.fetchRequests, configurations: builder.configurations,
                                       fileSettings: builder.fileSettings)
        return LoadedModel(model: model, file: file, format: .xcode, warnings: builder.warnings,
                           sourceMap: builder.sourceMap)
    }

    /// The model built from the elements as they are read.
    private struct Builder {
        let file: String
        var warnings: [String] = []
        var sawModel = false
        var entities: [Entity] = []
        var versionIdentifiers: [String] = []
        var fetchRequests: [FetchRequestTemplate] = []
        var configurations: [Configuration] = []
        var fileSettings: [String: String] = [:]
        var sourceMap = ModelSourceMap()

        /// Element names from the root down to the current element.
        var path: [String] = []
        /// Depth below an element being skipped (unknown or layout), 0 when not skipping.
        var skipDepth = 0
        var fetchedProperty: FetchedProperty?
        var fetchIndex: FetchIndex?
        var constraint: [String]?
        var compoundIndex: [String]?
        /// Where the element being read is, for errors.
        var here = ModelSourceMap.Location(line: 0, column: 0)

        init(file: String) { self.file = file }

        func fail(_ code: ModelError.Code, _ message: String, entity: String? = nil, property: String? = nil) -> ModelError {
            ModelError(code, message, file: file, line: here.line, column: here.column, entity: entity, property: property)
        }

        mutating func start(_ tag: XMLStartTag, at location: ModelSourceMap.Location) throws {
            let name = tag.name
            defer { path.append(name) }
            if skipDepth > 0 { skipDepth += 1; return }
            let parent = path.last
            here = location
            var a: [String: String] = [:]
            for attribute in tag.attributes { a[attribute.name] = attribute.value }
            switch (parent, name) {
            case (nil, "model"):
                sawModel = true
                if let identifier = a["userDefinedModelVersionIdentifier"] { versionIdentifiers = [identifier] }
                for (key, value) in a where key != "userDefinedModelVersionIdentifier" { fileSettings[key] = value }
            case ("model", "entity"):
                guard let entityName = a["name"], !entityName.isEmpty else {
                    throw fail(.malformedXML, "<entity> without a name")
                }
                var entity = Entity(name: entityName, parentName: a["parentEntity"], isAbstract: yes(a["isAbstract"]))
                entity.className = a["representedClassName"]
                entity.renamingIdentifier = a["elementID"]
                entity.versionHashModifier = a["versionHashModifier"]
                entity.codeGenerationType = a["codeGenerationType"]
                entity.syncable = a["syncable"].map(yes)
                entity.spotlightDisplayNameExpression = a["coreSpotlightDisplayNameExpression"]
                entities.append(entity)
                sourceMap.entities[entityName] = here
            case ("entity", "attribute"):
                try readAttribute(a)
            case ("entity", "relationship"):
                try readRelationship(a)
            case ("entity", "fetchedProperty"):
                guard let propertyName = a["name"] else { throw fail(.malformedXML, "<fetchedProperty> without a name") }
                var property = FetchedProperty(name: propertyName, fetchRequest: FetchRequestTemplate(name: "", entity: ""))
                property.isOptional = yes(a["optional"])
                fetchedProperty = property
                sourceMap.properties["\(entities[entities.count - 1].name).\(propertyName)"] = here
            case ("fetchedProperty", "fetchRequest"):
                let request = fetchRequest(a)
                fetchedProperty?.fetchRequest = request
            case ("model", "fetchRequest"):
                fetchRequests.append(fetchRequest(a))
            case ("entity", "fetchIndex"):
                fetchIndex = FetchIndex(name: a["name"] ?? "", elements: [])
                fetchIndex?.partialIndexPredicate = a["partialIndexExpression"] ?? a["partialIndexPredicate"]
            case ("fetchIndex", "fetchIndexElement"):
                fetchIndex?.elements.append(FetchIndex.Element(
                    property: a["property"], expression: a["expression"], expressionType: a["expressionType"],
                    type: a["type"] ?? "Binary", isAscending: (a["order"] ?? "ascending") != "descending"))
            case ("entity", "uniquenessConstraints"), ("entity", "compoundIndexes"):
                break
            case ("uniquenessConstraints", "uniquenessConstraint"):
                constraint = []
            case ("uniquenessConstraint", "constraint"):
                constraint?.append(a["value"] ?? "")
            case ("compoundIndexes", "compoundIndex"):
                compoundIndex = []
            case ("compoundIndex", "index"):
                compoundIndex?.append(a["value"] ?? "")
            case (_, "userInfo"):
                break
            case ("userInfo", "entry"):
                addUserInfo(key: a["key"] ?? "", value: a["value"] ?? "")
            case ("model", "configuration"):
                var configuration = Configuration(name: a["name"] ?? "", entities: [])
                configuration.usedWithCloudKit = yes(a["usedWithCloudKit"])
                configurations.append(configuration)
            case ("configuration", "memberEntity"):
                if let member = a["name"], !configurations.isEmpty {
                    configurations[configurations.count - 1].entities.append(member)
                }
            case ("model", "elements"):
                skipDepth = 1
            default:
                warnings.append("\(file):\(here.line): skipped unknown element <\(name)>"
                                + (parent.map { " inside <\($0)>" } ?? ""))
                skipDepth = 1
            }
        }

        /// `name` ends (the reader has checked it closes the open element).
        mutating func end(_ name: String) {
            path.removeLast()
            if skipDepth > 0 { skipDepth -= 1; return }
            guard !entities.isEmpty else { return }
            let last = entities.count - 1
            switch name {
            case "fetchedProperty":
                if let property = fetchedProperty { entities[last].fetchedProperties.append(property) }
                fetchedProperty = nil
            case "fetchIndex":
                if let index = fetchIndex { entities[last].fetchIndexes.append(index) }
                fetchIndex = nil
            case "uniquenessConstraint":
                if let values = constraint { entities[last].uniquenessConstraints.append(values) }
                constraint = nil
            case "compoundIndex":
                if let values = compoundIndex { entities[last].compoundIndexes.append(values) }
                compoundIndex = nil
            default:
                break
            }
        }

        mutating func readAttribute(_ a: [String: String]) throws {
            let entityName = entities[entities.count - 1].name
            guard let name = a["name"], !name.isEmpty else {
                throw fail(.malformedXML, "<attribute> without a name", entity: entityName)
            }
            let typeName = a["attributeType"] ?? "Undefined"
            guard let type = AttributeType(rawValue: typeName) else {
                throw fail(.invalidValue, "unknown attribute type '\(typeName)'", entity: entityName, property: name)
            }
            var attribute = Attribute(name: name, type: type, isOptional: yes(a["optional"]))
            attribute.isTransient = yes(a["transient"])
            if yes(a["derived"]) {
                attribute.derivationExpression = a["derivationExpression"] ?? ""
                attribute.isReadOnly = true
            }
            attribute.defaultValue = a["defaultValueString"]
            attribute.defaultDateTimeInterval = a["defaultDateTimeInterval"].flatMap(Double.init)
            attribute.minValue = a["minValueString"]
            attribute.maxValue = a["maxValueString"]
            attribute.minDateTimeInterval = a["minDateTimeInterval"].flatMap(Double.init)
            attribute.maxDateTimeInterval = a["maxDateTimeInterval"].flatMap(Double.init)
            attribute.regularExpression = a["regularExpressionString"]
            attribute.usesScalarValueType = a["usesScalarValueType"].map(yes)
            attribute.valueTransformerName = a["valueTransformerName"]
            attribute.customClassName = a["customClassName"]
            attribute.allowsExternalBinaryDataStorage = yes(a["allowsExternalBinaryDataStorage"])
            attribute.preservesValueInHistoryOnDeletion = yes(a["preserveAfterDeletion"])
            attribute.isIndexedBySpotlight = yes(a["spotlightIndexingEnabled"])
            attribute.isStoredInExternalRecord = yes(a["storedInTruthFile"])
            attribute.allowsCloudEncryption = yes(a["allowsCloudEncryption"])
            attribute.isIndexed = yes(a["indexed"])
            attribute.compositeName = a["composite"]
            attribute.renamingIdentifier = a["elementID"]
            attribute.versionHashModifier = a["versionHashModifier"]
            attribute.syncable = a["syncable"].map(yes)
            entities[entities.count - 1].attributes.append(attribute)
            sourceMap.properties["\(entityName).\(name)"] = here
        }

        mutating func readRelationship(_ a: [String: String]) throws {
            let entityName = entities[entities.count - 1].name
            guard let name = a["name"], !name.isEmpty else {
                throw fail(.malformedXML, "<relationship> without a name", entity: entityName)
            }
            var relationship = Relationship(name: name, destination: a["destinationEntity"] ?? "",
                                            inverseName: a["inverseName"], isToMany: yes(a["toMany"]))
            relationship.inverseEntity = a["inverseEntity"]
            relationship.isOrdered = yes(a["ordered"])
            relationship.isOptional = yes(a["optional"])
            relationship.isTransient = yes(a["transient"])
            relationship.minCount = a["minCount"].flatMap { Int($0) } ?? 0
            // Kept as written: the hash uses the written number, and Xcode writes 1 for every to-one.
            relationship.maxCount = a["maxCount"].flatMap { Int($0) } ?? 0
            let ruleName = a["deletionRule"] ?? "Nullify"
            guard let rule = DeleteRule(rawValue: ruleName) else {
                throw fail(.invalidValue, "unknown deletion rule '\(ruleName)'", entity: entityName, property: name)
            }
            relationship.deleteRule = rule
            relationship.renamingIdentifier = a["elementID"]
            relationship.versionHashModifier = a["versionHashModifier"]
            relationship.syncable = a["syncable"].map(yes)
            entities[entities.count - 1].relationships.append(relationship)
            sourceMap.properties["\(entityName).\(name)"] = here
        }

        func fetchRequest(_ a: [String: String]) -> FetchRequestTemplate {
            var request = FetchRequestTemplate(name: a["name"] ?? "", entity: a["entity"] ?? "",
                                               predicate: a["predicateString"])
            for (key, value) in a where !["name", "entity", "predicateString"].contains(key) {
                request.options[key] = value
            }
            return request
        }

        /// Adds a userInfo entry to the element that encloses the `<userInfo>` being read.
        mutating func addUserInfo(key: String, value: String) {
            guard path.count >= 2 else { return }
            let owner = path[path.count - 2]
            let last = entities.count - 1
            switch owner {
            case "entity" where last >= 0:
                entities[last].userInfo[key] = value
            case "attribute" where last >= 0 && !entities[last].attributes.isEmpty:
                entities[last].attributes[entities[last].attributes.count - 1].userInfo[key] = value
            case "relationship" where last >= 0 && !entities[last].relationships.isEmpty:
                entities[last].relationships[entities[last].relationships.count - 1].userInfo[key] = value
            case "fetchedProperty":
                fetchedProperty?.userInfo[key] = value
            default:
                warnings.append("\(file): skipped userInfo entry '\(key)' of <\(owner)>")
            }
        }
    }
}

/// Xcode writes booleans as "YES"/"NO"; anything else is false.
private func yes(_ value: String?) -> Bool { value == "YES" }
