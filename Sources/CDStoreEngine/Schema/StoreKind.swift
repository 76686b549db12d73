import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// What wrote a store and what it keeps beside the app's data: Core Data or SwiftData (which persists into the
/// same layout), CloudKit mirroring, persistent history.
///
/// How each is told, from what real stores hold:
/// - **Persistent history** (`NSPersistentHistoryTrackingKey`): the ancillary entities `CHANGE`, `TRANSACTION`,
///   `TRANSACTIONSTRING` (16001…) in `Z_PRIMARYKEY`, or their tables `ACHANGE`, `ATRANSACTION`
///   (coredata-format.md §1.10; seen in the corpus's SwiftData store).
/// - **CloudKit mirroring** (`NSPersistentCloudKitContainer`): its own ancillary entities, named `NSCK…`
///   (`NSCKRecordMetadata`, `NSCKMirroredRelationship`, `NSCKExportOperation`, …), whose tables are `A` + the name
///   in upper case (`ANSCKRECORDMETADATA`, `ANSCKRECORDZONEMETADATA`, `ANSCKEVENT`, …). Mirroring needs history,
///   so such stores have both.
/// - **SwiftData**: nothing in the tables or the metadata keys tells it apart (its store has the usual keys);
///   the model it caches in `Z_MODELCACHE` does. SwiftData builds the model from `@Model` classes: no entity
///   names a class (`NSClassNameForEntity` is null, where Xcode models name one per entity) and the entities sit
///   in a configuration named `default` (the name of SwiftData's `ModelConfiguration`), where Xcode models have
///   none or their own. Seen in CartKitSwiftData_v1.sqlite (framework 1523); a store without model cache reads
///   as Core Data.
public struct StoreKind: Sendable, Equatable, CustomStringConvertible {
    /// The framework that writes the store's objects.
    public enum Framework: String, Sendable {
        /// Core Data.
        case coreData = "Core Data"
        /// SwiftData (a `ModelContainer`'s store).
        case swiftData = "SwiftData"
    }

    /// The framework that writes the store's objects.
    public var framework: Framework
    /// Whether `NSPersistentCloudKitContainer` mirrors the store (its `ANSCK…` tables).
    public var cloudKitMirroring: Bool
    /// Whether persistent history is recorded (`ACHANGE`, `ATRANSACTION`).
    public var persistentHistory: Bool

    package init(framework: Framework, cloudKitMirroring: Bool = false, persistentHistory: Bool = false) {
        self.framework = framework
        self.cloudKitMirroring = cloudKitMirroring
        self.persistentHistory = persistentHistory
    }

    /// For example `SwiftData, persistent history on` or `Core Data + CloudKit mirroring, persistent history on`.
    public var description: String {
        var text = framework.rawValue
        if cloudKitMirroring { text += " + CloudKit mirroring" }
        if persistentHistory { text += ", persistent history on" }
        return text
    }

    /// Whether `model`, as cached in a store, is one SwiftData made (see the type's documentation).
    package static func isSwiftDataModel(_ model: ManagedObjectModel) -> Bool {
        !model.entities.isEmpty && model.entities.allSatisfy { $0.className == nil }
            && model.configurations.contains { $0.name == "default" }
    }
}

extension Store {
    /// What wrote the store and what it records beside the app's data; see ``StoreKind``.
    package func kind() throws -> StoreKind {
        try read { db in try kind(db) }
    }

    func kind(_ db: Database) throws -> StoreKind {
        let ancillary = try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT >= 16000 AND Z_NAME IS NOT NULL")
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'A%'")
        let history = ancillary.contains { ["CHANGE", "TRANSACTION"].contains($0) }
            || tables.contains { ["ACHANGE", "ATRANSACTION"].contains($0) }
        let cloudKit = ancillary.contains { $0.hasPrefix("NSCK") } || tables.contains { $0.hasPrefix("ANSCK") }
        let cached: ManagedObjectModel?
        if modelSource == .coreDataCache {
            cached = model
        } else if try db.hasTable("Z_MODELCACHE"), let blob = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1"),
                  !blob.isEmpty {
            cached = try? ModelCacheDecoder.decode(blob).model
        } else {
            cached = nil
        }
        return StoreKind(framework: cached.map(StoreKind.isSwiftDataModel) == true ? .swiftData : .coreData,
                         cloudKitMirroring: cloudKit, persistentHistory: history)
    }
}
