import CDStoreModel
import CDStoreEngine
import CDStoreTestSupport
import Foundation
import GRDB

/// A folder laid out as the places stores are found in, for `scan`, `--store @ID` and the library's scanner:
///
/// - `Devices/`, a simulator devices folder: device D1 with `com.example.notes` installed twice (an older
///   container with 2 notes, the current one with 3 notes and 1 tag), its app group `group.com.example.notes`
///   (`Shared.store`, 1 note) and, beside the store, a cookie file, an SQLite cache that is not Core Data and
///   an empty file; device D2 with `com.example.todo`, whose store `Todo` (no extension) has its last commit
///   (a 5th note) only in its `-wal`, and `com.example.multi` with two stores (`A.sqlite`, `B.sqlite`).
/// - `Mac/Library/Containers/com.example.mac/…/Mac.storedata` (1 note) and
///   `Mac/Library/Group Containers/group.com.example.mac/Shared.db` (2 notes).
/// - `Backup/`, an iOS backup: `Manifest.db` and hashed files for `AppDomain-com.example.backup`
///   (`Library/Application Support/Backup.sqlite`, 2 notes in the main file and a 3rd in its `-wal` entry),
///   `AppDomainGroup-group.com.example.backup` (`Library/Group.sqlite`, 1 note), and a `HomeDomain` SQLite file
///   that is not Core Data.
/// - `damaged.sqlite` (SQLite's header, then garbage) and `unreadable.sqlite` (a store, mode 000).
struct ScanTree {
    static let model = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [
          {"name": "Note", "attributes": [{"name": "title", "type": "String", "optional": true},
                                          {"name": "pinned", "type": "Boolean", "optional": true},
                                          {"name": "created", "type": "Date", "optional": true}]},
          {"name": "Tag", "attributes": [{"name": "name", "type": "String", "optional": true}]}]}
        """

    /// One store the tree holds, as `scan` must report it.
    struct Expected {
        var path: String
        var app: String?
        var notes: Int
        var tags: Int
        var domain: String? = nil
        var relativePath: String? = nil
    }

    let root: URL
    let modelPath: String
    /// Every Core Data store of the tree (not the damaged or unreadable file).
    var stores: [Expected] = []

    init() throws {
        root = try temporaryDirectory()
        modelPath = try temporaryDirectory().appendingPathComponent("Notes.json").path
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: modelPath))
        let d1 = "Devices/D1/data/Containers"
        let old = try container("\(d1)/Data/Application/0A1B2C3D-0000-0000-0000-000000000001", id: "com.example.notes")
        try makeStore(old + "/Library/Application Support/Notes.sqlite", notes: 2, app: "com.example.notes")
        try setDate(old + "/Library/Application Support/Notes.sqlite", secondsAgo: 86400)
        let current = try container("\(d1)/Data/Application/0A1B2C3D-0000-0000-0000-000000000002", id: "com.example.notes")
        try makeStore(current + "/Library/Application Support/Notes.sqlite", notes: 3, tags: 1, app: "com.example.notes")
        try write(current + "/Library/Cookies/Cookies.binarycookies", Data("cook\0\0\0\u{1}".utf8))
        try write(current + "/Library/Caches/empty", Data())
        try otherSQLite(current + "/Library/Caches/cache.db")
        let group = try container("\(d1)/Shared/AppGroup/0A1B2C3D-0000-0000-0000-0000000000AA", id: "group.com.example.notes")
        try makeStore(group + "/Library/Shared.store", notes: 1, app: "group.com.example.notes")
        let d2 = "Devices/D2/data/Containers"
        let todo = try container("\(d2)/Data/Application/0A1B2C3D-0000-0000-0000-000000000003", id: "com.example.todo")
        try makeStore(todo + "/Documents/Todo", notes: 4, app: "com.example.todo")
        try commitIntoWAL(todo + "/Documents/Todo")
        stores[stores.count - 1].notes = 5
        let multi = try container("\(d2)/Data/Application/0A1B2C3D-0000-0000-0000-000000000004", id: "com.example.multi")
        try makeStore(multi + "/Library/A.sqlite", notes: 1, app: "com.example.multi")
        try makeStore(multi + "/Library/B.sqlite", notes: 2, app: "com.example.multi")
        try makeStore("Mac/Library/Containers/com.example.mac/Data/Library/Application Support/Mac.storedata", notes: 1,
                      app: "com.example.mac")
        try makeStore("Mac/Library/Group Containers/group.com.example.mac/Shared.db", notes: 2, app: "group.com.example.mac")
        try makeBackup()
        var damaged = Data("SQLite format 3\0".utf8)
        damaged.append(Data(repeating: 0xA5, count: 4080))
        try write("damaged.sqlite", damaged)
        try makeStore("unreadable.sqlite", notes: 1, app: nil)
        stores.removeLast()
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path("unreadable.sqlite"))
    }

    func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : root.appendingPathComponent(relative).path
    }

    /// A container folder with its metadata plist naming `id` (binary, as devices write it).
    private func container(_ relative: String, id: String) throws -> String {
        let plist = try PropertyListSerialization.data(fromPropertyList: ["MCMMetadataIdentifier": id, "MCMMetadataVersion": 6],
                                                       format: .binary, options: 0)
        try write(relative + "/.com.apple.mobile_container_manager.metadata.plist", plist)
        return relative
    }

    /// A store with `notes` notes and `tags` tags, closed (so its `-wal` is gone).
    private mutating func makeStore(_ relative: String, notes: Int, tags: Int = 0, app: String?) throws {
        let file = path(relative)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let store = try Store.open(at: file, loaded: try ModelLoader.load(modelPath))
            try store.insert((0..<notes).map { InputRecord(fields: [("title", .string("note \($0)"))]) }, into: "Note")
            try store.insert((0..<tags).map { InputRecord(fields: [("name", .string("tag \($0)"))]) }, into: "Tag")
        }
        stores.append(Expected(path: file, app: app, notes: notes, tags: tags))
    }

    /// Commits one more note that stays in the store's `-wal`, as a device copied mid-use leaves it: a second
    /// connection keeps the log from being checkpointed while the files are copied aside and back.
    private func commitIntoWAL(_ relative: String) throws {
        let file = path(relative)
        let writer = try DatabaseQueue(path: file)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            let max = try Int.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZNOTE") ?? 0
            try db.execute(sql: "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, 1, 1, 'only in the wal')", arguments: [max + 1])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Note'", arguments: [max + 1])
        }
        let aside = file + ".copy"
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: file + suffix, toPath: aside + suffix) }
        try writer.close()
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file + suffix) {
            try FileManager.default.removeItem(atPath: file + suffix)
        }
        for suffix in ["", "-wal"] { try FileManager.default.moveItem(atPath: aside + suffix, toPath: file + suffix) }
    }

    /// An SQLite file that is not a Core Data store.
    private func otherSQLite(_ relative: String) throws {
        let file = path(relative)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: file)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE cookies (name TEXT, value TEXT)")
            try db.execute(sql: "INSERT INTO cookies VALUES ('a', 'b')")
        }
        try queue.close()
    }

    /// The backup: stores made aside, then kept as hashed files listed by `Manifest.db`.
    private mutating func makeBackup() throws {
        let backup = path("Backup")
        try FileManager.default.createDirectory(atPath: backup, withIntermediateDirectories: true)
        try makeStore("scratch/Backup.sqlite", notes: 2, app: nil)
        try commitIntoWAL("scratch/Backup.sqlite")
        try makeStore("scratch/Group.sqlite", notes: 1, app: nil)
        stores.removeLast(2)
        let mainFile = path("scratch/Backup.sqlite"), groupFile = path("scratch/Group.sqlite")
        let other = path("scratch/other.db")
        try otherSQLite("scratch/other.db")
        var rows: [(String, String, String, String)] = []   // fileID, domain, relativePath, source file
        func add(_ id: String, _ domain: String, _ relativePath: String, _ source: String) throws {
            let target = backup + "/\(id.prefix(2))/\(id)"
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: target)
            rows.append((id, domain, relativePath, target))
        }
        let app = "AppDomain-com.example.backup"
        try add("3d0f2a9e4b1c5d6e7f8091a2b3c4d5e6f7a8b9c0", app, "Library/Application Support/Backup.sqlite", mainFile)
        try add("8c1e7b2d3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c", app, "Library/Application Support/Backup.sqlite-wal", mainFile + "-wal")
        try add("a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8", "AppDomainGroup-group.com.example.backup", "Library/Group.sqlite", groupFile)
        try add("f00dfeedf00dfeedf00dfeedf00dfeedf00dfeed", "HomeDomain", "Library/Cookies/other.db", other)
        let manifest = try DatabaseQueue(path: backup + "/Manifest.db")
        try manifest.write { db in
            try db.execute(sql: "CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)")
            try db.execute(sql: "INSERT INTO Files VALUES ('', 'AppDomain-com.example.backup', 'Library', 2, NULL)")
            for row in rows {
                try db.execute(sql: "INSERT INTO Files VALUES (?, ?, ?, 1, NULL)", arguments: [row.0, row.1, row.2])
            }
        }
        try manifest.close()
        try FileManager.default.removeItem(atPath: path("scratch"))
        stores.append(Expected(path: rows[0].3, app: "com.example.backup", notes: 3, tags: 0, domain: app,
                               relativePath: "Library/Application Support/Backup.sqlite"))
        stores.append(Expected(path: rows[2].3, app: "group.com.example.backup", notes: 1, tags: 0,
                               domain: "AppDomainGroup-group.com.example.backup", relativePath: "Library/Group.sqlite"))
    }

    private func write(_ relative: String, _ data: Data) throws {
        let file = path(relative)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: file))
    }

    private func setDate(_ relative: String, secondsAgo: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-secondsAgo)], ofItemAtPath: path(relative))
    }

    /// Every file under the tree and its bytes (nil for a file that cannot be read), to compare before and after.
    func contents() -> [String: Data?] {
        var files: [String: Data?] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let relative = enumerator?.nextObject() as? String {
            let file = root.appendingPathComponent(relative).path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[relative] = .some(FileManager.default.contents(atPath: file))
        }
        return files
    }

    /// Whether this process can read a file whatever its mode (root can): the unreadable file is then readable.
    static var readsEverything: Bool { getuid() == 0 }
}
