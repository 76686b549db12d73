import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

extension Store {
    /// Creates a new, empty store laid out as Core Data lays out `loaded` (coredata-format.md §1.12): incremental
    /// auto-vacuum and 4 KiB pages before the first table, WAL, `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE` with
    /// the model's cache (``keepModel(_:in:metadata:)``), the entity tables, join tables and indexes; for a
    /// SwiftData model (read from `@Model` sources) also the persistent-history tables SwiftData creates.
    static func create(at path: String, loaded: LoadedModel, uuid: String?,
                       busyTimeout: TimeInterval = Store.defaultBusyTimeout,
                       readsMissingExternalDataAsNull: Bool = true) throws -> Store {
        let model = loaded.model
        let layout = StoreLayout(model: model, options: .init(propertyOrder: loaded.propertyOrder))
        var metadata = try StoreMetadata.new(for: model, uuid: uuid ?? UUID().uuidString)
        var warnings: [String] = []
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: path, configuration: configuration(readOnly: false, busyTimeout: busyTimeout))
            try database.writeWithoutTransaction { db in
                // auto_vacuum only takes effect before the first table exists; WAL cannot change inside a transaction.
                try db.execute(sql: "PRAGMA auto_vacuum = 2")
                try db.execute(sql: "PRAGMA page_size = 4096")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.inTransaction {
                    try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
                    try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
                    warnings = try keepModel(model, in: db, metadata: &metadata)
                    for statement in layout.createStatements { try db.execute(sql: statement) }
                    // SwiftData's containers track persistent history: its stores have the tables from the start.
                    if loaded.format == .swiftSource {
                        for statement in HistoryTables.createStatements { try db.execute(sql: statement) }
                    }
                    for entity in layout.entities {
                        try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                       arguments: [entity.number, entity.name, entity.superNumber])
                    }
                    try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                   arguments: [metadata.uuid, try metadata.encodedPlist()])
                    return .commit
                }
            }
        } catch {
            // A store that could not be laid out is not left behind half made.
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            if let error = error as? StoreError { throw error }
            throw StoreError(.cannotOpen, "cannot create a store at \(path): \(error)")
        }
        return Store(path: path, model: model, layout: layout, metadata: metadata, database: database, wasCreated: true,
                     isReadOnly: false, modelSource: .given,
                     warnings: warnings.map { StoreWarning(.modelCacheIncomplete, $0) }, busyTimeout: busyTimeout,
                     readsMissingExternalDataAsNull: readsMissingExternalDataAsNull)
    }
}
