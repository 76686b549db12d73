import CDStoreEngine
import Foundation

/// One object another connection inserted, updated or deleted, as a ``StoreWatcher`` saw it committed.
public struct StoreChange: Sendable {
    /// What happened to the object.
    public enum Kind: String, Sendable, CaseIterable {
        /// The object is new.
        case inserted
        /// Some of its properties changed (see ``StoreChange/updatedProperties``).
        case updated
        /// The object is gone.
        case deleted
    }

    /// What happened to the object.
    public var kind: Kind
    /// The object (`x-coredata://<store>/<Entity>/p<key>`).
    public var objectID: ObjectID
    /// The object as it is after the change, for inserts and updates; nil for deletes.
    public var object: StoredObject?
    /// For an update, the properties that changed (attributes and to-one relationships); nil when the change is
    /// not an update, or when persistent history recorded none.
    public var updatedProperties: [String]?
    /// The persistent-history transaction that made the change (its author, time, process), when the store keeps
    /// persistent history; nil otherwise.
    public var transaction: HistoryTransaction?

    /// The object's entity.
    var entity: String { objectID.entity }
}
