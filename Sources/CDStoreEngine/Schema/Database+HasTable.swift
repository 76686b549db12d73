internal import GRDB

extension Database {
    /// Whether the main database has a table named `name` (compared as SQLite compares names, ignoring ASCII
    /// case).
    ///
    /// One query of `sqlite_master`. GRDB's `tableExists` first loads its whole schema cache, whose generic
    /// record and set types cost Swift runtime conformance lookups on the first call, a visible part of a small
    /// command's start-up (ADR 0014).
    func hasTable(_ name: String) throws -> Bool {
        let query = try RawStatement(
            "SELECT 1, 0 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE LIMIT 1", db: self)
        query.bind(name.databaseValue, at: 1)
        return try query.firstPair() != nil
    }
}
