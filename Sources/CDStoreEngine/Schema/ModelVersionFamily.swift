import CDStoreModel
import Foundation

/// The versions a destination model is one of, oldest first, and how to read each: the `.xcdatamodel`s of an
/// `.xcdatamodeld`, or the `VersionedSchema`s of SwiftData sources (in their `SchemaMigrationPlan`'s order). A
/// migration finds the store's version among them and may go through the ones in between.
package struct ModelVersionFamily {
    package let names: [String]
    /// For SwiftData sources: the plan's stages between versions.
    package let stages: [SchemaMigrationStage]
    private let read: (String) throws -> LoadedModel

    package init?(of destination: LoadedModel) {
        if let bundle = Store.bundleURL(of: destination) {
            guard let names = try? ModelLoader.versions(ofBundle: bundle) else { return nil }
            self.names = names
            stages = []
            read = { try ModelLoader.load(bundle.path, version: $0) }
        } else if destination.format == .swiftSource, destination.availableVersions.count > 1 {
            names = destination.availableVersions
            stages = destination.migrationStages
            let sources = destination.file
            let reader = destination.swiftReader
            read = { try SwiftSources.load(sources, version: $0, schema: nil, reader: reader) }
        } else {
            return nil
        }
    }

    package func load(_ name: String) throws -> LoadedModel { try read(name) }

    /// Refuses going from version `start` to version `end` (indexes in ``names``) when a custom stage of the
    /// migration plan lies on the way: SwiftData would run the app's own code there (`willMigrate`/`didMigrate`),
    /// which cdstore cannot, as it cannot run a mapping model's custom migration policy. Lightweight stages, and
    /// steps the plan leaves to SwiftData's inference, are migrations cdstore runs.
    package func checkStages(from start: Int, to end: Int, sourceName: String) throws {
        guard start < end else { return }
        func index(_ name: String) -> Int? { names.firstIndex(of: name) }
        for stage in stages where !stage.isLightweight {
            guard let from = index(stage.from), let to = index(stage.to), from >= start, to <= end, from < to else {
                continue
            }
            throw StoreError(.modelMismatch, "the store was saved with \(sourceName); migrating it to \"\(names[end])\" "
                             + "goes through \(stage.described) from \(stage.from) to \(stage.to), which runs the app's "
                             + "own code: cdstore runs only lightweight stages (as it runs no custom migration policy); "
                             + "let the app migrate the store, or make the stage lightweight")
        }
    }
}
