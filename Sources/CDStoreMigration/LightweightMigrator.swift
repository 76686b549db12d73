import CDStoreEngine
import CDStoreModel
import Foundation
package import GRDB

/// The migration a store gets when it is opened with a newer version of its model: Core Data's automatic
/// lightweight migration (`NSMigratePersistentStoresAutomaticallyOption` with
/// `NSInferMappingModelAutomaticallyOption`), which also uses the mapping models found beside the model.
package struct LightweightMigrator: StoreMigrating {
    package init() {}

    package func migrate(database: DatabaseQueue, path: String, metadata: StoreMetadata, destination: LoadedModel,
                         backup: Bool) throws -> StoreMigrationOutcome {
        let report = try Store.migrate(database: database, path: path, metadata: metadata, destination: destination,
                                       options: MigrationOptions(backup: backup))
        return StoreMigrationOutcome(steps: report.steps.map { "\($0.from) → \($0.to)" }, backupPath: report.backupPath)
    }
}
