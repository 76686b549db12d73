import CDStoreJSON
import CDStoreModel
import Foundation
package import GRDB

/// The model a store was saved with.
package struct SourceModel {
    package var loaded: LoadedModel
    /// Its name for messages: the version name, or "the model cached in the store".
    package var name: String
    /// Its version index in the destination's `.xcdatamodeld`, when it is one of its versions.
    package var versionIndex: Int?
}

// The version of a model a store was saved with: what a mismatch names, what a read-only open reads with and where
// a migration starts.
extension Store {
    /// Finds the model the store was saved with (see ``migrate(at:to:options:)``).
    package static func sourceModel(metadata: StoreMetadata, database: DatabaseQueue, destination: LoadedModel, path: String) throws -> SourceModel {
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
    package static func bundleURL(of loaded: LoadedModel) -> URL? {
        var url = loaded.file
        for _ in 0..<3 {
            if url.pathExtension == "xcdatamodeld" { return url }
            url = url.deletingLastPathComponent()
        }
        return nil
    }
}
