import CDStoreJSON
import Foundation
internal import GRDB

/// A private copy of a store (its main file and its `-wal` or `-journal`) in a temporary folder, removed when the
/// store that reads it goes away.
final class PrivateStoreCopy: @unchecked Sendable {
    /// The temporary folder.
    let directory: URL
    /// The copied main file.
    let path: String

    init(of path: String, companion: String) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdstore-immutable-\(UUID().uuidString)")
        self.path = directory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try FileManager.default.copyItem(atPath: path, toPath: self.path)
            if !companion.isEmpty {
                try FileManager.default.copyItem(atPath: path + companion, toPath: self.path + companion)
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}

extension Store {
    /// Opens the store at `path` so that no byte of it, its `-wal` or its `-shm` changes (``Options/immutable``).
    ///
    /// SQLite's `immutable=1` turns off locking and never writes, but it also ignores the `-wal` file (checked with
    /// SQLite 3.40: a WAL store's uncheckpointed tables are invisible), and a plain read-only connection still
    /// writes the `-shm` index. So a store whose `-wal` (or hot rollback `-journal`) holds anything is copied, with
    /// that file, to a private temporary folder and read there, where SQLite may apply it freely; any other store is
    /// opened in place with `immutable=1`.
    static func openImmutable(at path: String, configuration: GRDB.Configuration) throws -> (DatabaseQueue, PrivateStoreCopy?) {
        for companion in ["-wal", "-journal"] where fileSize(path + companion) > 0 {
            let copy = try PrivateStoreCopy(of: path, companion: companion)
            var writable = configuration
            // The copy is ours: SQLite may build its -shm or roll back its journal there.
            writable.readonly = false
            return (try DatabaseQueue(path: copy.path, configuration: writable), copy)
        }
        var readOnly = configuration
        readOnly.readonly = true
        do {
            let queue = try DatabaseQueue(path: immutableURI(path), configuration: readOnly)
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
            return (queue, nil)
        } catch {
            // An SQLite built without URI file names: read a private copy instead.
            let copy = try PrivateStoreCopy(of: path, companion: "")
            return (try DatabaseQueue(path: copy.path, configuration: readOnly), copy)
        }
    }

    /// `file:` URI of `path` with `immutable=1`; `%`, `?` and `#` are escaped so that any file name stays a path.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
