import CDStoreModel
import CDStoreEngine
import Foundation

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
    /// while let last = page.last?.number {
    ///     for transaction in page { print(transaction.number, transaction.changes.count) }
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
                        limit: Int) throws -> [HistoryTransaction] {
        guard limit > 0 else { return [] }
        let since: HistoryQuery.Since? = after.map { .token($0) } ?? date.map { .date($0.timeIntervalSinceReferenceDate) }
        // With both, the query starts at the token and the date filters what follows it.
        let start = after != nil ? date?.timeIntervalSinceReferenceDate : nil
        return try CDStoreError.wrapping {
            let query = HistoryQuery(since: since, author: author, entity: entity)
            var entries: [HistoryTransaction] = []
            var positions: [Int64: Int] = [:]
            struct Enough: Error {}
            do {
                try store.forEachHistoryTransaction(query) { transaction in
                    if let start, (transaction.timestamp ?? -.infinity) < start { return }
                    if entries.count == limit { throw Enough() }
                    positions[transaction.number] = entries.count
                    entries.append(transaction)
                }
            } catch is Enough {}
            guard let last = entries.last?.number else { return entries }
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
