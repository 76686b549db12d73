import CDStoreEngine
import CDStoreModel
import Foundation

extension MappingModel {
    /// The mapping model inference would use from `source` to `destination`, written as a mapping model (what
    /// Core Data's `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)` gives): a Transform
    /// mapping "AToB" per destination entity that comes from a source entity (renaming identifiers followed),
    /// `$source.<attribute>` and `destinationInstancesForEntityMappingNamed:` per property that has a source, an
    /// Add mapping per new entity, and a Remove mapping per source entity that goes nowhere (its objects are
    /// dropped). Throws the inference's refusal (134190) when the mapping cannot be inferred.
    package static func inferred(from source: LoadedModel, to destination: LoadedModel) throws -> MappingModel {
        let mapping = try InferredMapping(source: source.model, destination: destination.model,
                                          sourceName: source.versionName ?? source.file.lastPathComponent,
                                          destinationName: destination.versionName ?? destination.file.lastPathComponent)
        var names: [String: String] = [:]
        for entity in destination.model.entities {
            names[entity.name] = mappingName(source: mapping.entities[entity.name], destination: entity.name)
        }
        var mappings: [EntityMapping] = []
        for entity in destination.model.entities {
            guard let oldName = mapping.entities[entity.name], let old = source.model.entity(named: oldName) else {
                mappings.append(EntityMapping(name: names[entity.name]!, sourceEntityName: nil, destinationEntityName: entity.name, type: .add))
                continue
            }
            var attributes: [PropertyMapping] = []
            for attribute in destination.model.attributes(of: entity) where !attribute.isTransient {
                let previous = mapping.matcher.sourceAttribute(for: attribute, in: old)
                attributes.append(PropertyMapping(name: attribute.name, valueExpression: previous.map { defaultAttributeExpression($0.name) },
                                                  isGenerated: true))
            }
            var relationships: [PropertyMapping] = []
            for relationship in destination.model.relationships(of: entity) where !relationship.isTransient {
                let previous = mapping.matcher.sourceRelationship(for: relationship, in: old)
                let expression = previous.flatMap { p in
                    names[relationship.destination].map { defaultRelationshipExpression(mapping: $0, sourceKeyPath: "$source.\(p.name)") }
                }
                relationships.append(PropertyMapping(name: relationship.name, valueExpression: expression, isGenerated: true))
            }
            mappings.append(EntityMapping(name: names[entity.name]!, sourceEntityName: oldName, destinationEntityName: entity.name,
                                          type: .transform, attributeMappings: attributes, relationshipMappings: relationships))
        }
        let kept = Set(mapping.entities.values)
        for entity in source.model.entities where !kept.contains(entity.name) {
            mappings.append(EntityMapping(name: entity.name, sourceEntityName: entity.name, destinationEntityName: nil, type: .remove))
        }
        return MappingModel(file: "inferred", format: .inferred, sourceModelPath: source.file.path,
                            destinationModelPath: destination.file.path, entityMappings: mappings)
    }
}
