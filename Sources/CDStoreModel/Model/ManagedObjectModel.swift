/// A managed object model: the entities an app stores, whatever file it was read from.
///
/// Load one with ``ModelLoader``; compare two with `==` (equal models may come from different files,
/// for example an Xcode model and the JSON model `cdstore model compile` wrote from it).
///
/// Core Data equivalent: `NSManagedObjectModel`.
///
/// ## Topics
/// - ``entities``, ``entity(named:)``
/// - Inheritance: ``parent(of:)``, ``root(of:)``, ``subentities(of:)``, ``attributes(of:)``, ``relationships(of:)``
public struct ManagedObjectModel: Sendable, Equatable {
    /// The entities, in file order.
    public var entities: [Entity]
    /// The model's version identifiers (XML `userDefinedModelVersionIdentifier`; empty when absent).
    public var versionIdentifiers: [String]
    /// Named fetch request templates.
    public var fetchRequests: [FetchRequestTemplate]
    /// Named configurations.
    public var configurations: [Configuration]
    /// Settings of the model file that do not change the model (`sourceLanguage`, `minimumToolsVersion`,
    /// `usedWithSwiftData`, …), kept so a model round-trips.
    public var fileSettings: [String: String]

    /// Creates a model.
    public init(entities: [Entity], versionIdentifiers: [String] = [],
                fetchRequests: [FetchRequestTemplate] = [], configurations: [Configuration] = [],
                fileSettings: [String: String] = [:]) {
        self.entities = entities
        self.versionIdentifiers = versionIdentifiers
        self.fetchRequests = fetchRequests
        self.configurations = configurations
        self.fileSettings = fileSettings
    }
}
