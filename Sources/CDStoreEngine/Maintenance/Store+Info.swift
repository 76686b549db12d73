import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// What a store is: its metadata, its kind, where its model came from, and per entity its number, version hash
/// against the model and object count. ``CDStore/info()`` reads it.
///
/// Core Data equivalent: `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)`, plus counts.
public struct StoreInfo: Sendable {
    /// One entity of the store: its number, its hashes and its objects.
    public struct EntityInfo: Sendable {
        /// The entity's name.
        public var name: String
        /// `Z_ENT`.
        public var number: Int
        /// The parent's `Z_ENT`, 0 for a root.
        public var superNumber: Int
        /// The hash in the store's metadata (base64), nil when the metadata has none for it.
        public var storedHash: String?
        /// Whether the stored hash equals the model's.
        public var hashMatches: Bool
        /// Objects of exactly this entity (not of its sub-entities); nil when the information was read without
        /// counting rows.
        public var objects: Int?
        /// `Z_MAX`: the largest primary key handed out (only the root of a hierarchy carries it).
        public var maxPrimaryKey: Int64
    }

    /// Where the model the store was read with came from.
    public enum ModelSource: String, Sendable {
        /// The caller gave it.
        case given
        /// The JSON model cdstore keeps in the metadata of stores it made.
        case cdstoreCache
        /// The model Core Data caches in the store (`Z_MODELCACHE`).
        case coreDataCache
        /// Read back from the store's tables because the store carries no model and none was given.
        case inferredFromTables
    }

    /// The store file.
    public var path: String
    /// `NSStoreUUID`.
    public var uuid: String
    /// `NSStoreType` (`SQLite`), nil when the metadata has none.
    public var storeType: String?
    /// The Core Data framework version that wrote the store (`NSPersistenceFrameworkVersion`).
    public var frameworkVersion: Int?
    /// The model's version identifiers (`NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: [String]
    /// `NSStoreModelVersionHashesVersion`.
    public var hashesVersion: Int?
    /// SQLite's journal mode (`wal`, `delete`).
    public var journalMode: String
    /// SQLite's `auto_vacuum` setting.
    public var autoVacuum: Int
    /// SQLite's page size.
    public var pageSize: Int
    /// Whether the store carries Core Data's model cache (`Z_MODELCACHE` with content).
    public var hasCoreDataModelCache: Bool
    /// Whether the store carries cdstore's JSON model in its metadata.
    public var hasCDStoreModel: Bool
    /// Where the model used to read the store came from.
    public var modelSource: ModelSource
    /// Core Data or SwiftData, CloudKit mirroring, persistent history.
    public var kind: StoreKind
    /// The metadata's keys, sorted.
    public var metadataKeys: [String]
    /// The model's entities, in `Z_ENT` order.
    public var entities: [EntityInfo]
    /// Entities Core Data adds in `Z_PRIMARYKEY` (numbers from 16000: persistent history, CloudKit mirroring), with
    /// the row counts of their `A…` tables (nil when the information was read without counting rows).
    public var historyEntities: [(name: String, number: Int, rows: Int?)]

    /// Whether the model's hashes say anything: a model inferred from the tables has none of its own.
    public var hashesChecked: Bool { modelSource != .inferredFromTables }
    /// Whether every entity's stored hash equals the model's.
    public var hashesMatch: Bool { entities.allSatisfy(\.hashMatches) }
}

extension Store {
    /// The store's metadata, model hashes against its metadata, and, when `countingRows`, row counts per entity
    /// (a `COUNT(*)` per table: the one part whose time grows with the store).
    ///
    /// Core Data equivalent: `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)` plus counts.
    package func info(countingRows: Bool = true) throws -> StoreInfo {
        try read { db in
            let stored = metadata.entityHashes
            let current = VersionHasher.entityHashes(of: model).mapValues { Data($0) }
            let primaryKeys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            var entities: [StoreInfo.EntityInfo] = []
            for entity in layout.entities {
                let objects = countingRows
                    ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.table) WHERE Z_ENT = ?", arguments: [entity.number]) ?? 0
                    : nil
                let row = primaryKeys.first { ($0["Z_ENT"] as Int) == entity.number }
                entities.append(StoreInfo.EntityInfo(
                    name: entity.name, number: entity.number, superNumber: entity.superNumber,
                    storedHash: stored[entity.name]?.base64EncodedString(),
                    hashMatches: stored[entity.name] != nil && stored[entity.name] == current[entity.name],
                    objects: objects, maxPrimaryKey: row?["Z_MAX"] ?? 0))
            }
            var history: [(String, Int, Int?)] = []
            for row in primaryKeys where (row["Z_ENT"] as Int) >= 16000 {
                let name: String = row["Z_NAME"] ?? ""
                let table = "A" + name.uppercased()
                let rows = !countingRows ? nil
                    : try db.hasTable(table) ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 : 0
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
                modelSource: StoreInfo.ModelSource(rawValue: modelSource.rawValue) ?? .given, kind: try kind(db), metadataKeys: metadata.plist.map { Array($0.keys).sorted() } ?? [],
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
