import Foundation

/// The compiled form: an `NSMappingModel` keyed archive (`NSEntityMappings`, each an `NSEntityMapping` with
/// `NSMappingName`, `NSMappingType`, `NSSourceEntityName`/`NSDestinationEntityName`, their version hashes,
/// `NSEntityMigrationPolicyClassName`, `NSSourceExpression` and `NSAttributeMappings`/`NSRelationshipMappings` of
/// `NSPropertyMapping`s with `NSDestinationPropertyName` and `NSValueExpression`).
extension MappingModelReader {
    package static func readCompiled(_ data: Data, file: String) throws -> MappingModel {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch {
            throw ModelError(.unsupportedFormat, "not a compiled mapping model: \(error)", file: file)
        }
        guard archive.className(archive.root) == "NSMappingModel" else {
            throw ModelError(.unsupportedFormat, "not a compiled mapping model: the archive's root is "
                             + "\(archive.name(of: archive.root)), not an NSMappingModel", file: file)
        }
        let walk = KeyedArchive.Walk(archive)
        let formatter = ArchivedPredicateFormatter(archive: archive, walk: walk)
        var mappings: [MappingModel.EntityMapping] = []
        do {
            try walk.visit(archive.root) {
                for item in archive.array(archive.fields(archive.root)["NSEntityMappings"]) ?? [] {
                    guard let index = archive.reference(item) else { continue }
                    mappings.append(try walk.visit(index) { try compiledEntityMapping(index, formatter: formatter, file: file) })
                }
            }
        } catch let error as ObjectPathError {
            throw ModelError(.damagedArchive, "the mapping model's archive cannot be walked: \(error)", file: file)
        }
        return MappingModel(file: file, format: .cdm, entityMappings: mappings)
    }

    static func compiledEntityMapping(_ index: Int, formatter: ArchivedPredicateFormatter, file: String) throws -> MappingModel.EntityMapping {
        let archive = formatter.archive
        let f = archive.fields(index)
        guard archive.className(index) == "NSEntityMapping" else {
            throw ModelError(.damagedArchive, "\(archive.name(of: index)) is listed as an entity mapping but is not an "
                             + "NSEntityMapping", file: file)
        }
        let source = archive.string(f["NSSourceEntityName"])
        let destination = archive.string(f["NSDestinationEntityName"])
        let name = archive.string(f["NSMappingName"]) ?? MappingModel.mappingName(source: source, destination: destination)
        let place = "entity mapping '\(name)' (\(archive.name(of: index)))"
        let rawType = archive.int(f["NSMappingType"]) ?? 0
        guard let type = MappingModel.MappingType(rawValue: Int(rawType)) else {
            throw ModelError(.damagedArchive, "\(place): unknown mapping type \(rawType)", file: file)
        }
        var mapping = MappingModel.EntityMapping(
            name: name, sourceEntityName: source, destinationEntityName: destination, type: type,
            policyClassName: archive.string(f["NSEntityMigrationPolicyClassName"]))
        if case .data(let bytes)? = archive.resolve(f["NSSourceEntityVersionHash"]) { mapping.sourceEntityVersionHash = bytes }
        if case .data(let bytes)? = archive.resolve(f["NSDestinationEntityVersionHash"]) { mapping.destinationEntityVersionHash = bytes }
        if let expression = archive.reference(f["NSSourceExpression"]) {
            do {
                let (text, filter) = try sourceExpression(expression, formatter: formatter)
                mapping.sourceExpression = text
                mapping.filterPredicate = filter
            } catch let error as ObjectPathError {
                throw error
            } catch {
                throw ModelError(.damagedArchive, "\(place): its source expression cannot be read: \(error)", file: file)
            }
        } else {
            mapping.sourceExpression = nil
        }
        for (key, isRelationship) in [("NSAttributeMappings", false), ("NSRelationshipMappings", true)] {
            for item in archive.array(f[key]) ?? [] {
                guard let property = archive.reference(item) else { continue }
                let entry = try formatter.walk.visit(property) { () throws -> MappingModel.PropertyMapping in
                    let p = archive.fields(property)
                    guard let propertyName = archive.string(p["NSDestinationPropertyName"]) else {
                        throw ModelError(.damagedArchive, "\(place): \(archive.name(of: property)) has no destination property name",
                                         file: file)
                    }
                    var expression: String?
                    if let value = archive.reference(p["NSValueExpression"]) {
                        do {
                            expression = try formatter.expression(at: value)
                        } catch let error as ObjectPathError {
                            throw error
                        } catch {
                            throw ModelError(.damagedArchive, "\(place), \(isRelationship ? "relationship" : "attribute") mapping "
                                             + "'\(propertyName)': its value expression cannot be read: \(error)", file: file)
                        }
                    }
                    return MappingModel.PropertyMapping(name: propertyName, valueExpression: expression, isGenerated: false)
                }
                if isRelationship { mapping.relationshipMappings.append(entry) } else { mapping.attributeMappings.append(entry) }
            }
        }
        return mapping
    }

    /// The source expression's text and, for momc's `FETCH(FUNCTION($manager,
    /// "fetchRequestForSourceEntityNamed:predicateString:", entity, predicate), $manager.sourceContext, NO)`, the
    /// predicate (nil for `TRUEPREDICATE`).
    static func sourceExpression(_ index: Int, formatter: ArchivedPredicateFormatter) throws -> (String, String?) {
        let archive = formatter.archive
        guard archive.className(index) == "NSFetchRequestExpression" else {
            return (try formatter.expression(at: index), nil)
        }
        return try formatter.walk.visit(index) {
            let f = archive.fields(index)
            guard let request = archive.reference(f["NSFRExpression"]) else { throw ArchivedPredicateFormatter.Unsupported(description: "a FETCH without a request") }
            let requestText = try formatter.expression(at: request)
            let context = try formatter.expression(f["NSMOCExpression"])
            let text = "FETCH(\(requestText), \(context), \(archive.bool(f["NSCountOnlyFlag"]) ? "YES" : "NO"))"
            let r = archive.fields(request)
            var filter: String?
            if archive.string(r["NSSelectorName"]) == "fetchRequestForSourceEntityNamed:predicateString:",
               let arguments = archive.array(r["NSArguments"]), arguments.count == 2,
               let predicateRef = archive.reference(arguments[1]) {
                let predicate = archive.string(archive.fields(predicateRef)["NSConstantValue"])
                filter = predicate == "TRUEPREDICATE" ? nil : predicate
            }
            return (text, filter)
        }
    }
}
