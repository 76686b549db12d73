import CDStoreEngine
import CDStoreModel
import CDStorePredicate
import Foundation

/// A migration step that runs a mapping model, planned before the store is touched.
///
/// How cdstore runs Core Data's three stages inside the step's transaction (coredata-format.md §5.3 for the row
/// moves, which are the lightweight runner's):
/// 1. **Create destination objects** per entity mapping, in order: the source objects of the mapping's source
///    entity (that exact entity, as momc's `fetchRequestForSourceEntityNamed:predicateString:` fetches it) that
///    pass its filter become objects of its destination entity, keeping their keys; objects the filter rejects,
///    objects of entities no mapping takes, and those of Remove mappings are dropped. Attributes get their value
///    expressions: `$source.key` copies the stored column (converted as ``AttributeConversion`` converts, when the
///    type changed), any other expression is evaluated per source object into a temporary table first.
/// 2. **Relationships**: `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M",
///    $source.r)` links each destination object to the destination objects made from the source objects of `r`.
/// 3. **Validate** against the destination model: a required attribute or to-one left empty refuses the step
///    (Core Data's 1570), and the transaction rolls back.
///
/// What needs app code is refused before anything is read: a mapping naming an `NSEntityMigrationPolicy`
/// subclass, or an expression calling `$entityPolicy` (``MigrationOptions/withoutPolicies`` runs the default
/// policy instead and leaves those values out). So are entity mappings that merge entities (two mappings making
/// one destination entity), which the row-moving runner cannot express. Two mappings may take one source entity
/// (a split): one keeps the objects' keys, the others make new objects (``SplitMapping``).
struct MappedStep {
    /// A value expression evaluated per source object.
    struct Computed {
        var mapping: String
        var destinationEntity: String
        var attribute: Attribute
        var sourceEntity: String
        var expression: ExpressionNode
        var text: String
        var table: String
    }

    /// A filter on a mapping's source objects.
    struct Filter {
        var mapping: String
        var sourceEntity: String
        var predicate: PredicateNode
    }

    let model: MappingModel
    let inferred: InferredMapping
    var computed: [Computed] = []
    var filters: [Filter] = []
    /// Entity mappings that make further objects from a source entity another mapping takes.
    var splits: [SplitMapping] = []
    /// One per entity mapping whose custom code is skipped (``MigrationOptions/withoutPolicies``).
    var warnings: [String] = []

    static let managerSelectorForRelationships = "destinationInstancesForEntityMappingNamed:sourceInstances:"

    init(model unresolved: MappingModel, source: ManagedObjectModel, destination: ManagedObjectModel,
         withoutPolicies: Bool, prefix: String) throws {
        let model = unresolved.resolved(source: source, destination: destination)
        self.model = model
        let fileName = URL(fileURLWithPath: model.file).lastPathComponent
        func refuse(_ reason: String) -> StoreError {
            StoreError(.modelMismatch, "cannot run mapping model \(fileName): \(reason); the store is unchanged")
        }
        // Custom code first: it is the refusal a user must see whatever else the mapping holds.
        var needsCode: [String] = []
        var skipped: [String: [String]] = [:]
        for mapping in model.entityMappings {
            if let policy = mapping.policyClassName {
                needsCode.append("entity mapping '\(mapping.name)' names the migration policy class \(policy)")
                skipped[mapping.name, default: []].append("policy class \(policy)")
            }
            for property in mapping.attributeMappings + mapping.relationshipMappings {
                guard let text = property.valueExpression, text.contains("$entityPolicy") else { continue }
                let selector = Self.selectors(in: text).first ?? "?"
                needsCode.append("entity mapping '\(mapping.name)', property '\(property.name)' calls $entityPolicy \"\(selector)\"")
                skipped[mapping.name, default: []].append("$entityPolicy \"\(selector)\" for '\(property.name)'")
            }
        }
        if !needsCode.isEmpty && !withoutPolicies {
            throw refuse("it needs the app's custom migration code, which cdstore cannot run (Core Data error 134110): "
                         + needsCode.joined(separator: "; ")
                         + " (running without policies uses the default NSEntityMigrationPolicy instead and leaves those values out)")
                .coreData(134110)
        }
        for mapping in model.entityMappings where skipped[mapping.name] != nil {
            warnings.append("entity mapping '\(mapping.name)' of \(fileName): ran the default NSEntityMigrationPolicy without "
                            + skipped[mapping.name]!.joined(separator: ", "))
        }

        var entities: [String: String] = [:]
        var made: Set<String> = []
        var overrides: [String: [String: InferredMapping.PropertySource]] = [:]
        var computedIndex = 0
        let keeping = SplitMapping.keyKeepingMappings(model.entityMappings)
        for mapping in model.entityMappings {
            guard let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName,
                  mapping.type != .add, mapping.type != .remove else { continue }
            guard made.insert(destinationName).inserted else {
                throw refuse("two entity mappings make \(destinationName) objects; cdstore runs one mapping per destination entity")
            }
            if let keeper = keeping[sourceName].flatMap(model.entityMapping(named:)), keeper.name != mapping.name {
                splits.append(try SplitMapping(mapping, keeper: keeper, source: source, destination: destination,
                                               table: "\(prefix)split\(splits.count + 1)", refuse: refuse))
                continue
            }
            guard let sourceEntity = source.entity(named: sourceName), let destinationEntity = destination.entity(named: destinationName) else {
                throw refuse("entity mapping '\(mapping.name)' names an entity the models do not have")
            }
            entities[destinationName] = sourceName
            if let filter = mapping.filterPredicate {
                do {
                    filters.append(Filter(mapping: mapping.name, sourceEntity: sourceName, predicate: try PredicateParser.parse(filter)))
                } catch {
                    throw refuse("entity mapping '\(mapping.name)': its filter predicate \(filter) does not parse: \(error)")
                }
            }
            var sources: [String: InferredMapping.PropertySource] = [:]
            for property in mapping.attributeMappings {
                if skipped[mapping.name] != nil, property.valueExpression?.contains("$entityPolicy") == true {
                    sources[property.name] = InferredMapping.PropertySource.none
                    continue
                }
                guard let text = property.valueExpression else { sources[property.name] = InferredMapping.PropertySource.none; continue }
                guard let attribute = destination.attribute(property.name, of: destinationEntity) else {
                    throw refuse("entity mapping '\(mapping.name)' maps attribute '\(property.name)', which \(destinationName) does not have")
                }
                let node: ExpressionNode
                do {
                    node = try PredicateParser.parseExpression(text)
                } catch {
                    throw refuse("entity mapping '\(mapping.name)', attribute '\(property.name)': the expression \(text) does not parse: \(error)")
                }
                if let key = Self.sourceKey(node), source.attribute(key, of: sourceEntity) != nil {
                    sources[property.name] = .property(key)
                    continue
                }
                try MappingExpressionCheck.check(node, text: text, mapping: mapping.name, property: property.name, refuse: refuse)
                computedIndex += 1
                let table = "\(prefix)value\(computedIndex)"
                computed.append(Computed(mapping: mapping.name, destinationEntity: destinationName, attribute: attribute,
                                         sourceEntity: sourceName, expression: node, text: text, table: table))
                sources[property.name] = .sql("(SELECT v FROM temp.\(table) WHERE pk = {s}.Z_PK)")
            }
            for property in mapping.relationshipMappings {
                guard let text = property.valueExpression else { sources[property.name] = InferredMapping.PropertySource.none; continue }
                if skipped[mapping.name] != nil, text.contains("$entityPolicy") {
                    sources[property.name] = InferredMapping.PropertySource.none
                    continue
                }
                guard let relationship = destination.relationship(property.name, of: destinationEntity) else {
                    throw refuse("entity mapping '\(mapping.name)' maps relationship '\(property.name)', which \(destinationName) does not have")
                }
                let node = try? PredicateParser.parseExpression(text)
                guard case .invocation(.variable("manager"), Self.managerSelectorForRelationships, let arguments)? = node,
                      arguments.count == 2, case .constant(.string(let targetName)) = arguments[0],
                      let key = Self.sourceKey(arguments[1]), let sourceRelationship = source.relationship(key, of: sourceEntity) else {
                    throw refuse("entity mapping '\(mapping.name)', relationship '\(property.name)': the value expression \(text) is not "
                                 + "supported (cdstore runs FUNCTION($manager, \"\(Self.managerSelectorForRelationships)\", "
                                 + "\"<mapping>\", $source.<relationship>))")
                }
                guard let target = model.entityMapping(named: targetName) else {
                    throw refuse("entity mapping '\(mapping.name)', relationship '\(property.name)' names entity mapping '\(targetName)', "
                                 + "which the mapping model does not have")
                }
                if let source = target.sourceEntityName, keeping[source] != target.name {
                    throw refuse("entity mapping '\(mapping.name)', relationship '\(property.name)' links to the objects of entity mapping "
                                 + "'\(targetName)', which makes new ones (an entity split); cdstore links only to objects that keep "
                                 + "their source object's key")
                }
                guard target.sourceEntityName == sourceRelationship.destination,
                      target.destinationEntityName == relationship.destination else {
                    throw refuse("entity mapping '\(mapping.name)', relationship '\(property.name)': entity mapping '\(targetName)' maps "
                                 + "\(target.sourceEntityName ?? "nothing") → \(target.destinationEntityName ?? "nothing"), not "
                                 + "\(sourceRelationship.destination) → \(relationship.destination)")
                }
                sources[property.name] = .property(key)
            }
            overrides[destinationName] = sources
        }
        inferred = InferredMapping(source: source, destination: destination, entities: entities, overrides: overrides)
    }

    /// `k` for `$source.k`.
    static func sourceKey(_ node: ExpressionNode) -> String? {
        guard case .member(.variable("source"), let path) = node, path.components.count == 1,
              case .key(let key) = path.components[0] else { return nil }
        return key
    }

    /// The selector strings of `FUNCTION(…)` calls in an expression's text, in order.
    static func selectors(in text: String) -> [String] {
        guard let node = try? PredicateParser.parseExpression(text) else { return [] }
        var found: [String] = []
        func visit(_ node: ExpressionNode) {
            switch node {
            case .invocation(let receiver, let selector, let arguments):
                found.append(selector)
                visit(receiver)
                arguments.forEach(visit)
            case .function(_, let arguments), .aggregate(let arguments): arguments.forEach(visit)
            case .arithmetic(_, let a, let b): visit(a); visit(b)
            case .negate(let a), .member(let a, _), .cast(let a, _): visit(a)
            default: break
            }
        }
        visit(node)
        return found
    }
}
