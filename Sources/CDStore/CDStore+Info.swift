import CDStoreEngine

extension CDStore {
    /// What the store is: its metadata, kind (Core Data or SwiftData, CloudKit mirroring, persistent history), where
    /// its model came from, and per entity its number, version hash against the model and object count, read in
    /// one transaction.
    ///
    /// ```swift
    /// let info = try store.info()
    /// print(info.kind, info.entities.map { "\($0.name): \($0.objects)" })
    /// ```
    ///
    /// Core Data equivalent: `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)`, plus counts.
    public func info() throws -> StoreInfo {
        try read { ctx in try ctx.perform { try ctx.store.info() } }
    }
}
