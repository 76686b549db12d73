/// A relationship from one entity to another.
///
/// `minCount`/`maxCount` are kept exactly as the model writes them because they enter the version hash:
/// a to-one is written with `maxCount` 1, an unbounded to-many has `maxCount` 0.
///
/// Core Data equivalent: `NSRelationshipDescription`.
public struct Relationship: Sendable, Equatable {
    /// The property name.
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination entity, if any.
    public var inverseName: String? = nil
    /// The entity that declares the inverse (XML `inverseEntity`; normally the destination).
    public var inverseEntity: String? = nil
    /// Whether the relationship holds many objects.
    public var isToMany: Bool = false
    /// Whether a to-many relationship keeps its objects in order (`NSOrderedSet`).
    public var isOrdered: Bool = false
    /// Whether the relationship may be empty.
    public var isOptional: Bool = false
    /// Transient relationships are not stored.
    public var isTransient: Bool = false
    /// The minimum number of related objects, as written (0 when absent).
    public var minCount: Int = 0
    /// The maximum number of related objects, as written (0 = unbounded).
    public var maxCount: Int = 0
    /// What deleting the source object does to the related objects.
    public var deleteRule: DeleteRule = .nullify
    /// The relationship's name in an earlier model version (XML `elementID`).
    package var renamingIdentifier: String? = nil
    /// Text mixed into the version hash (XML `versionHashModifier`).
    package var versionHashModifier: String? = nil
    /// Whether the relationship is marked syncable (XML `syncable`); kept only so models round-trip.
    package var syncable: Bool? = nil
    /// Free-form key/value pairs (XML `userInfo`).
    package var userInfo: [String: String] = [:]

    /// Creates a relationship; a to-one gets `maxCount` 1 as Xcode writes it.
    public init(name: String, destination: String, inverseName: String? = nil, isToMany: Bool = false) {
        self.name = name
        self.destination = destination
        self.inverseName = inverseName
        self.inverseEntity = inverseName == nil ? nil : destination
        self.isToMany = isToMany
        self.maxCount = isToMany ? 0 : 1
    }
}
