import CDStoreEngine

extension CDStore {
    /// What the store is: its metadata, kind (Core Data or SwiftData, CloudKit mirroring, persistent history), where
    /// its model came from, and per entity its number, version hash against the model and object count, read in
    /// one transaction. Without `countingRows` the counts are nil and the call takes the same time on a store of any
    /// size (a page that counts within a time limit of its own reads the rest this way).
    ///
    /// ```swift
    /// let info = try store.info()
    /// print(info.kind, info.entities.map { "\($0.name): \($0.objects)" })
    /// ```
    ///
    /// Core Data equivalent: `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)`, plus counts.
    public func info(countingRows: Bool = true) throws -> StoreInfo {
        try read { ctx in try ctx.perform { try ctx.store.info(countingRows: countingRows) } }
    }
}
