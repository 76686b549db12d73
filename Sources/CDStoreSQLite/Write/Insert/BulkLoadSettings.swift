import Foundation
internal import GRDB

/// What a bulk insert changes about how it works, each measured in docs/decisions/0013-bulk-load-speed.md.
///
/// Each has an environment switch that turns it off, so that its effect can be measured again with the same binary
/// (`Scripts/instruction-counts.sh`, `make bench`), as `CDSTORE_NO_STREAMING` does for exports:
/// `CDSTORE_NO_READ_AHEAD` (read input files on this thread), `CDSTORE_NO_PLAIN_PATTERN` (every regular expression
/// through ICU), `CDSTORE_BULK_CACHE=1` turns the larger page cache on (off by default).
enum BulkLoadSettings {
    /// Whether inserts read files ahead on a second thread (``ReadAhead``).
    static let readsAhead = switchedOn("CDSTORE_NO_READ_AHEAD")
    /// Inputs smaller than this are read on the inserting thread: a thread costs more than it saves on them.
    static let readAheadBytes: Int64 = 64 * 1024
    /// Whether plain model regular expressions are checked without ICU (``PlainPattern``).
    static let plainPatterns = switchedOn("CDSTORE_NO_PLAIN_PATTERN")
    /// Whether an insert enlarges SQLite's page cache for its transaction (``withBulkCache(_:_:)``).
    /// Off by default: with it, peak memory grows with the input by more than `BulkMemoryTests` allows (9.4 MiB
    /// between its two sizes, 8 MiB allowed). `CDSTORE_BULK_CACHE=1` turns it on, to measure.
    static let largeCache = ProcessInfo.processInfo.environment["CDSTORE_BULK_CACHE"] != nil

    /// The page cache of an insert's transaction, in KiB: the B-tree pages of the indexes a load writes into at
    /// random places (a date index, names) stay in memory instead of being read back from the WAL or the file
    /// (`pread64` and WAL frame lookups were a fifth of a graph load). SQLite takes the memory only as pages are
    /// used, and the command stays under the 64 MiB issue 27 allows for any input size.
    static let cacheKiB = 20 * 1024

    private static func switchedOn(_ offSwitch: String) -> Bool {
        ProcessInfo.processInfo.environment[offSwitch] == nil
    }

    /// Runs `body` with the page cache of ``cacheKiB`` (when larger than the connection's), then sets the
    /// connection's back: the cache size is a setting of the connection, not of the store file, so the store's
    /// bytes are the same either way.
    static func withBulkCache<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard largeCache, let current = try Int.fetchOne(db, sql: "PRAGMA cache_size") else { return try body() }
        // Negative: KiB; positive: pages (of 4 KiB in Core Data stores).
        let currentKiB = current < 0 ? -current : current * 4
        guard currentKiB < cacheKiB else { return try body() }
        try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(current)") }
        return try body()
    }
}
