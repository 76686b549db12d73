import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

// Where a migration starts and the ways to the destination: the version the store was saved with, and the chains
// of versions to migrate through.
extension Store {
    /// Finds the model the store was saved with (see ``migrate(at:to:options:)``).
    static func sourceModel(metadata: StoreMetadata, database: DatabaseQueue, destination: LoadedModel, path: String) throws -> SourceModel {
        if let family = ModelVersionFamily(of: destination) {
            for (index, version) in family.names.enumerated() {
                guard let loaded = try? family.load(version) else { continue }
                if metadata.hashDifferences(from: loaded.model).isEmpty {
                    return SourceModel(loaded: loaded, name: "\"\(version)\"", versionIndex: index)
                }
            }
        }
        let identifiers = metadata.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", ")
        if let loaded = matchingModelCache(database, metadata: metadata, path: path) {
            return SourceModel(loaded: loaded, name: "the model in Z_MODELCACHE [\(identifiers)]", versionIndex: nil)
        }
        if let cached = metadata.cachedModel,
           let loaded = try? JSONModelCodec.decode(cached, file: URL(fileURLWithPath: path)) {
            return SourceModel(loaded: loaded, name: "the model cached in the store [\(identifiers)]", versionIndex: nil)
        }
        throw StoreError(.noModel, "cannot find the model the store was saved with (Core Data error 134130): no version of "
                         + "\(destination.file.path) matches its version hashes and the store carries no model; the store's "
                         + "model version identifiers are [\(identifiers)]").coreData(134130)
    }

    /// The `.xcdatamodeld` a loaded model version comes from.
    static func bundleURL(of loaded: LoadedModel) -> URL? {
        var url = loaded.file
        for _ in 0..<3 {
            if url.pathExtension == "xcdatamodeld" { return url }
            url = url.deletingLastPathComponent()
        }
        return nil
    }

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
