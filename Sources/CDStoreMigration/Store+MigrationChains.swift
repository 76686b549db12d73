import CDStoreEngine
import CDStoreModel
import Foundation

// The ways from the version a store was saved with to the destination: the chains of versions to migrate through.
extension Store {
    /// The chains of models to try, in order: direct (when its mapping can be inferred from the models alone),
    /// then every version of the bundle in between (when the source is an earlier version of the bundle). A chain
    /// that fails for a 134190 reason found in the data is rolled back and the next one tried.
    ///
    /// SwiftData sources go through their migration plan's versions one stage at a time, as SwiftData does, and
    /// a custom stage on the way is refused (``ModelVersionFamily/checkStages(from:to:sourceName:)``).
    static func migrationChains(from source: SourceModel, to destination: LoadedModel) throws -> [[(LoadedModel, String)]] {
        let destinationName = destination.versionName.map { "\"\($0)\"" } ?? "the given model"
        let family = ModelVersionFamily(of: destination)
        let end = destination.versionName.flatMap { family?.names.firstIndex(of: $0) }
        if let start = source.versionIndex, let family, let end {
            try family.checkStages(from: start, to: end, sourceName: source.name)
        }
        var chains: [[(LoadedModel, String)]] = []
        var directError: StoreError?
        do {
            _ = try InferredMapping(source: source.loaded.model, destination: destination.model,
                                    sourceName: source.name, destinationName: destinationName)
            chains.append([(source.loaded, source.name), (destination, destinationName)])
        } catch let error as StoreError where error.coreDataCode == 134190 {
            directError = error
        }
        if let start = source.versionIndex, let family, let end, end > start + 1 {
            var chain: [(LoadedModel, String)] = [(source.loaded, source.name)]
            for version in family.names[(start + 1)...end] {
                chain.append((try family.load(version), "\"\(version)\""))
            }
            do {
                for (from, to) in zip(chain, chain.dropFirst()) {
                    _ = try InferredMapping(source: from.0.model, destination: to.0.model, sourceName: from.1, destinationName: to.1)
                }
                if destination.format == .swiftSource { chains.insert(chain, at: 0) } else { chains.append(chain) }
            } catch let error as StoreError where chains.isEmpty {
                throw directError ?? error
            } catch {}
        }
        if chains.isEmpty, let directError { throw directError }
        return chains
    }
}
