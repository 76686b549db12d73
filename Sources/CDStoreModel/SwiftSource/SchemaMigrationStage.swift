/// One stage of a SwiftData `SchemaMigrationPlan`: how a store goes from one `VersionedSchema` to the next.
///
/// A lightweight stage is a migration Core Data infers from the two models, which cdstore runs too. A custom stage
/// (`MigrationStage.custom(fromVersion:toVersion:willMigrate:didMigrate:)`) runs the app's own closures, which
/// cdstore cannot: a migration that would need one is refused, naming it, as custom mapping policies are.
///
/// SwiftData equivalent: `MigrationStage`.
package struct SchemaMigrationStage: Sendable, Equatable {
    /// The type name of the `VersionedSchema` the stage starts from, as ``LoadedModel/availableVersions`` lists it.
    package var from: String
    /// The type name of the `VersionedSchema` the stage ends at.
    package var to: String
    /// `.lightweight(…)` rather than `.custom(…)`.
    package var isLightweight: Bool
    /// The property holding the stage (`migrateV1toV2`); nil for a stage written inline in the plan's `stages`.
    package var name: String?
    /// Where the stage is written: `file:line:column`.
    package var location: String

    /// Creates a stage.
    package init(from: String, to: String, isLightweight: Bool, name: String?, location: String) {
        self.from = from
        self.to = to
        self.isLightweight = isLightweight
        self.name = name
        self.location = location
    }

    /// "the custom stage 'migrateV1toV2' (Schemas.swift:40:31)", for messages.
    package var described: String {
        "the \(isLightweight ? "lightweight" : "custom") stage " + (name.map { "'\($0)' " } ?? "") + "(\(location))"
    }
}
