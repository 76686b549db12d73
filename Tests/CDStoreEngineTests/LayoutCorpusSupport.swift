import CDStoreModel
import Foundation
import CDStoreTestSupport
import GRDB
@testable import CDStoreEngine

/// Real stores of the shared corpus and what their `sqlite_master` says, for the layout tests.
enum LayoutCorpus {
    /// The corpus folder (`CDSTORE_CORPUS` overrides it, through ``Corpus/root``).
    static let folder = Corpus.root

    /// A store of the manifest with the model version it was written with.
    struct StoreItem: Sendable, CustomStringConvertible {
        var path: String
        var companions: [String]
        var modelVersion: String
        var frameworkVersion: Int
        var description: String { path }

        var url: URL { folder.appendingPathComponent(path) }
        var name: String { url.lastPathComponent }
    }

    /// The manifest's stores of kind "store" that name a `matches_model_version` (``CorpusMissing`` when none do).
    static func stores() throws -> [StoreItem] {
        try Corpus.nonEmpty(Corpus.manifestItems(kind: "store").compactMap { item in
            guard let path = item["path"] as? String,
                  let version = item["matches_model_version"] as? String else { return nil }
            let metadata = item["Z_METADATA"] as? [String: Any]
            return StoreItem(path: path, companions: item["companion_files"] as? [String] ?? [],
                             modelVersion: version,
                             frameworkVersion: metadata?["NSPersistenceFrameworkVersion"] as? Int ?? 0)
        }, "no store with a matches_model_version in manifest.json", in: folder)
    }

    /// Copies the store (with `-wal`, `-shm`, `-journal` when present) into a fresh temporary folder and opens the
    /// copy: the corpus files are never opened themselves.
    static func openCopy(of store: StoreItem) throws -> (DatabaseQueue, URL) {
        guard FileManager.default.fileExists(atPath: store.url.path) else {
            throw CorpusMissing(folder: store.url.deletingLastPathComponent().path, wanted: "no \(store.name)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("layout-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent(store.name)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let source = URL(fileURLWithPath: store.url.path + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: copy.path + suffix))
            }
        }
        return (try DatabaseQueue(path: copy.path), directory)
    }

    /// What a real store contains.
    struct Schema {
        /// Entity tables and join tables (`Z*` minus the system tables), columns in order.
        var tables: [String: [TableLayout.Column]] = [:]
        /// Those tables in `sqlite_master` order.
        var tableOrder: [String] = []
        /// `Z_PRIMARYKEY` rows below 16000: name → (Z_ENT, Z_SUPER).
        var entities: [String: (number: Int, superNumber: Int)] = [:]
        /// Index name → normalised `CREATE INDEX` text, for indexes on those tables.
        var indexes: [String: String] = [:]
        /// Whether a system table was created before an entity table: the store was rebuilt by a migration
        /// (a fresh store gets its entity tables first), so creation order says nothing.
        var isRebuilt = false
    }

    static let systemTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    static func schema(_ db: Database) throws -> Schema {
        var schema = Schema()
        var sawSystemTable = false
        for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid") {
            let type: String = row["type"], name: String = row["name"], table: String = row["tbl_name"]
            if type == "table", systemTables.contains(name) { sawSystemTable = true }
            guard table.hasPrefix("Z"), !systemTables.contains(table) else { continue }
            if type == "table", sawSystemTable { schema.isRebuilt = true }
            if type == "table" {
                schema.tableOrder.append(name)
                schema.tables[name] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name.quotedDatabaseIdentifier))")
                    .map { TableLayout.Column(name: $0["name"], type: $0["type"]) }
            } else if type == "index", let sql: String = row["sql"] {
                schema.indexes[name] = normalizedSQL(sql)
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
            schema.entities[row["Z_NAME"]] = (row["Z_ENT"], row["Z_SUPER"])
        }
        return schema
    }

    /// SQL text with whitespace runs collapsed and no blanks next to parentheses and commas.
    static func normalizedSQL(_ sql: String) -> String {
        var text = sql.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        for mark in ["(", ")", ","] {
            text = text.replacingOccurrences(of: " " + mark, with: mark)
                .replacingOccurrences(of: mark + " ", with: mark)
        }
        return text
    }

    /// The differences between a computed layout and a real store's tables and entity numbers; empty when the
    /// layout matches exactly (names and declared types; order is checked separately).
    static func differences(_ layout: StoreLayout, _ schema: Schema) -> [String] {
        var problems: [String] = []
        for entity in layout.entities {
            guard let row = schema.entities[entity.name] else {
                problems.append("entity \(entity.name) #\(entity.number) missing from Z_PRIMARYKEY")
                continue
            }
            if row.number != entity.number || row.superNumber != entity.superNumber {
                problems.append("entity \(entity.name): store Z_ENT \(row.number)/Z_SUPER \(row.superNumber), "
                                + "layout \(entity.number)/\(entity.superNumber)")
            }
        }
        for name in schema.entities.keys where layout.entity(named: name) == nil {
            problems.append("entity \(name) only in the store")
        }
        let predicted = Dictionary(uniqueKeysWithValues: layout.tables.map { ($0.name, $0.columns) })
        for name in Set(predicted.keys).union(schema.tables.keys).sorted() {
            switch (predicted[name], schema.tables[name]) {
            case (let p?, let s?):
                let pd = Dictionary(uniqueKeysWithValues: p.map { ($0.name, $0.type) })
                let sd = Dictionary(uniqueKeysWithValues: s.map { ($0.name, $0.type) })
                if pd != sd {
                    let storeOnly = sd.filter { pd[$0.key] != $0.value }.sorted { $0.key < $1.key }
                    let layoutOnly = pd.filter { sd[$0.key] != $0.value }.sorted { $0.key < $1.key }
                    problems.append("table \(name): store-only \(storeOnly), layout-only \(layoutOnly)")
                }
            case (let p?, nil): problems.append("table \(name) \(p.map(\.name)) not in the store")
            case (nil, let s?): problems.append("table \(name) \(s.map(\.name)) not predicted")
            case (nil, nil): break
            }
        }
        return problems
    }
}
