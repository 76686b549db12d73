import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// Why a given model does not fit a store (Core Data error 134100), said so that users know which model
/// version they need: the entities whose version hash differs or that exist on one side only and, when the
/// store's own model can be found (a version of the given bundle, cdstore's cached model or `Z_MODELCACHE`),
/// every change from it to the given model (``ModelDiff``).
struct ModelMismatch {
    /// Entities in both whose hashes differ, sorted.
    var changed: [String] = []
    /// Entities the store has and the given model lacks.
    var onlyInStore: [String] = []
    /// Entities the given model has and the store lacks.
    var onlyInModel: [String] = []
    /// The model the store was saved with, when found.
    var source: SourceModel?
    /// The changes from ``source`` to the given model, one line each.
    var changes: [String] = []

    init(metadata: StoreMetadata, database: DatabaseQueue, given: LoadedModel, path: String) {
        let stored = metadata.entityHashes
        let current = VersionHasher.entityHashes(of: given.model).mapValues { Data($0) }
        for name in Set(stored.keys).union(current.keys).sorted() {
            switch (stored[name], current[name]) {
            case (nil, _): onlyInModel.append(name)
            case (_, nil): onlyInStore.append(name)
            case let (a, b) where a != b: changed.append(name)
            default: break
            }
        }
        source = try? Store.sourceModel(metadata: metadata, database: database, destination: given, path: path)
        if let source {
            changes = ModelDiff.changes(from: source.loaded.model, to: given.model).map(\.description)
        }
    }

    /// The entities part: `entity hashes differ for A, B; only in the store: C; only in the model given: D`.
    var entitySummary: String {
        var parts: [String] = []
        if !changed.isEmpty { parts.append("entity hashes differ for " + changed.joined(separator: ", ")) }
        if !onlyInStore.isEmpty { parts.append("only in the store: " + onlyInStore.joined(separator: ", ")) }
        if !onlyInModel.isEmpty { parts.append("only in the model given: " + onlyInModel.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    /// The whole message, `reason` following the error number (e.g. ` and migration is off`), then
    /// the entities, then one indented line per change, then `advice` on a line of its own.
    func message(reason: String = "", advice: String? = nil) -> String {
        var text = "the store was saved with a different model (Core Data error 134100)\(reason): \(entitySummary)"
        if let source, !changes.isEmpty {
            text += "; differences from \(source.name):\n  " + changes.joined(separator: "\n  ")
        } else if source == nil {
            text += "; the store carries no model of its own to compare the given one with"
        }
        if let advice { text += (changes.isEmpty ? "; " : "\n") + advice }
        return text
    }
}
