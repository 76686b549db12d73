/// An entity of a managed object model: its own attributes and relationships, and its place in an
/// inheritance tree (``parentName``). Inherited properties are not repeated here; ask the model
/// (``ManagedObjectModel/attributes(of:)``) for the full list.
///
/// Core Data equivalent: `NSEntityDescription`.
public struct Entity: Sendable, Equatable {
    /// The entity name.
    public var name: String
    /// The class generated code uses (XML `representedClassName`).
    package var className: String? = nil
    /// The name of the parent entity, if this is a sub-entity.
    public var parentName: String? = nil
    /// Abstract entities have no objects of their own.
    public var isAbstract: Bool = false
    /// The entity's name in an earlier model version (XML `elementID`).
    package var renamingIdentifier: String? = nil
    /// Text mixed into the version hash (XML `versionHashModifier`).
    package var versionHashModifier: String? = nil
    /// Xcode's code generation setting ("class", "category"; nil = manual). Not part of the compiled model.
    package var codeGenerationType: String? = nil
    /// Whether the entity is marked syncable (XML `syncable`); kept only so models round-trip.
    package var syncable: Bool? = nil
    /// The expression Spotlight shows as the object's name (XML `coreSpotlightDisplayNameExpression`).
    package var spotlightDisplayNameExpression: String? = nil
    /// The entity's own attributes, in file order.
    public var attributes: [Attribute] = []
    /// The entity's own relationships, in file order.
    public var relationships: [Relationship] = []
    /// The entity's own fetched properties, in file order.
    package var fetchedProperties: [FetchedProperty] = []
    /// Uniqueness constraints: each is a list of property names whose values together are unique.
    public var uniquenessConstraints: [[String]] = []
    /// Fetch indexes (`<fetchIndex>`; SwiftData's `#Index`), each an SQL index of the entity's table.
    public var fetchIndexes: [FetchIndex] = []
    /// Legacy compound indexes: each is a list of property names.
    public var compoundIndexes: [[String]] = []
    /// Free-form key/value pairs (XML `userInfo`).
    package var userInfo: [String: String] = [:]

    /// Creates an entity.
    public init(name: String, parentName: String? = nil, isAbstract: Bool = false,
                attributes: [Attribute] = [], relationships: [Relationship] = []) {
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
    }

    /// The entity's own attribute named `name`.
    public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }

    /// The entity's own relationship named `name`.
    public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
}

/// A fetched property: a named fetch request evaluated relative to the object.
///
/// Core Data equivalent: `NSFetchedPropertyDescription`.
package struct FetchedProperty: Sendable, Equatable {
    /// The property name.
    package var name: String
    /// Whether it is optional (XML `optional`).
    package var isOptional: Bool = false
    /// The fetch request it runs.
    package var fetchRequest: FetchRequestTemplate
    /// Free-form key/value pairs.
    package var userInfo: [String: String] = [:]

    /// Creates a fetched property.
    package init(name: String, fetchRequest: FetchRequestTemplate) {
        self.name = name
        self.fetchRequest = fetchRequest
    }
}

/// A fetch index of an entity: one SQL index over properties or expressions.
///
/// Core Data equivalent: `NSFetchIndexDescription`.
public struct FetchIndex: Sendable, Equatable {
    /// One element of a fetch index.
    public struct Element: Sendable, Equatable {
        /// The property the element indexes (nil when it indexes an expression).
        public var property: String?
        /// The expression it indexes, as written in the model.
        public var expression: String?
        /// The expression's result type (XML `expressionType`).
        package var expressionType: String?
        /// "Binary" (an ordinary B-tree index) or "RTree".
        package var type: String = "Binary"
        /// Ascending (true) or descending order.
        public var isAscending: Bool = true

        /// Creates an element over a property.
        package init(property: String?, expression: String? = nil, expressionType: String? = nil,
                    type: String = "Binary", isAscending: Bool = true) {
            self.property = property
            self.expression = expression
            self.expressionType = expressionType
            self.type = type
            self.isAscending = isAscending
        }
    }

    /// The index name.
    public var name: String
    /// Its elements, in order.
    public var elements: [Element]
    /// The predicate of a partial index, as written.
    package var partialIndexPredicate: String? = nil

    /// Creates a fetch index.
    package init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// A named fetch request stored in the model (or the request of a fetched property).
///
/// Core Data equivalent: `NSFetchRequest` templates (`fetchRequestTemplatesByName`).
package struct FetchRequestTemplate: Sendable, Equatable {
    /// The template name.
    package var name: String
    /// The entity it fetches.
    package var entity: String
    /// The predicate, as written.
    package var predicate: String?
    /// Other settings as written (resultType, fetchLimit, includeSubentities, …), keyed by XML attribute name.
    package var options: [String: String] = [:]

    /// Creates a fetch request template.
    package init(name: String, entity: String, predicate: String? = nil) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
    }
}

/// A named configuration: a subset of the model's entities.
///
/// Core Data equivalent: `NSManagedObjectModel.configurations`.
package struct Configuration: Sendable, Equatable {
    /// The configuration name.
    package var name: String
    /// The names of its entities.
    package var entities: [String]
    /// Whether CloudKit is used with it (XML `usedWithCloudKit`).
    package var usedWithCloudKit: Bool = false

    /// Creates a configuration.
    package init(name: String, entities: [String]) {
        self.name = name
        self.entities = entities
    }
}
