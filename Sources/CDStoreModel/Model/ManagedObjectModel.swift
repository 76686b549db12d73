/// A managed object model: the entities an app stores, whatever file it was read from.
///
/// Read one with `CDStore.model`; compare two with `==` (equal models may come from different files,
/// for example an Xcode model and the JSON model `cdstore model compile` wrote from it).
///
/// Core Data equivalent: `NSManagedObjectModel`.
///
/// ## Topics
/// - ``entities``, ``entity(named:)``
/// - Inheritance: ``ancestors(of:)``, ``subtree(of:)``, ``attributes(of:)``, ``relationships(of:)``
public struct ManagedObjectModel: Sendable, Equatable {
    /// The entities, in file order.
    public var entities: [Entity] { didSet { index = EntityIndex(entities) } }
    /// Where each entity is and which entities have it as parent: lookups by name are constant time, so a model
    /// of 10,000 entities is laid out in a blink rather than in quadratic time.
    private(set) var index: EntityIndex
    /// The model's version identifiers (XML `userDefinedModelVersionIdentifier`; empty when absent).
    public var versionIdentifiers: [String]
    /// Named fetch request templates.
    package var fetchRequests: [FetchRequestTemplate]
    /// Named configurations.
    package var configurations: [Configuration]
    /// Settings of the model file that do not change the model (`sourceLanguage`, `minimumToolsVersion`,
    /// `usedWithSwiftData`, …), kept so a model round-trips.
    package var fileSettings: [String: String]

    /// Creates a model of these entities.
    public init(entities: [Entity], versionIdentifiers: [String] = []) {
        self.init(entities: entities, versionIdentifiers: versionIdentifiers, fetchRequests: [])
    }

    /// Creates a model with the parts of a model file a library user does not see.
    package init(entities: [Entity], versionIdentifiers: [String] = [],
                fetchRequests: [FetchRequestTemplate], configurations: [Configuration] = [],
                fileSettings: [String: String] = [:]) {
        self.entities = entities
        index = EntityIndex(entities)
        self.versionIdentifiers = versionIdentifiers
        self.fetchRequests = fetchRequests
        self.configurations = configurations
        self.fileSettings = fileSettings
    }
}

/// Entities by name and by parent name (derived from the entities, so equal models have equal indexes).
struct EntityIndex: Sendable, Equatable {
    /// The position of the first entity of each name.
    let positions: [String: Int]
    /// The positions of each parent name's entities, in file order.
    let children: [String: [Int]]

    init(_ entities: [Entity]) {
        var positions: [String: Int] = [:]
        var children: [String: [Int]] = [:]
        for (position, entity) in entities.enumerated() {
            if positions[entity.name] == nil { positions[entity.name] = position }
            if let parent = entity.parentName { children[parent, default: []].append(position) }
        }
        self.positions = positions
        self.children = children
    }
}
