import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// What `cdstore info` shows about a store.
package struct StoreInfo: Sendable {
    /// One entity's line: its number, its hashes and its objects.
    package struct EntityInfo: Sendable {
        package var name: String
        /// `Z_ENT`.
        package var number: Int
        /// The parent's `Z_ENT`, 0 for a root.
        package var superNumber: Int
        /// The hash in the store's metadata (base64), nil when the metadata has none for it.
        package var storedHash: String?
        /// Whether the stored hash equals the model's.
        package var hashMatches: Bool
        /// Objects of exactly this entity.
        package var objects: Int
        /// `Z_MAX` (only the root row of a hierarchy carries it).
        package var maxPrimaryKey: Int64
    }

    package var path: String
    package var uuid: String
    package var storeType: String?
    package var frameworkVersion: Int?
    package var versionIdentifiers: [String]
    package var hashesVersion: Int?
    package var journalMode: String
    package var autoVacuum: Int
    package var pageSize: Int
    /// Whether the store carries Core Data's model cache (`Z_MODELCACHE` with content).
    package var hasCoreDataModelCache: Bool
    /// Whether the store carries cdstore's JSON model in its metadata.
    package var hasCDStoreModel: Bool
    /// Where the model used to read the store came from.
    package var modelSource: Store.ModelSource
    /// Core Data or SwiftData, CloudKit mirroring, persistent history.
    package var kind: StoreKind
    /// Metadata keys, sorted.
    package var metadataKeys: [String]
    package var entities: [EntityInfo]
    /// Ancillary entities in `Z_PRIMARYKEY` (numbers from 16000: persistent history, CloudKit mirroring), with
    /// the row counts of their `A…` tables.
    package var historyEntities: [(name: String, number: Int, rows: Int)]

    /// Whether the model's hashes say anything: a model inferred from the tables has none of its own.
    package var hashesChecked: Bool { modelSource != .inferredFromTables }
    /// Whether every entity's stored hash equals the model's.
    package var hashesMatch: Bool { entities.allSatisfy(\.hashMatches) }
}

extension Store {
    /// The store's metadata, model hashes against its metadata, and row counts per entity.
    ///
    /// Core Data equivalent: `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)` plus counts.
    package func info() throws -> StoreInfo {
        try read { db in
            let stored = metadata.entityHashes
            let current = VersionHasher.entityHashes(of: model).mapValues { Data($0) }
            let primaryKeys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            var entities: [StoreInfo.EntityInfo] = []
            for entity in layout.entities {
                let objects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.table) WHERE Z_ENT = ?",
                                               arguments: [entity.number]) ?? 0
                let row = primaryKeys.first { ($0["Z_ENT"] as Int) == entity.number }
                entities.append(StoreInfo.EntityInfo(
                    name: entity.name, number: entity.number, superNumber: entity.superNumber,
                    storedHash: stored[entity.name]?.base64EncodedString(),
                    hashMatches: stored[entity.name] != nil && stored[entity.name] == current[entity.name],
                    objects: objects, maxPrimaryKey: row?["Z_MAX"] ?? 0))
            }
            var history: [(String, Int, Int)] = []
            for row in primaryKeys where (row["Z_ENT"] as Int) >= 16000 {
                let name: String = row["Z_NAME"] ?? ""
                let table = "A" + name.uppercased()
                let rows = try db.hasTable(table) ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 : 0
                history.append((name, row["Z_ENT"], rows))
            }
            let cacheBytes: Int = try db.hasTable("Z_MODELCACHE")
                ? try Int.fetchOne(db, sql: "SELECT LENGTH(Z_CONTENT) FROM Z_MODELCACHE LIMIT 1") ?? 0 : 0
            return StoreInfo(
                path: path, uuid: metadata.uuid, storeType: metadata.plist?["NSStoreType"] as? String,
                frameworkVersion: metadata.persistenceFrameworkVersion, versionIdentifiers: metadata.versionIdentifiers,
                hashesVersion: metadata.integer("NSStoreModelVersionHashesVersion"),
                journalMode: try fileJournalMode ?? (String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?"),
                autoVacuum: try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? 0,
                pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0,
                hasCoreDataModelCache: cacheBytes > 0, hasCDStoreModel: metadata.cachedModel != nil,
                modelSource: modelSource, kind: try kind(db), metadataKeys: metadata.plist.map { Array($0.keys).sorted() } ?? [],
                entities: entities, historyEntities: history)
        }
    }
}

extension Store {
    /// The journal mode the file's header records (bytes 18 and 19 are 2 in a WAL database), for an immutable open:
    /// SQLite's `immutable=1` reports `delete` whatever the file says.
    var fileJournalMode: String? {
        guard privateCopy != nil || isImmutable, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return nil }
        return header[18] == 2 && header[19] == 2 ? "wal" : nil
    }
}
