import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// The model a store carries: what ``open(at:loaded:options:)`` uses when no model is given — the model cached
    /// in `Z_MODELCACHE` (Core Data's, or cdstore's since decision 0008), else the JSON model earlier cdstore
    /// versions kept in the metadata.
    ///
    /// The store is opened read-only and never created, migrated or changed; `busyTimeout` (seconds) is how long
    /// to wait for a process that is committing to a rollback-journal store, and `immutable` reads it without
    /// changing a byte of it, its `-wal` or its `-shm` (``Options/immutable``). ``LoadedModel/file`` is the store,
    /// ``LoadedModel/format`` is ``ModelFormat/storeCache``, and the warnings are the store's (for example a cache
    /// whose hashes differ from the store's metadata). For a `Z_MODELCACHE` model, ``LoadedModel/propertyOrder``
    /// holds the archive's property order, so `StoreLayout(model:options:)` with it gives the store's layout.
    ///
    /// ```swift
    /// let cached = try Store.cachedModel(at: "App.sqlite")
    /// let hashes = VersionHasher.entityHashes(of: cached.model)   // the store's NSStoreModelVersionHashes
    /// ```
    ///
    /// A store that carries no model gives the model inferred from its tables (``ModelFormat/inferredFromTables``,
    /// with the store's warning saying so). Throws ``StoreError/Code/cannotOpen`` when there is no store at `path`
    /// or it is not a Core Data store.
    ///
    /// Core Data equivalent: `NSManagedObjectModel.mergedModel(from:forStoreMetadata:)` finding the model cached
    /// in the store.
    package static func cachedModel(at path: String, busyTimeout: TimeInterval = Store.defaultBusyTimeout,
                                   immutable: Bool = false) throws -> LoadedModel {
        let store = try open(at: path, loaded: nil, options: Options(readOnly: true, createIfMissing: false,
                                                                     busyTimeout: busyTimeout, immutable: immutable))
        // A store that carries no model is read by its tables: the model then says so in its format.
        var loaded = LoadedModel(model: store.model, file: URL(fileURLWithPath: path),
                                 format: store.modelSource == .inferredFromTables ? .inferredFromTables : .storeCache,
                                 warnings: store.warnings.map(\.description))
        if store.modelSource == .coreDataCache {
            loaded.propertyOrder = try store.modelCachePropertyOrder()
        }
        return loaded
    }

    /// The property order of the `Z_MODELCACHE` archive. The opened store keeps only the layout computed from it,
    /// so the cache is decoded once more here rather than changing how stores are opened.
    private func modelCachePropertyOrder() throws -> [String: [String]] {
        let blob = try database.read { db in try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") }
        guard let blob, !blob.isEmpty else { return [:] }
        return try ModelCacheDecoder.decode(blob, file: URL(fileURLWithPath: path + "#Z_MODELCACHE")).propertyOrder
    }
}
