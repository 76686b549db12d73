import GRDB

/// SQL functions cdstore registers on every connection.
enum SQLFunctions {
    /// Unicode case folding, for case-insensitive sorting and `[c]` comparisons.
    static let caseFold = "cdstore_fold"
}
