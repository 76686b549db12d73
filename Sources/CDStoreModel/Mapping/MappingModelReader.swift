import Foundation

/// Reads a mapping model in either form into a ``MappingModel``.
///
/// - `X.xcmappingmodel` (or its `xcmapping.xml`): Xcode's source, an XML store of `XDDEVMAPPINGMODEL`,
///   `XDDEVENTITYMAPPING`, `XDDEVATTRIBUTEMAPPING` and `XDDEVRELATIONSHIPMAPPING` objects read with cdstore's own
///   XML reader. Only the entity mappings the `XDDEVMAPPINGMODEL` lists count: Xcode leaves deleted mappings in
///   the file as detached objects (the corpus has them in five files). They run in `mappingnumber` order.
/// - `X.cdm`: the `NSMappingModel` keyed archive momc compiles, walked through ``KeyedArchive/Walk`` so that a
///   damaged file that nests objects in themselves is an error, not a stack overflow.
///
/// Defaults, as momc fills them in when compiling: an attribute mapping without an edited expression
/// (`valueexpressiondata`) gets `$source.<name>`; a relationship mapping gets
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", <key path>)`
/// with the key path `sourcekeypath` (else `$source.<name>`) and the mapping `sourcemappingname` (else the one
/// that maps the source relationship's destination entity: found by ``MappingModel/resolved(source:destination:)``
/// once the models are known). An "Undefined" mapping type compiles to Add (no source), Remove (no destination)
/// or Transform. Verified on the corpus' one `.cdm` against the `xcmapping.xml` it was compiled from.
///
/// Errors are ``ModelError``s naming the file and the object (`entity mapping 'BookToBook' (z104)`).
package enum MappingModelReader {
    /// Reads the mapping model at `path`: an `.xcmappingmodel` folder, its `xcmapping.xml`, or a `.cdm` file.
    package static func read(_ path: String) throws -> MappingModel {
        var url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(.fileNotFound, "no mapping model at this path", file: path)
        }
        if isDirectory.boolValue { url = url.appendingPathComponent("xcmapping.xml") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(.fileNotFound, "cannot read the mapping model: \(error.localizedDescription)", file: url.path)
        }
        return try read(data, file: isDirectory.boolValue ? path : url.path)
    }

    /// Reads a mapping model from its bytes: a binary property list is the compiled form, anything else XML.
    package static func read(_ data: Data, file: String) throws -> MappingModel {
        if data.starts(with: Array("bplist".utf8)) || data.starts(with: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist".utf8)) {
            return try readCompiled(data, file: file)
        }
        return try readXcode(Array(data), file: file)
    }
}

// MARK: - xcmapping.xml

extension MappingModelReader {
    /// An object of the XML store: its type, attributes and relationships (idrefs).
    struct StoreObject {
        var id: String
        var type: String
        var attributes: [String: String] = [:]
        var relationships: [String: [String]] = [:]
        var line: Int
    }

    package static func readXcode(_ bytes: [UInt8], file: String) throws -> MappingModel {
        let root: XMLTreeElement
        do {
            root = try XMLTreeElement.parse(bytes)
        } catch let error as XMLError {
            throw ModelError(.malformedXML, error.message, file: file, line: error.position.line, column: error.position.column)
        }
        guard root.name == "database" else {
            throw ModelError(.malformedXML, "not an Xcode mapping model: the root element is <\(root.name)>, not <database>", file: file)
        }
        var objects: [String: StoreObject] = [:]
        var modelIDs: [String] = []
        for element in root.children where element.name == "object" {
            guard let id = element["id"], let type = element["type"] else {
                throw ModelError(.malformedXML, "an <object> without id or type", file: file, line: element.position.line)
            }
            var object = StoreObject(id: id, type: type, line: element.position.line)
            for child in element.children {
                guard let name = child["name"] else { continue }
                switch child.name {
                case "attribute": object.attributes[name] = child.text
                case "relationship":
                    object.relationships[name] = (child["idrefs"] ?? "").split(separator: " ").map(String.init)
                default: continue
                }
            }
            if objects[id] != nil {
                throw ModelError(.malformedXML, "two objects with id \(id)", file: file, line: element.position.line)
            }
            objects[id] = object
            if type == "XDDEVMAPPINGMODEL" { modelIDs.append(id) }
        }
        guard modelIDs.count == 1, let model = objects[modelIDs[0]] else {
            throw ModelError(.malformedXML, "an Xcode mapping model holds one XDDEVMAPPINGMODEL object; this file has "
                             + "\(modelIDs.count)", file: file)
        }
        var mappings: [(number: Int, order: Int, mapping: MappingModel.EntityMapping)] = []
        var seen: Set<String> = []
        for (order, id) in (model.relationships["entitymappings"] ?? []).enumerated() {
            guard seen.insert(id).inserted else { continue }
            guard let object = objects[id], object.type == "XDDEVENTITYMAPPING" else {
                throw ModelError(.malformedXML, "the mapping model lists entity mapping \(id), which is not an "
                                 + "XDDEVENTITYMAPPING object of the file", file: file, line: model.line)
            }
            let number = Int(object.attributes["mappingnumber"] ?? "") ?? Int.max
            mappings.append((number, order, try entityMapping(object, objects: objects, file: file)))
        }
        mappings.sort { ($0.number, $0.order) < ($1.number, $1.order) }
        return MappingModel(file: file, format: .xcmapping, sourceModelPath: model.attributes["sourcemodelpath"],
                            destinationModelPath: model.attributes["destinationmodelpath"],
                            entityMappings: mappings.map(\.mapping))
    }

    static func entityMapping(_ object: StoreObject, objects: [String: StoreObject], file: String) throws -> MappingModel.EntityMapping {
        func nonEmpty(_ key: String) -> String? { object.attributes[key].flatMap { $0.isEmpty ? nil : $0 } }
        let source = nonEmpty("sourcename")
        let destination = nonEmpty("destinationname")
        let name = MappingModel.mappingName(source: source, destination: destination)
        let place = "entity mapping '\(name)' (\(object.id))"
        var type: MappingModel.MappingType
        let typeName = nonEmpty("mappingtypename") ?? "Undefined"
        guard let named = MappingModel.MappingType(name: typeName) else {
            throw ModelError(.malformedXML, "\(place): unknown mapping type '\(typeName)'", file: file, line: object.line)
        }
        type = named
        if type == .undefined { type = source == nil ? .add : destination == nil ? .remove : .transform }
        let filter = nonEmpty("sourcefilterpredicatestring").flatMap { $0 == "TRUEPREDICATE" ? nil : $0 }
        var mapping = MappingModel.EntityMapping(
            name: name, sourceEntityName: source, destinationEntityName: destination, type: type,
            policyClassName: nonEmpty("migrationpolicyclassname"), filterPredicate: filter)
        for (key, expected, isRelationship) in [("attributemappings", "XDDEVATTRIBUTEMAPPING", false),
                                                ("relationshipmappings", "XDDEVRELATIONSHIPMAPPING", true)] {
            for id in object.relationships[key] ?? [] {
                guard let property = objects[id], property.type == expected else {
                    throw ModelError(.malformedXML, "\(place) lists \(id), which is not an \(expected) object of the file",
                                     file: file, line: object.line)
                }
                let propertyName = property.attributes["name"] ?? ""
                let propertyPlace = "\(isRelationship ? "relationship" : "attribute") mapping '\(propertyName)' (\(id)) of \(place)"
                guard !propertyName.isEmpty else {
                    throw ModelError(.malformedXML, "\(propertyPlace): no destination property name", file: file, line: property.line)
                }
                var expression: String?
                var generated = false
                if let base64 = property.attributes["valueexpressiondata"], !base64.isEmpty {
                    expression = try archivedExpression(base64, place: propertyPlace, file: file, line: property.line)
                } else if !isRelationship {
                    expression = MappingModel.defaultAttributeExpression(propertyName)
                    generated = true
                } else {
                    let keyPath = property.attributes["sourcekeypath"].flatMap { $0.isEmpty ? nil : $0 } ?? "$source.\(propertyName)"
                    generated = true
                    if let target = property.attributes["sourcemappingname"], !target.isEmpty {
                        expression = MappingModel.defaultRelationshipExpression(mapping: target, sourceKeyPath: keyPath)
                    } else {
                        // Which mapping makes the destination objects depends on the source model; resolved later.
                        expression = MappingModel.defaultRelationshipExpression(mapping: MappingModel.unresolvedMapping,
                                                                                sourceKeyPath: keyPath)
                    }
                }
                let entry = MappingModel.PropertyMapping(name: propertyName, valueExpression: expression, isGenerated: generated)
                if isRelationship { mapping.relationshipMappings.append(entry) } else { mapping.attributeMappings.append(entry) }
            }
        }
        // momc writes property mappings sorted by name (the corpus' .cdm beside its xcmapping.xml).
        mapping.attributeMappings.sort { $0.name < $1.name }
        mapping.relationshipMappings.sort { $0.name < $1.name }
        return mapping
    }

    /// An edited value expression: a base64 keyed archive of an `NSExpression`, as format text.
    static func archivedExpression(_ base64: String, place: String, file: String, line: Int) throws -> String {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw ModelError(.malformedXML, "\(place): valueexpressiondata is not base64", file: file, line: line)
        }
        do {
            let archive = try KeyedArchive(data: data)
            return try ArchivedPredicateFormatter(archive: archive).expression(at: archive.root)
        } catch {
            throw ModelError(.damagedArchive, "\(place): its archived value expression cannot be read: \(error)", file: file, line: line)
        }
    }
}

extension MappingModel {
    /// Stands for the entity mapping of a generated relationship expression until the source model is known.
    package static let unresolvedMapping = "?"
}
