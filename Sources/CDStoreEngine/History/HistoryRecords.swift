import CDStoreJSON
import Foundation

/// One saved transaction of Core Data's persistent history: a row of `ATRANSACTION`.
///
/// ```swift
/// for transaction in try store.history(after: 41, limit: 100) {
///     print(transaction.number, transaction.author ?? "-", transaction.changes.count)
/// }
/// ```
///
/// Core Data equivalent: `NSPersistentHistoryTransaction`.
public struct HistoryTransaction: Sendable, Equatable {
    /// `ATRANSACTION.Z_PK`: the transaction number, which is what Core Data's `NSPersistentHistoryToken`
    /// carries; `--since TOKEN` means "after this number".
    public var number: Int64
    /// `ZTIMESTAMP`: seconds since 2001-01-01T00:00:00Z (Core Data's reference date), as stored; ``date`` is the
    /// public form.
    package var timestamp: Double?
    /// Who saved: `NSManagedObjectContext.transactionAuthor` (e.g. `NSCloudKitMirroringDelegate.import`).
    public var author: String?
    /// The bundle identifier of the app or extension that saved.
    public var bundleID: String?
    /// The name of the process that saved.
    public var processID: String?
    /// `NSManagedObjectContext.name` of the context that saved.
    public var contextName: String?
    /// How many changes the transaction holds (only those of the queried entity when the query names one).
    package var changeCount: Int
    /// The transaction's changes, in order (only those of the queried entity when the query names one); empty
    /// where only the transaction was read.
    public var changes: [HistoryChange] = []

    /// Creates a transaction record.
    package init(number: Int64, timestamp: Double?, author: String?, bundleID: String?, processID: String?,
                contextName: String?, changeCount: Int) {
        self.number = number
        self.timestamp = timestamp
        self.author = author
        self.bundleID = bundleID
        self.processID = processID
        self.contextName = contextName
        self.changeCount = changeCount
    }

    /// When the transaction was saved (`ZTIMESTAMP`, seconds since 2001-01-01T00:00:00Z, as a `Date`).
    public var date: Date? { timestamp.map { Date(timeIntervalSinceReferenceDate: $0) } }
}

/// One changed object of a persistent-history transaction: a row of `ACHANGE`.
///
/// Core Data equivalent: `NSPersistentHistoryChange`.
public struct HistoryChange: Sendable, Equatable {
    /// `ZCHANGETYPE`: 0 insert, 1 update, 2 delete (`NSPersistentHistoryChangeType`).
    public enum ChangeType: Sendable, Equatable, CustomStringConvertible {
        /// The object was inserted (0).
        case insert
        /// The object was updated (1): see ``HistoryChange/updatedProperties``.
        case update
        /// The object was deleted (2): see ``HistoryChange/tombstone``.
        case delete
        /// A value Core Data has not been seen to write; kept rather than dropped.
        case other(Int64)

        /// The type stored as `raw`.
        package init(raw: Int64) {
            switch raw {
            case 0: self = .insert
            case 1: self = .update
            case 2: self = .delete
            default: self = .other(raw)
            }
        }

        /// The stored number.
        package var raw: Int64 {
            switch self {
            case .insert: 0
            case .update: 1
            case .delete: 2
            case .other(let value): value
            }
        }

        /// `insert`, `update`, `delete` or `type N`.
        public var description: String {
            switch self {
            case .insert: "insert"
            case .update: "update"
            case .delete: "delete"
            case .other(let value): "type \(value)"
            }
        }
    }

    /// `ACHANGE.Z_PK`.
    public var number: Int64
    /// The transaction it belongs to (``HistoryTransaction/number``).
    public var transaction: Int64
    /// Inserted, updated or deleted.
    public var type: ChangeType
    /// The changed object's concrete entity (`ZENTITY`, named by the layout or `Z_PRIMARYKEY`; `#N` when
    /// neither knows the number).
    public var entity: String
    /// The changed object (`ZENTITY`, `ZENTITYPK`).
    public var objectID: ObjectID
    /// For an update, the properties it changed, decoded from `ZCOLUMNS` (see ``HistoryPropertyOrder``); a bit
    /// past the entity's properties is shown as `#BIT`. Nil for inserts and deletes.
    public var updatedProperties: [String]?
    /// For a delete, the values the entity's preserve-after-deletion attributes had (`ZTOMBSTONE<n>`), by
    /// attribute name, NULL ones left out. Nil for inserts and updates.
    public var tombstone: [(name: String, value: ObjectValue)]?

    /// Creates a change record.
    package init(number: Int64, transaction: Int64, type: ChangeType, entity: String, objectID: ObjectID,
                updatedProperties: [String]?, tombstone: [(name: String, value: ObjectValue)]?) {
        self.number = number
        self.transaction = transaction
        self.type = type
        self.entity = entity
        self.objectID = objectID
        self.updatedProperties = updatedProperties
        self.tombstone = tombstone
    }

    public static func == (lhs: HistoryChange, rhs: HistoryChange) -> Bool {
        lhs.number == rhs.number && lhs.transaction == rhs.transaction && lhs.type == rhs.type && lhs.entity == rhs.entity
            && lhs.objectID == rhs.objectID && lhs.updatedProperties == rhs.updatedProperties
            && lhs.tombstone?.map(\.name) == rhs.tombstone?.map(\.name)
            && lhs.tombstone?.map(\.value) == rhs.tombstone?.map(\.value)
    }
}

/// Which transactions or changes to read.
///
/// ```swift
/// HistoryQuery(since: .date(DateParsing.secondsSince2001("2024-05-01")!), author: "cdstore", entity: "Employee")
/// ```
///
/// Core Data equivalent: `NSPersistentHistoryChangeRequest.fetchHistory(after:)` with a fetch request on
/// `NSPersistentHistoryTransaction`/`NSPersistentHistoryChange`.
package struct HistoryQuery: Sendable, Equatable {
    /// Where history starts.
    package enum Since: Sendable, Equatable {
        /// Transactions after this transaction number (a token: exclusive, as `fetchHistory(after: token)`).
        case token(Int64)
        /// Transactions saved at or after this moment, in seconds since 2001-01-01T00:00:00Z.
        case date(Double)
    }

    /// Where history starts; nil for all of it.
    package var since: Since?
    /// Only transactions with this author.
    package var author: String?
    /// Only changes of this entity and its sub-entities, and only transactions holding such changes.
    package var entity: String?

    /// Creates a query.
    package init(since: Since? = nil, author: String? = nil, entity: String? = nil) {
        self.since = since
        self.author = author
        self.entity = entity
    }
}
