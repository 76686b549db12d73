import Foundation

extension MappingModel {
    /// The model versions the xcmapping names (`sourcemodelpath`/`destinationmodelpath`), looked for beside the
    /// mapping model: the paths are the author's (`MAGE/x.xcdatamodeld/x 15.xcdatamodel`, or absolute), so the
    /// longest tail of each that exists under the mapping's folder or one of its two parents is taken, then under
    /// each of `otherFolders` (the folder holding the model a store migrates to, where a mapping model given from
    /// elsewhere finds the versions it names).
    package func modelVersionFiles(alsoUnder otherFolders: [URL] = []) -> (source: URL?, destination: URL?) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        let bases = format == .xcmapping && file.hasSuffix("xcmapping.xml") ? [folder.deletingLastPathComponent()] : [folder]
        func locate(_ path: String?) -> URL? {
            guard let path else { return nil }
            let components = path.split(separator: "/").map(String.init)
            var roots = bases
            for _ in 0..<2 { if let last = roots.last { roots.append(last.deletingLastPathComponent()) } }
            roots += otherFolders
            for start in components.indices where components.count - start >= 1 {
                let tail = components[start...].joined(separator: "/")
                for root in roots {
                    let candidate = root.appendingPathComponent(tail)
                    if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                }
            }
            return nil
        }
        return (locate(sourceModelPath), locate(destinationModelPath))
    }

    /// The generated expressions completed against the models, as momc completes them: an attribute the source
    /// entity does not have gets no expression, and a relationship's `destinationInstancesForEntityMappingNamed:`
    /// names the entity mapping of the source relationship's destination entity (none when the source entity has
    /// no such relationship, or no entity mapping takes its destination entity).
    package func resolved(source: ManagedObjectModel, destination: ManagedObjectModel) -> MappingModel {
        var copy = self
        for (index, mapping) in entityMappings.enumerated() {
            let sourceEntity = mapping.sourceEntityName.flatMap { source.entity(named: $0) }
            let destinationEntity = mapping.destinationEntityName.flatMap { destination.entity(named: $0) }
            for (p, property) in mapping.attributeMappings.enumerated() where property.isGenerated {
                if sourceEntity.flatMap({ source.attribute(property.name, of: $0) }) == nil {
                    copy.entityMappings[index].attributeMappings[p].valueExpression = nil
                }
            }
            for (p, property) in mapping.relationshipMappings.enumerated() where property.isGenerated {
                guard let text = property.valueExpression else { continue }
                let prefix = MappingModel.defaultRelationshipExpression(mapping: MappingModel.unresolvedMapping, sourceKeyPath: "")
                    .dropLast()
                guard text.hasPrefix(prefix) else { continue }
                let keyPath = String(text.dropFirst(prefix.count).dropLast())
                let key = keyPath.hasPrefix("$source.") ? String(keyPath.dropFirst("$source.".count)) : nil
                guard let key, !key.contains("."), let entity = sourceEntity,
                      let sourceRelationship = source.relationship(key, of: entity) else {
                    copy.entityMappings[index].relationshipMappings[p].valueExpression = nil
                    continue
                }
                let target = destinationEntity.flatMap { destination.relationship(property.name, of: $0) }?.destination
                let candidates = entityMappings.filter { $0.sourceEntityName == sourceRelationship.destination }
                guard let chosen = candidates.first(where: { $0.destinationEntityName == target }) ?? candidates.first else {
                    copy.entityMappings[index].relationshipMappings[p].valueExpression = nil
                    continue
                }
                copy.entityMappings[index].relationshipMappings[p].valueExpression =
                    MappingModel.defaultRelationshipExpression(mapping: chosen.name, sourceKeyPath: keyPath)
            }
        }
        return copy
    }

    /// Why the mapping model is not for migrating `source` to `destination` (empty when it is), as Core Data's
    /// `NSMappingModel(from:forSourceModel:destinationModel:)` decides: every entity mapping's source and
    /// destination entity exist with the version hashes the mapping recorded (the compiled form records them;
    /// for the Xcode form they are the hashes of the model versions it names, when those are found beside it —
    /// `knownSource`/`knownDestination`, entity name → hash — and otherwise only the names are checked).
    package func mismatches(source: ManagedObjectModel, destination: ManagedObjectModel,
                            knownSource: [String: [UInt8]]? = nil, knownDestination: [String: [UInt8]]? = nil) -> [String] {
        mismatches(sourceHashes: VersionHasher.entityHashes(of: source),
                   destinationHashes: VersionHasher.entityHashes(of: destination),
                   knownSource: knownSource, knownDestination: knownDestination)
    }

    /// ``mismatches(source:destination:knownSource:knownDestination:)`` from the two models' entity hashes
    /// (``VersionHasher/entityHashes(of:)``), for a caller that matches many mapping models to the same versions.
    package func mismatches(sourceHashes: [String: [UInt8]], destinationHashes: [String: [UInt8]],
                            knownSource: [String: [UInt8]]? = nil, knownDestination: [String: [UInt8]]? = nil) -> [String] {
        var problems: [String] = []
        if let knownSource, knownSource != sourceHashes { problems.append("its source model is another version") }
        if let knownDestination, knownDestination != destinationHashes { problems.append("its destination model is another version") }
        for mapping in entityMappings {
            if let name = mapping.sourceEntityName {
                if let hash = sourceHashes[name] {
                    if let recorded = mapping.sourceEntityVersionHash, recorded != hash {
                        problems.append("\(mapping.name): source entity \(name) has another version hash")
                    }
                } else {
                    problems.append("\(mapping.name): no source entity \(name)")
                }
            }
            if let name = mapping.destinationEntityName {
                if let hash = destinationHashes[name] {
                    if let recorded = mapping.destinationEntityVersionHash, recorded != hash {
                        problems.append("\(mapping.name): destination entity \(name) has another version hash")
                    }
                } else {
                    problems.append("\(mapping.name): no destination entity \(name)")
                }
            }
        }
        return problems
    }
}
