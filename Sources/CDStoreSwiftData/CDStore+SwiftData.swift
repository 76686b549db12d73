import CDStore
import Foundation

extension CDStore.Model {
    /// A SwiftData model read from Swift sources: a `.swift` file or a folder of them, whose `@Model` classes (and
    /// the Codable structs and enums they use) are parsed, never compiled.
    ///
    /// `version` picks a `VersionedSchema` by type name (`"SchemaV2"`) or identifier (`"2.0.0"`); the latest is the
    /// default. `schema` picks, by the name of the declaration holding it, one of several `Schema([…])` or
    /// `ModelContainer(for: …)` literals, or a `VersionedSchema` by its type name; a name the sources do not have is
    /// an error listing the names they do. The same as `.file(ModelFile(contentsOf: path, version:, schema:,
    /// readers: .swiftData))`.
    ///
    /// It lives in `CDStoreSwiftData` (`import CDStoreSwiftData`) so that programs that never read Swift sources
    /// do not carry swift-syntax.
    ///
    /// ```swift
    /// let store = try CDStore(path: "Seed.store", model: .swiftData("App/Models", version: "2.0.0"),
    ///                         options: [.create])
    /// ```
    ///
    /// A store created with such a model is laid out as SwiftData lays out its own (persistent-history tables
    /// included), so the app opens it without a migration.
    ///
    /// - Throws: ``CDStoreError`` with code ``CDStoreError/Code/invalidModel`` for a file that does not parse
    ///   (with its file, line and column), a property type SwiftData cannot store (naming it and why) or a
    ///   `version` or `schema` the sources do not have, or
    ///   ``CDStoreError/Code/cannotOpen`` when nothing is at the path.
    ///
    /// SwiftData equivalent: `Schema([…])` / `Schema(versionedSchema:)` handed to `ModelContainer`.
    public static func swiftData(_ path: String, version: String? = nil, schema: String? = nil) throws -> Self {
        .file(try ModelFile(contentsOf: path, version: version, schema: schema, readers: .swiftData))
    }
}
