import Foundation

/// A mapping model as Core Data's `NSMigrationManager` runs it: entity mappings in order, each with the source and
/// destination entity, the mapping type, the migration policy class, the filter on source objects and a value
/// expression per destination property.
///
/// Read from either form by ``MappingModelReader``: Xcode's source (`X.xcmappingmodel/xcmapping.xml`) or the
/// compiled `X.cdm` (an `NSMappingModel` keyed archive). Expressions are kept as `NSExpression` format text (as
/// `expressionFormat`/`predicateFormat` print them) and parsed by the runner; what the file leaves to the
/// defaults is filled in as momc fills it (see ``MappingModelReader``).
///
/// Core Data equivalent: `NSMappingModel`.
public struct MappingModel: Sendable, Equatable {
    /// Which of the two forms the file was.
    public enum Format: String, Sendable, Equatable {
        case xcmapping
        case cdm
        /// Worked out from two models (`cdstore mapping infer`), not read from a file.
        case inferred
    }

    /// `NSEntityMappingType`, with its raw numbers.
    public enum MappingType: Int, Sendable, Equatable, CaseIterable {
        case undefined = 0, custom = 1, add = 2, remove = 3, copy = 4, transform = 5

        /// The name Xcode's mapping editor shows (and `xcmapping.xml` stores as `mappingtypename`).
        public var name: String {
            switch self {
            case .undefined: "Undefined"
            case .custom: "Custom"
            case .add: "Add"
            case .remove: "Remove"
            case .copy: "Copy"
            case .transform: "Transform"
            }
        }

        /// The type for a `mappingtypename`, nil for an unknown name.
        package init?(name: String) {
            guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = found
        }
    }

    /// One destination property and the expression that gives its value.
    public struct PropertyMapping: Sendable, Equatable {
        /// The destination property.
        public var name: String
        /// The value expression (NSExpression format text); nil when the property gets no value (its default).
        public var valueExpression: String?
        /// Whether the expression is the one momc generates (not edited in Xcode).
        public var isGenerated: Bool

        package init(name: String, valueExpression: String?, isGenerated: Bool) {
            self.name = name
            self.valueExpression = valueExpression
            self.isGenerated = isGenerated
        }
    }

    /// One `NSEntityMapping`.
    public struct EntityMapping: Sendable, Equatable {
        /// The mapping's name, as `destinationInstancesForEntityMappingNamed:` names it ("BookToBook").
        public var name: String
        /// The entity whose objects the mapping takes; nil for an Add mapping.
        public var sourceEntityName: String?
        /// The entity whose objects the mapping creates; nil for a Remove mapping.
        public var destinationEntityName: String?
        /// `NSEntityMapping.sourceEntityVersionHash` (only the compiled form records it).
        public var sourceEntityVersionHash: [UInt8]?
        /// `NSEntityMapping.destinationEntityVersionHash` (only the compiled form records it).
        public var destinationEntityVersionHash: [UInt8]?
        /// The type, as compiled: an xcmapping's "Undefined" is Add without a source, Remove without a
        /// destination, and Transform with both, as momc compiles it.
        public var type: MappingType
        /// `NSEntityMapping.entityMigrationPolicyClassName`; nil for the default `NSEntityMigrationPolicy`.
        public var policyClassName: String?
        /// The filter on source objects (`sourcefilterpredicatestring`, or the predicate string of the compiled
        /// source expression); nil means every object (`TRUEPREDICATE`).
        public var filterPredicate: String?
        /// The source expression as Core Data prints it; nil for a mapping without a source.
        public var sourceExpression: String?
        /// The destination's attributes and their value expressions.
        public var attributeMappings: [PropertyMapping]
        /// The destination's relationships and their value expressions.
        public var relationshipMappings: [PropertyMapping]

        package init(name: String, sourceEntityName: String?, destinationEntityName: String?, type: MappingType,
                     policyClassName: String? = nil, filterPredicate: String? = nil,
                     attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = []) {
            self.name = name
            self.sourceEntityName = sourceEntityName
            self.destinationEntityName = destinationEntityName
            self.type = type
            self.policyClassName = policyClassName
            self.filterPredicate = filterPredicate
            self.attributeMappings = attributeMappings
            self.relationshipMappings = relationshipMappings
            self.sourceExpression = sourceEntityName.map { MappingModel.sourceExpression(entity: $0, filter: filterPredicate) }
        }
    }

    /// The file read ("inferred" for a mapping worked out from two models).
    public var file: String
    /// Which form the mapping came from.
    public var format: Format
    /// Where Xcode had the source model version (xcmapping only; a path on the author's disk).
    public var sourceModelPath: String?
    /// Where Xcode had the destination model version (xcmapping only; a path on the author's disk).
    public var destinationModelPath: String?
    /// The entity mappings, in the order the migration manager runs them.
    public var entityMappings: [EntityMapping]

    package init(file: String, format: Format, sourceModelPath: String? = nil, destinationModelPath: String? = nil,
                 entityMappings: [EntityMapping]) {
        self.file = file
        self.format = format
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.entityMappings = entityMappings
    }

    /// The entity mapping called `name`.
    package func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// The source expression momc writes: a fetch of the source entity's objects through the manager.
    package static func sourceExpression(entity: String, filter: String?) -> String {
        "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \(quote(entity)), "
            + "\(quote(filter ?? "TRUEPREDICATE"))), $manager.sourceContext, NO)"
    }

    /// The value expression momc writes for an attribute mapping that was not edited.
    package static func defaultAttributeExpression(_ name: String) -> String { "$source.\(name)" }

    /// The value expression momc writes for a relationship mapping that was not edited: the destination objects
    /// that `mapping` made from the source objects at `sourceKeyPath`.
    package static func defaultRelationshipExpression(mapping: String, sourceKeyPath: String) -> String {
        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \(quote(mapping)), \(sourceKeyPath))"
    }

    /// The name Xcode gives an entity mapping: "AToB", or the one entity's name for an Add or Remove mapping.
    package static func mappingName(source: String?, destination: String?) -> String {
        switch (source, destination) {
        case let (s?, d?): "\(s)To\(d)"
        case let (s?, nil): s
        case let (nil, d?): d
        case (nil, nil): "Unnamed"
        }
    }

    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
