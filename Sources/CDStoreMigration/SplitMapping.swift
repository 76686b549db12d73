import CDStoreEngine
import CDStoreModel
import CDStorePredicate
import Foundation

/// An entity mapping that makes objects of a further destination entity from a source entity another mapping
/// already takes: Core Data's entity split, as a mapping model writes it when an attribute moves into an entity of
/// its own (`NoteToAttachment` beside `NoteToNote`, each fetching every `Note` through its own filter).
///
/// The mapping that takes the source entity into the entity of the same name (or else the first) keeps the
/// source objects' keys; a split's objects are new, keyed after the destination table's highest `Z_PK`. What a
/// split may hold is what the row-moving runner can write without app code:
/// - attributes copied as stored, `$source.<attribute>` of the same type (or no value expression: nil);
/// - to-ones set to the object the source object itself became, `FUNCTION($manager,
///   "destinationInstancesForEntityMappingNamed:sourceInstances:", "<key-keeping mapping>", $source)`.
///
/// Anything else in a split is refused with the entity mapping and property named.
struct SplitMapping {
    /// A destination attribute filled from a source column.
    struct Copy {
        var attribute: String
        var sourceAttribute: String
    }

    var mapping: String
    var sourceEntity: String
    var destinationEntity: String
    /// The key-keeping mapping of the same source entity, and the entity it makes.
    var keeper: String
    var keeperDestination: String
    var filter: PredicateNode?
    var copies: [Copy]
    /// Destination to-ones that point at the object the source object became under `keeper`.
    var linksToKeeper: [String]
    /// The temporary table holding, per source object the filter passes, its key and the copied values.
    var table: String

    /// The mapping that keeps the keys of each source entity's objects, by source entity name.
    static func keyKeepingMappings(_ mappings: [MappingModel.EntityMapping]) -> [String: String] {
        let moving = mappings.filter { $0.type != .add && $0.type != .remove && $0.sourceEntityName != nil && $0.destinationEntityName != nil }
        var keeping: [String: String] = [:]
        for mapping in moving where mapping.destinationEntityName == mapping.sourceEntityName && keeping[mapping.sourceEntityName!] == nil {
            keeping[mapping.sourceEntityName!] = mapping.name
        }
        for mapping in moving where keeping[mapping.sourceEntityName!] == nil { keeping[mapping.sourceEntityName!] = mapping.name }
        return keeping
    }

    init(_ mapping: MappingModel.EntityMapping, keeper: MappingModel.EntityMapping, source: ManagedObjectModel,
         destination: ManagedObjectModel, table: String, refuse: (String) -> StoreError) throws {
        let sourceName = mapping.sourceEntityName ?? "", destinationName = mapping.destinationEntityName ?? ""
        guard let sourceEntity = source.entity(named: sourceName), let destinationEntity = destination.entity(named: destinationName),
              let keeperDestination = keeper.destinationEntityName else {
            throw refuse("entity mapping '\(mapping.name)' names an entity the models do not have")
        }
        func unsupported(_ kind: String, _ name: String, _ text: String, _ supported: String) -> StoreError {
            refuse("entity mapping '\(mapping.name)' makes new \(destinationName) objects from \(sourceName) objects that "
                   + "'\(keeper.name)' also takes (an entity split); its \(kind) '\(name)' = \(text) is not supported there "
                   + "(cdstore runs \(supported))")
        }
        self.mapping = mapping.name
        self.sourceEntity = sourceName
        self.destinationEntity = destinationName
        self.keeper = keeper.name
        self.keeperDestination = keeperDestination
        self.table = table
        if let text = mapping.filterPredicate {
            do {
                filter = try PredicateParser.parse(text)
            } catch {
                throw refuse("entity mapping '\(mapping.name)': its filter predicate \(text) does not parse: \(error)")
            }
        }
        copies = []
        for property in mapping.attributeMappings {
            guard let text = property.valueExpression else { continue }
            guard let attribute = destination.attribute(property.name, of: destinationEntity) else {
                throw refuse("entity mapping '\(mapping.name)' maps attribute '\(property.name)', which \(destinationName) does not have")
            }
            guard let key = (try? PredicateParser.parseExpression(text)).flatMap(MappedStep.sourceKey),
                  let sourceAttribute = source.attribute(key, of: sourceEntity), sourceAttribute.type == attribute.type else {
                throw unsupported("attribute", property.name, text, "$source.<attribute> of the same type")
            }
            copies.append(Copy(attribute: property.name, sourceAttribute: key))
        }
        linksToKeeper = []
        for property in mapping.relationshipMappings {
            guard let text = property.valueExpression else { continue }
            guard let relationship = destination.relationship(property.name, of: destinationEntity) else {
                throw refuse("entity mapping '\(mapping.name)' maps relationship '\(property.name)', which \(destinationName) does not have")
            }
            let node = try? PredicateParser.parseExpression(text)
            guard !relationship.isToMany, relationship.destination == keeperDestination,
                  case .invocation(.variable("manager"), MappedStep.managerSelectorForRelationships, let arguments)? = node,
                  arguments.count == 2, arguments[0] == .constant(.string(keeper.name)), arguments[1] == .variable("source") else {
                throw unsupported("relationship", property.name, text, "a to-one FUNCTION($manager, \"\(MappedStep.managerSelectorForRelationships)\", "
                                  + "\"\(keeper.name)\", $source)")
            }
            linksToKeeper.append(property.name)
        }
    }
}
