import CDStoreModel
import Foundation
internal import GRDB

/// Tells Core Data stores from other files by their content, and opens them for reading without changing a byte
/// of what it reads: for scanning folders of evidence, device images and backups.
///
/// A file is a Core Data store when it starts with SQLite's 16-byte header (`SQLite format 3\0`) and has Core
/// Data's `Z_METADATA` and `Z_PRIMARYKEY` tables; its name says nothing (real stores are named `.sqlite`, `.store`,
/// `.storedata`, `.db` or nothing). Every open is either SQLite's `immutable=1` on the file itself (no lock, no
/// `-shm`, no checkpoint) or, when a `-wal` or hot `-journal` holds data that must be seen, an ordinary read of a
/// private copy in a temporary folder.
package enum StoreProbe {
    /// What a file turned out to be.
    package enum Finding {
        /// Not an SQLite database (an image, a plist, an empty file).
        case notSQLite
        /// An SQLite database without Core Data's tables (a cookie jar, Manifest.db, an app's own SQLite).
        case otherSQLite
        /// A Core Data store, opened for reading.
        case store(Store)
    }

    /// SQLite's file header: the first 16 bytes of every database file.
    static let header = Array("SQLite format 3\0".utf8)

    /// Whether the file at `path` starts with SQLite's header. Throws when the file cannot be read.
    package static func hasSQLiteHeader(_ path: String) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let bytes = try handle.read(upToCount: header.count) ?? Data()
        return Array(bytes) == header
    }

    /// Reads `path` and, when it is a Core Data store, opens it read-only with its own model.
    ///
    /// - Parameters:
    ///   - path: The main database file.
    ///   - wal: Its write-ahead log when it does not sit beside it as `PATH-wal` (a backup keeps the two as
    ///     separate files named by hashes); nil to use `PATH-wal` or `PATH-journal` when they hold data.
    /// - Throws: ``StoreError`` when the file cannot be read or SQLite finds it damaged.
    package static func probe(_ path: String, wal: String? = nil) throws -> Finding {
        guard try hasSQLiteHeader(path) else { return .notSQLite }
        let copy = try privateCopy(of: path, wal: wal)
        let readPath = copy?.path ?? path
        do {
            var configuration = Store.configuration(readOnly: true, busyTimeout: 0)
            // The copy is ours: SQLite may build its -shm there.
            configuration.readonly = copy == nil
            let queue = try DatabaseQueue(path: copy == nil ? Store.immutableURI(path) : readPath, configuration: configuration)
            let isCoreData = try queue.read { db in try db.hasTable("Z_METADATA") && db.hasTable("Z_PRIMARYKEY") }
            try queue.close()
            guard isCoreData else { return .otherSQLite }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "\(path) is damaged (\(Store.describe(error)))")
        }
        let options = Store.Options(readOnly: true, createIfMissing: false, busyTimeout: 0,
                                    immutable: copy == nil)
        return .store(try Store.open(at: readPath, loaded: nil, options: options, adopting: copy))
    }

    /// A private copy of `path` with the log that holds data (`wal`, or `PATH-wal`/`PATH-journal`), or nil when
    /// no log holds any and the file can be read in place.
    private static func privateCopy(of path: String, wal: String?) throws -> PrivateStoreCopy? {
        do {
            if let wal {
                guard fileSize(wal) > 0 else { return nil }
                let copy = try PrivateStoreCopy(of: path, companion: "")
                try FileManager.default.copyItem(atPath: wal, toPath: copy.path + "-wal")
                return copy
            }
            for companion in ["-wal", "-journal"] where fileSize(path + companion) > 0 {
                return try PrivateStoreCopy(of: path, companion: companion)
            }
            return nil
        } catch {
            throw StoreError(.cannotOpen, "cannot copy \(path) to read it with its log (\(error.localizedDescription))")
        }
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// What a scan reports of an opened store besides its place: kind, model source and objects per entity.
package struct StoreSummary: Sendable {
    /// What wrote the store (``StoreKind``).
    package var kind: StoreKind
    /// Objects of exactly each concrete entity, in the model's order.
    package var counts: [(entity: String, objects: Int)]
}

extension Store {
    /// The store's kind and the number of objects of exactly each concrete entity (one `COUNT` per entity).
    package func summary() throws -> StoreSummary {
        try read { db in
            let storeKind = try kind(db)
            var counts: [(entity: String, objects: Int)] = []
            for entity in layout.entities where !entity.isAbstract {
                let sql = "SELECT COUNT(*) FROM \(entity.table) WHERE Z_ENT = ?"
                counts.append((entity.name, try Int.fetchOne(db, sql: sql, arguments: [entity.number]) ?? 0))
            }
            return StoreSummary(kind: storeKind, counts: counts)
        }
    }
}
