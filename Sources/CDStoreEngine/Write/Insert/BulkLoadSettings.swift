import Foundation

/// What a bulk insert changes about how it works, each measured in docs/decisions/0013-bulk-load-speed.md.
///
/// Each has an environment switch that turns it off, so that its effect can be measured again with the same binary
/// (`Scripts/instruction-counts.sh`, `make bench`), as `CDSTORE_NO_STREAMING` does for exports:
/// `CDSTORE_NO_READ_AHEAD` (read input files on this thread), `CDSTORE_NO_PREPARE_AHEAD` (read ahead, but convert
/// and check every record on the writing thread), `CDSTORE_NO_DEFERRED_INDEXES` (keep every index up row by row),
/// `CDSTORE_NO_FIRST_WRITE_JOURNAL` (write a new store's first transaction through WAL too).
enum BulkLoadSettings {
    /// Whether inserts read files ahead on a second thread (``ReadAhead``).
    static let readsAhead = switchedOn("CDSTORE_NO_READ_AHEAD")
    /// Whether the thread that reads ahead also converts and checks flat records (``RecordPreparer``).
    static let preparesAhead = switchedOn("CDSTORE_NO_PREPARE_AHEAD")
    /// Whether bulk inserts build the plain indexes of tables they start empty after the rows (``DeferredIndexes``).
    static let defersIndexes = switchedOn("CDSTORE_NO_DEFERRED_INDEXES")
    /// Whether the first write transaction into a store this process created runs with a rollback journal
    /// (``Store/beginFirstWriteJournal(_:)``).
    static let journalsFirstWrite = switchedOn("CDSTORE_NO_FIRST_WRITE_JOURNAL")
    /// Inputs from this size on are bulk loads whose indexes are built afterwards: dropping and creating indexes
    /// costs a few schema changes, nothing against a megabyte of rows.
    static let deferredIndexBytes: Int64 = 1 << 20
    /// Inputs smaller than this are read on the inserting thread: a thread costs more than it saves on them.
    static let readAheadBytes: Int64 = 64 * 1024

    private static func switchedOn(_ offSwitch: String) -> Bool {
        ProcessInfo.processInfo.environment[offSwitch] == nil
    }
}
