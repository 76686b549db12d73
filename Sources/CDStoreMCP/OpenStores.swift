import CDStore
import Foundation

/// The scanned stores a server keeps open, at most `capacity` of them, the one used longest ago closed first.
///
/// Each is opened read-only and immutable with the model it keeps (what the scan read it with): SQLite's
/// `immutable=1` on the file, or a private copy read with its `-wal` when the log holds data, so that no byte
/// under the scan's roots changes. An immutable open does not see later changes, and must not read a file that
/// changes under it; so each use first compares the store's and its `-wal`'s size and modification date with
/// those at opening, and opens the store again when they differ (an app still running in a simulator).
final class OpenStores {
    private struct Entry {
        var store: CDStore
        var stamp: [FileStamp]
        var lastUse: Int
    }

    /// A file's size and modification date (nil when it does not exist).
    struct FileStamp: Equatable {
        var size: Int64?
        var modified: Date?

        init(_ path: String) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            size = (attributes?[.size] as? NSNumber)?.int64Value
            modified = attributes?[.modificationDate] as? Date
        }
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var uses = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of stores open now.
    var count: Int { entries.count }

    /// The store at `path`, opened (or opened again, when its files changed) as needed.
    func store(at path: String) throws -> CDStore {
        uses += 1
        let stamp = Self.stamp(path)
        if var entry = entries[path], entry.stamp == stamp {
            entry.lastUse = uses
            entries[path] = entry
            return entry.store
        }
        entries[path] = nil
        let store = try CDStore(path: path, model: nil, options: [.readOnly, .immutable])
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        entries[path] = Entry(store: store, stamp: stamp, lastUse: uses)
        return store
    }

    /// Closes every store not at one of `paths` (a new scan no longer finds it).
    func keep(only paths: Set<String>) {
        entries = entries.filter { paths.contains($0.key) }
    }

    /// What is compared before each use: the store file and its `-wal`.
    static func stamp(_ path: String) -> [FileStamp] {
        [FileStamp(path), FileStamp(path + "-wal")]
    }
}
