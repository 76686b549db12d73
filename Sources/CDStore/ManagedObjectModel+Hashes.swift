import CDStoreModel
import Foundation

extension ManagedObjectModel {
    /// Each entity's version hash (32 bytes, SHA-256), by entity name: what Core Data writes into a store's
    /// metadata (`NSStoreModelVersionHashes`) and compares with the model's to decide whether a store needs
    /// migrating. `cdstore model hashes` prints them in base64.
    ///
    /// Core Data equivalent: `NSManagedObjectModel.entityVersionHashesByName`.
    public var versionHashes: [String: Data] {
        VersionHasher.entityHashes(of: self).mapValues { Data($0) }
    }
}
