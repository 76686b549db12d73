import CDStoreModel
import CDStoreSQLite
import Foundation

// What a browser of a store (`cdstore serve`) needs and the rest of the API does not say: a summary of the store,
// pages of objects by key, one object by entity and key, and pages of persistent history.

extension CDStore {
    /// What a person opening a store wants to know first: where it is, which model reads it, how it is journaled,
    /// what is odd about it, and how many objects each entity has.
    package struct Overview: Sendable {
        /// One entity of the model and its objects.
        package struct EntityCount: Sendable, Equatable {
            /// The entity's name.
            package var name: String
            /// Its parent entity, if any.
            package var parent: String?
            /// Whether the entity is abstract (it has objects only through its sub-entities).
            package var isAbstract: Bool
            /// Objects of exactly this entity (not of its sub-entities).
            package var objects: Int
        }

        /// The store file.
        package var path: String
        /// The store's UUID, the authority of its object IDs.
        package var uuid: String
        /// SQLite's journal mode as the file records it: `wal`, `delete`, ….
        package var journalMode: String
        /// Core Data or SwiftData, CloudKit mirroring, persistent history, in words.
        package var kind: String
        /// Where the model came from: `given`, `cdstoreCache` (the model cdstore keeps in the store),
        /// `coreDataCache` (`Z_MODELCACHE`) or `inferredFromTables`.
        package var modelSource: String
        /// The model's version identifiers.
        package var versionIdentifiers: [String]
        /// Whether the store keeps Core Data's persistent history.
        package var hasPersistentHistory: Bool
        /// Whether the store is open read-only.
        package var isReadOnly: Bool
        /// Things worth knowing: the store's warnings from opening, entity hashes that differ from the model's,
        /// and external-data files found missing by the reads so far.
        package var warnings: [String]
        /// Every entity of the model, in the model's order.
        package var entities: [EntityCount]
    }

    /// A summary of the store, read in one transaction: its place, journal mode, kind, warnings and the number
    /// of objects of each entity (one `COUNT` per entity).
    package func overview() throws -> Overview {
        try read { ctx in
            try ctx.perform {
                let info = try ctx.store.info()
                var warnings = self.warnings
                if info.hashesChecked && !info.hashesMatch {
                    let differing = info.entities.filter { !$0.hashMatches }.map(\.name)
                    warnings.append("the model's entity hashes differ from the store's metadata for "
                                    + differing.joined(separator: ", "))
                }
                if let missing = store.missingExternalData?.warning { warnings.append(missing) }
                let counts = Dictionary(info.entities.map { ($0.name, $0.objects) }, uniquingKeysWith: { a, _ in a })
                return Overview(
                    path: path, uuid: info.uuid, journalMode: info.journalMode, kind: info.kind.description,
                    modelSource: info.modelSource.rawValue, versionIdentifiers: info.versionIdentifiers,
                    hasPersistentHistory: info.kind.persistentHistory, isReadOnly: isReadOnly, warnings: warnings,
                    entities: model.entities.map {
                        Overview.EntityCount(name: $0.name, parent: $0.parentName, isAbstract: $0.isAbstract,
                                             objects: counts[$0.name] ?? 0)
                    })
            }
        }
    }
}

/// One page of objects in a requested order, and where the next page starts.
///
/// Made by ``CDStore/Context/page(_:where:sort:after:limit:toManyAsCounts:)``.
package struct ObjectPage: Sendable {
    /// The page's objects, in order.
    package var objects: [StoredObject]
    /// The primary key to pass as `after` for the next page; nil on the last page.
    package var nextAfter: Int64?
}

extension CDStore.Context {
    /// A page of the objects of `entity` (and its sub-entities) matching a predicate, in order, starting after the
    /// object whose primary key is `after` (keyset paging).
    ///
    /// ```swift
    /// var page = try ctx.page("Employee", sort: ["-salary"], limit: 100)
    /// while let next = page.nextAfter { page = try ctx.page("Employee", sort: ["-salary"], after: next, limit: 100) }
    /// ```
    ///
    /// Where `offset` makes SQLite step over every skipped row, a page after a key is found through the primary
    /// key and the sort columns, so a deep page of a large table costs what the first one does.
    ///
    /// - Parameters:
    ///   - entity: The entity's name.
    ///   - format: An `NSPredicate` format with no `%` arguments (text typed by a person), or nil for all.
    ///   - sort: Sort keys as ``fetch(_:where:_:sort:limit:offset:)`` takes them; ties keep primary-key order.
    ///   - after: The primary key of the last object of the previous page, or nil for the first page.
    ///   - limit: At most this many objects (1 or more).
    ///   - toManyAsCounts: Read to-many relationships as their number of objects (``ObjectValue/integer(_:)``)
    ///     rather than as every related object's ID.
    package func page(_ entity: String, where format: String? = nil, sort: [String] = [], after: Int64? = nil,
                     limit: Int, toManyAsCounts: Bool = true) throws -> ObjectPage {
        guard limit > 0 else { throw CDStoreError(.invalidInput, "a page holds at least one object (limit \(limit))") }
        var request = try request(entity, format, [], sort: sort, limit: limit + 1, offset: nil)
        request.afterPrimaryKey = after
        if toManyAsCounts { request.relationships = .counts }
        var objects = try fetch(request)
        var next: Int64?
        if objects.count > limit {
            objects.removeLast()
            next = objects.last?.primaryKey
        }
        return ObjectPage(objects: objects, nextAfter: next)
    }

    /// The object of `entity` (or of one of its sub-entities) whose primary key is `primaryKey`, with every
    /// to-many relationship as the IDs of its objects; nil when there is none.
    package func object(_ entity: String, primaryKey: Int64) throws -> StoredObject? {
        guard model.entity(named: entity) != nil else {
            throw CDStoreError(.unknownName, "no entity '\(entity)' in the model"
                               + Suggestion.didYouMean(entity, among: model.entities.map(\.name)), entity: entity)
        }
        return try fetch(ObjectFetchRequest(entity: entity, primaryKeys: [primaryKey])).first
    }
}

/// One transaction of a store's persistent history and the changes it made.
public struct HistoryEntry: Sendable {
    /// The transaction: number, time, author, bundle, process, context.
    public var transaction: HistoryTransaction
    /// Its changes, in order.
    public var changes: [HistoryChange]
}

extension CDStore {
    /// Whether the store keeps Core Data's persistent history (`ATRANSACTION` and `ACHANGE`).
    public var hasPersistentHistory: Bool {
        get throws { try CDStoreError.wrapping { try store.hasPersistentHistory } }
    }

    /// At most `limit` transactions of the persistent history, oldest first, each with its changes; empty for a
    /// store without history. Page through it by passing the last transaction's number as `after`.
    ///
    /// ```swift
    /// var page = try store.history(since: yesterday, entity: "Employee", limit: 500)
    /// while let last = page.last?.transaction.number {
    ///     for entry in page { print(entry.transaction.number, entry.changes.count) }
    ///     page = try store.history(after: last, since: yesterday, entity: "Employee", limit: 500)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - after: Only transactions after this transaction number (a token; nil: from the first).
    ///   - date: Only transactions saved at or after this moment.
    ///   - author: Only transactions saved by this author (`NSManagedObjectContext.transactionAuthor`).
    ///   - entity: Only changes of this entity and its sub-entities, and only transactions holding some.
    ///   - limit: At most this many transactions.
    ///
    /// Core Data equivalent: `NSPersistentHistoryChangeRequest.fetchHistory(after:)` with a `fetchLimit`.
    public func history(after: Int64? = nil, since date: Date? = nil, author: String? = nil, entity: String? = nil,
                        limit: Int) throws -> [HistoryEntry] {
        guard limit > 0 else { return [] }
        let since: HistoryQuery.Since? = after.map { .token($0) } ?? date.map { .date($0.timeIntervalSinceReferenceDate) }
        // With both, the query starts at the token and the date filters what follows it.
        let start = after != nil ? date?.timeIntervalSinceReferenceDate : nil
        return try CDStoreError.wrapping {
            let query = HistoryQuery(since: since, author: author, entity: entity)
            var entries: [HistoryEntry] = []
            var positions: [Int64: Int] = [:]
            struct Enough: Error {}
            do {
                try store.forEachHistoryTransaction(query) { transaction in
                    if let start, (transaction.timestamp ?? -.infinity) < start { return }
                    if entries.count == limit { throw Enough() }
                    positions[transaction.number] = entries.count
                    entries.append(HistoryEntry(transaction: transaction, changes: []))
                }
            } catch is Enough {}
            guard let last = entries.last?.transaction.number else { return entries }
            do {
                try store.forEachHistoryChange(query) { change in
                    if change.transaction > last { throw Enough() }
                    if let position = positions[change.transaction] { entries[position].changes.append(change) }
                }
            } catch is Enough {}
            return entries
        }
    }
}
