import CDStoreEngine
import Foundation

/// Finds every Core Data and SwiftData store under folders and backups, by content, as an asynchronous sequence.
///
/// ```swift
/// for await store in StoreScanner(roots: ["~/Library/Developer/CoreSimulator/Devices"]) {
///     print(store.app ?? "-", store.path, store.entities.values.reduce(0, +))
/// }
/// ```
///
/// A file is a store when it starts with SQLite's header and has Core Data's `Z_METADATA` and `Z_PRIMARYKEY`
/// tables, whatever its name (`.sqlite`, `.store`, `.storedata`, `.db` or none). Other SQLite files and other
/// files are passed over; a file that cannot be read, or that SQLite finds damaged, is handed out with its
/// ``ScannedStore/problems`` (and no ``ScannedStore/kind``), and the scan goes on.
///
/// **Nothing under the roots changes**: not a byte of a store, its `-wal` or its `-shm`, and no file is created.
/// Stores are read with SQLite's `immutable=1`; a store whose `-wal` (or hot `-journal`) holds committed data is
/// read from a private copy with it, so that the data is seen. A folder holding `Manifest.db` is read as an iOS
/// backup (Finder or iTunes, unencrypted): each store is put back together with its `-wal` entry in a private
/// folder, and reported with its domain and relative path.
///
/// Each store is read when the sequence is asked for it, on the asking task: a scan holds one store open at a
/// time. Cancelling the task ends the sequence.
public struct StoreScanner: AsyncSequence, Sendable {
    /// The folders, backups and files to scan (`~` is expanded, relative paths are taken from the current folder).
    public var roots: [String]
    /// Only stores of this app or group identifier (``ScannedStore/app``); nil for every store.
    public var app: String?

    /// A scan of `roots`, of every store or only those of `app`.
    public init(roots: [String], app: String? = nil) {
        self.roots = roots
        self.app = app
    }

    /// Starts the scan.
    public func makeAsyncIterator() -> Iterator {
        Iterator(walk: StoreWalk(roots: roots), app: app)
    }

    /// Steps through the scan, reading each store when asked for it.
    public struct Iterator: AsyncIteratorProtocol {
        let walk: StoreWalk
        let app: String?

        /// The next store (or unreadable file), or nil when the scan is over or its task was cancelled.
        public mutating func next() async -> ScannedStore? {
            while !Task.isCancelled, let item = walk.next() {
                switch item {
                case .unreadable(let found):
                    if app == nil { return found }
                case .file(let found):
                    if let app, found.app != app { continue }
                    if let read = StoreScanner.read(found) { return read }
                }
            }
            return nil
        }
    }

    /// `found` read: kind, model source, objects per entity, size, last change and problems; nil when the file is
    /// not a Core Data store.
    static func read(_ found: ScannedStore) -> ScannedStore? {
        var scanned = found
        (scanned.size, scanned.lastModified) = Self.sizeAndDate(of: found)
        do {
            switch try StoreProbe.probe(found.path, wal: found.walPath) {
            case .notSQLite, .otherSQLite:
                return nil
            case .store(let store):
                let summary = try store.summary()
                scanned.kind = summary.kind.description
                scanned.modelSource = store.modelSource.rawValue
                scanned.entities = Dictionary(summary.counts.map { ($0.entity, $0.objects) }, uniquingKeysWith: +)
                scanned.problems = store.warnings.map(\.description)
            }
        } catch let error as StoreError {
            scanned.problems = [error.message]
        } catch {
            scanned.problems = ["cannot read the file (\(StoreWalk.reason(error)))"]
        }
        return scanned
    }

    /// The bytes of the store and its `-wal`, and the later of their modification dates.
    static func sizeAndDate(of found: ScannedStore) -> (Int64, Date?) {
        var size: Int64 = 0
        var date: Date?
        for file in [found.path, found.companionWAL] {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { continue }
            size += (attributes[.size] as? NSNumber)?.int64Value ?? 0
            if let modified = attributes[.modificationDate] as? Date, date.map({ modified > $0 }) ?? true { date = modified }
        }
        return (size, date)
    }
}
