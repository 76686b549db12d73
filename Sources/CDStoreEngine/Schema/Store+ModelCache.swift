import CDStoreJSON
import CDStoreModel
import Foundation
package import GRDB

/// The model a store carries: Core Data's `Z_MODELCACHE`, which cdstore writes in every store it creates, seeds
/// or migrates (docs/decisions/0008-model-cache-written.md), and the JSON model under the metadata key
/// `cdstore.model` that stores made by earlier versions of cdstore carry instead (0002, superseded).
///
/// `Z_MODELCACHE` is created as in every Apple-written store of the corpus — `CREATE TABLE Z_MODELCACHE
/// (Z_CONTENT BLOB)`, right after `Z_METADATA`, one row — holding ``ModelCacheEncoder``'s raw-DEFLATE keyed
/// archive of the model.
extension Store {
    /// The DDL of Core Data's model cache table, as `sqlite_master` shows it in the corpus stores.
    static let modelCacheTableSQL = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Makes the store carry `model`: replaces the `Z_MODELCACHE` row (creating the table if the store has none)
    /// and drops a JSON model from `metadata`, inside the caller's transaction. A model the cache cannot hold
    /// (a predicate construct the archiver does not write) is kept as JSON under `cdstore.model` instead, as
    /// before, and the cache row is removed so that no stale model is left. Returns warnings for the user.
    package static func keepModel(_ model: ManagedObjectModel, in db: Database, metadata: inout StoreMetadata) throws -> [String] {
        let encoded: ModelCacheEncoder.Result
        do {
            encoded = try ModelCacheEncoder.encode(model, predicates: PredicateArchiver())
        } catch let error as ModelError {
            if try db.hasTable("Z_MODELCACHE") { try db.execute(sql: "DELETE FROM Z_MODELCACHE") }
            try metadata.keepJSONModel(model)
            return ["the model cannot be written as Core Data's model cache (\(error)); it is kept in the metadata "
                    + "as cdstore's JSON model instead"]
        }
        if try !db.hasTable("Z_MODELCACHE") { try db.execute(sql: modelCacheTableSQL) }
        try db.execute(sql: "DELETE FROM Z_MODELCACHE")
        try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [encoded.data])
        metadata.plist?.removeValue(forKey: StoreMetadata.cachedModelKey)
        return encoded.warnings.map { "model cache: " + $0 }
    }

    /// The `Z_MODELCACHE` content, nil when the store has no such table, no row or an empty one.
    static func modelCacheContent(_ db: Database) throws -> Data? {
        guard try db.hasTable("Z_MODELCACHE") else { return nil }
        guard let blob = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1"), !blob.isEmpty else {
            return nil
        }
        return blob
    }

    /// The model in `Z_MODELCACHE` when it is readable and its entity hashes are the store's — the model the
    /// store was last saved with. Nil otherwise.
    static func matchingModelCache(_ database: DatabaseQueue, metadata: StoreMetadata, path: String) -> LoadedModel? {
        guard metadata.plist != nil,
              let blob = try? database.read({ db in try modelCacheContent(db) }),
              let loaded = try? ModelCacheDecoder.decode(blob, file: URL(fileURLWithPath: path + "#Z_MODELCACHE")),
              metadata.hashDifferences(from: loaded.model).isEmpty else { return nil }
        return loaded
    }

    /// Whether a store that has both models should be read with its `Z_MODELCACHE` rather than the JSON under
    /// `cdstore.model`: when the cache matches the store's hashes. A Core Data app that saves a store cdstore made
    /// rewrites the cache but keeps unknown metadata keys, so the JSON can be stale; the cache cannot be.
    static func modelCacheSupersedesJSON(_ database: DatabaseQueue, metadata: StoreMetadata, path: String) -> Bool {
        matchingModelCache(database, metadata: metadata, path: path) != nil
    }
}
