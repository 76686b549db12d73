import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the `contents` XML of an Xcode model version (`X.xcdatamodel/contents`).
///
/// Every element and attribute Xcode writes is read. Elements cdstore does not know are skipped with a
/// warning naming the file and line; the diagram layout (`<elements>`) is skipped silently, as it does not
/// belong to the model.
package enum XcodeModelReader {
    /// Parses `data`, the contents of `file`.
    package static func read(_ data: Data, file: URL) throws -> LoadedModel {
        if let bad = firstInvalidUTF8(data) {
            throw ModelError(.malformedXML, "not well-formed XML (bytes that are not UTF-8)", file: file.path,
                             line: bad.line, column: bad.column)
        }
        let delegate = Delegate(file: file.path)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok else {
            throw ModelError(.malformedXML, parser.parserError.map { "not well-formed XML (\($0.localizedDescription))" }
                             ?? "not well-formed XML", file: file.path, line: parser.lineNumber, column: parser.columnNumber)
        }
        if let open = delegate.path.last {
            throw ModelError(.malformedXML, "<\(open)> is never closed", file: file.path, line: parser.lineNumber)
        }
        guard delegate.sawModel else {
            throw ModelError(.malformedXML, "no <model> element: not an Xcode Core Data model", file: file.path)
        }
        let model = ManagedObjectModel(entities: delegate.entities, versionIdentifiers: delegate.versionIdentifiers,
                                       fetchRequests: delegate.fetchRequests, configurations: delegate.configurations,
                                       fileSettings: delegate.fileSettings)
        return LoadedModel(model: model, file: file, format: .xcode, warnings: delegate.warnings,
                           sourceMap: delegate.sourceMap)
    }

    /// Where the document first has bytes that are not UTF-8, or nil. Such a file is not well-formed XML, and it must
    /// be refused before `XMLParser` sees it: libxml2 passes an element or attribute name with such bytes to
    /// swift-corelibs-foundation's `XMLParser`, which traps on it (found by Fuzz/ fuzz-xml-model). Only UTF-16 (a byte
    /// order mark or NULs) and a declared ISO-8859-1, which libxml2 always converts, are exempt: an unknown declared
    /// encoding is read as UTF-8 and traps just the same.
    static func firstInvalidUTF8(_ data: Data) -> (line: Int, column: Int)? {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.prefix(2).contains(0) {
            return nil
        }
        if bytes.starts(with: Array("<?xml ".utf8)), let end = bytes.prefix(200).firstIndex(of: UInt8(ascii: ">")) {
            let declaration = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
            if let range = declaration.range(of: "encoding=") {
                let name = declaration[range.upperBound...].drop { $0 == "\"" || $0 == "'" }
                if ["iso-8859-1\"", "iso-8859-1'", "latin1\"", "latin1'"].contains(where: { name.hasPrefix($0) }) {
                    return nil
                }
            }
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1, column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                if scalar.count == 1 && scalar.first == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
            case .emptyInput: return nil
            case .error: return (line, column)
            }
        }
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let file: String
        var error: ModelError?
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

        init(file: String) { self.file = file }

        func fail(_ parser: XMLParser, _ code: ModelError.Code, _ message: String, entity: String? = nil,
                  property: String? = nil) {
            guard error == nil else { return }
            error = ModelError(code, message, file: file, line: parser.lineNumber, column: parser.columnNumber,
                               entity: entity, property: property)
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                    qualifiedName: String?, attributes a: [String: String] = [:]) {
            defer { path.append(name) }
            if skipDepth > 0 { skipDepth += 1; return }
            let parent = path.last
            let here = ModelSourceMap.Location(line: parser.lineNumber, column: parser.columnNumber)
            switch (parent, name) {
            case (nil, "model"):
                sawModel = true
                if let identifier = a["userDefinedModelVersionIdentifier"] { versionIdentifiers = [identifier] }
                for (key, value) in a where key != "userDefinedModelVersionIdentifier" { fileSettings[key] = value }
            case ("model", "entity"):
                guard let entityName = a["name"], !entityName.isEmpty else {
                    return fail(parser, .malformedXML, "<entity> without a name")
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
                readAttribute(a, parser: parser, at: here)
            case ("entity", "relationship"):
                readRelationship(a, parser: parser, at: here)
            case ("entity", "fetchedProperty"):
                guard let propertyName = a["name"] else { return fail(parser, .malformedXML, "<fetchedProperty> without a name") }
                var property = FetchedProperty(name: propertyName, fetchRequest: FetchRequestTemplate(name: "", entity: ""))
                property.isOptional = yes(a["optional"])
                fetchedProperty = property
                sourceMap.properties["\(entities[entities.count - 1].name).\(propertyName)"] = here
            case ("fetchedProperty", "fetchRequest"):
                fetchedProperty?.fetchRequest = fetchRequest(a)
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
                warnings.append("\(file):\(parser.lineNumber): skipped unknown element <\(name)>"
                                + (parent.map { " inside <\($0)>" } ?? ""))
                skipDepth = 1
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            // Foundation on Linux lets some mismatched end tags through; a model with one is not what Xcode wrote.
            guard path.last == name else {
                return fail(parser, .malformedXML, "</\(name)> does not close <\(path.last ?? "")>")
            }
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

        func readAttribute(_ a: [String: String], parser: XMLParser, at here: ModelSourceMap.Location) {
            let entityName = entities[entities.count - 1].name
            guard let name = a["name"], !name.isEmpty else {
                return fail(parser, .malformedXML, "<attribute> without a name", entity: entityName)
            }
            let typeName = a["attributeType"] ?? "Undefined"
            guard let type = AttributeType(rawValue: typeName) else {
                return fail(parser, .invalidValue, "unknown attribute type '\(typeName)'", entity: entityName, property: name)
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

        func readRelationship(_ a: [String: String], parser: XMLParser, at here: ModelSourceMap.Location) {
            let entityName = entities[entities.count - 1].name
            guard let name = a["name"], !name.isEmpty else {
                return fail(parser, .malformedXML, "<relationship> without a name", entity: entityName)
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
                return fail(parser, .invalidValue, "unknown deletion rule '\(ruleName)'", entity: entityName, property: name)
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
        func addUserInfo(key: String, value: String) {
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
