import CDStoreEngine
import CDStoreJSON
import Foundation
internal import GRDB
internal import GRDBSQLite

/// The identities of related objects in one store, as store diffs compare relationships: the entity's name (B's
/// name for an entity both models have) and the object's key values, as ``StoredBytes``. Equal identities in two
/// stores mean the same object, whatever its `Z_PK` in each.
///
/// Identities are read a batch at a time (one query per entity and 500 objects) and cached; the cache is
/// emptied when it grows past ``cacheLimit``, so that memory stays bounded however many objects are related.
final class DiffIdentities {
    /// How to read the identity of an object of one concrete entity.
    struct Plan {
        /// The entity name identities carry.
        let name: String
        /// The entity in this store, with its key (none: `Z_PK`).
        let side: EntityPlan.Side
    }

    private let store: Store
    private let plans: [Int: Plan]
    private var cache: [ObjectRef: [UInt8]] = [:]
    static let cacheLimit = 100_000

    /// Identities in `store`, the store of one side (`\.a` or `\.b`) of `plans`.
    init(_ store: Store, plans: [EntityPlan], side: KeyPath<EntityPlan, EntityPlan.Side?>) {
        self.store = store
        var byNumber: [Int: Plan] = [:]
        for plan in plans {
            guard let side = plan[keyPath: side] else { continue }
            byNumber[side.layout.number] = Plan(name: plan.comparison.entity, side: side)
        }
        self.plans = byNumber
    }

    /// The identity of `object`, which ``resolve(_:db:)`` must have been given.
    subscript(object: ObjectRef) -> [UInt8] { cache[object] ?? Self.missing(object, plans[object.entityNumber]) }

    /// Reads the identities of `objects` not cached yet.
    func resolve(_ objects: [ObjectRef], db: Database) throws {
        if cache.count + objects.count > Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        var wanted: [Int: [Int64]] = [:]
        for object in objects where cache[object] == nil {
            guard let plan = plans[object.entityNumber] else { continue }
            if plan.side.key.isEmpty {
                var identity = Self.head(plan.name)
                StoredBytes.appendInteger(object.pk, to: &identity)
                cache[object] = identity
            } else {
                wanted[object.entityNumber, default: []].append(object.pk)
            }
        }
        for (number, keys) in wanted {
            let plan = plans[number]!
            let unique = Array(Set(keys))
            for start in stride(from: 0, to: unique.count, by: 500) {
                let chunk = Array(unique[start..<min(start + 500, unique.count)])
                let select = try DiffQuery.select(store, plan.side, primaryKeys: chunk, fields: false)
                let statement = try db.makeStatement(sql: select.sql)
                try statement.setExactArguments(select.arguments)
                let raw = statement.sqliteStatement
                while try DiffQuery.step(statement, db) {
                    var identity = Self.head(plan.name)
                    for column in 1...Int32(plan.side.key.count) { StoredBytes.appendColumn(raw, column, to: &identity) }
                    cache[ObjectRef(pk: sqlite3_column_int64(raw, 0), entityNumber: number)] = identity
                }
            }
        }
    }

    /// The entity name, length first.
    private static func head(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        StoredBytes.appendPiece(Array(name.utf8), to: &bytes)
        return bytes
    }

    /// The identity of an object a relationship names but the store lacks (a dangling foreign key), or of an
    /// entity number the model does not know: `?` and the entity, then the primary key.
    private static func missing(_ object: ObjectRef, _ plan: Plan?) -> [UInt8] {
        var identity = head("?" + (plan?.name ?? "#\(object.entityNumber)"))
        StoredBytes.appendInteger(object.pk, to: &identity)
        return identity
    }
}
