import CDStoreModel
import Foundation
package import GRDB

/// Migration of a store that was saved with another version of its model, done by a module above the engine
/// (`CDStoreMigration`): the engine opens stores and knows their layout, migration knows how to get from one layout
/// to another, and ``Store/open(at:loaded:options:)`` calls it only when ``Store/Options/migrator`` holds one.
package protocol StoreMigrating: Sendable {
    /// Migrates the store at `path`, open as `database` and saved as `metadata` says, to `destination`, in one
    /// transaction; when `backup` is true the store is copied first (the copy is kept only when migration succeeds).
    func migrate(database: DatabaseQueue, path: String, metadata: StoreMetadata, destination: LoadedModel,
                 backup: Bool) throws -> StoreMigrationOutcome
}

/// What a migration done while opening a store did, for the warning that says so.
package struct StoreMigrationOutcome: Sendable {
    /// The hops taken, each "from → to".
    package var steps: [String]
    /// Where the copy of the store made before migrating is, when one was made.
    package var backupPath: String?

    package init(steps: [String], backupPath: String?) {
        self.steps = steps
        self.backupPath = backupPath
    }
}
