import CDStore
import Foundation

/// How many objects an entity page's filter selects, counted within bounds: the first page stops counting past
/// ``cap`` (a page of a million rows then costs what a page of ten thousand does) unless asked for an exact
/// count, and every count stops at the server's time limit.
struct ObjectCount {
    /// Objects counted before a first page says "more than".
    static let cap = 10_000

    /// The number counted: the whole count, or what is known to be fewer than it (``isComplete`` false).
    var objects: Int
    /// Whether ``objects`` is the count itself rather than a lower bound.
    var isComplete: Bool
    /// Whether counting stopped at the time limit (``objects`` is then what the page itself shows).
    var stoppedAtTimeLimit: Bool
    /// With sub-entities, each concrete entity's own matches, when they could be counted completely.
    var byEntity: [(name: String, objects: Int)]

    /// Counts the matches of `view` in `ctx`: up to ``cap`` unless `view` asks for an exact count, each query
    /// stopped at `timeLimit`; `page` is what the page shows, the lower bound when counting is stopped.
    static func count(_ view: EntityView, page: ObjectPage?, timeLimit: Duration, model: ManagedObjectModel,
                      in ctx: CDStore.Context) throws -> ObjectCount {
        let criteria = try Criteria(parsing: view.predicate)
        let shown = page?.objects.count ?? 0
        let known = page.map { $0.nextAfter == nil ? shown : shown + 1 } ?? 0
        var result: ObjectCount
        do {
            let counted = try ctx.withTimeLimit(timeLimit) {
                try ctx.count(view.entity.name, matching: view.exactCount ? criteria : criteria.limit(cap + 1))
            }
            result = counted > cap && !view.exactCount
                ? ObjectCount(objects: cap, isComplete: false, stoppedAtTimeLimit: false, byEntity: [])
                : ObjectCount(objects: counted, isComplete: true, stoppedAtTimeLimit: false, byEntity: [])
        } catch let error as CDStoreError where error.code == .interrupted {
            // The page itself says how many there are at least: all of them when it is the only one.
            let complete = page != nil && page?.nextAfter == nil && view.after == nil
            return ObjectCount(objects: complete ? shown : max(0, known - 1), isComplete: complete, stoppedAtTimeLimit: !complete,
                               byEntity: [])
        }
        guard result.isComplete, view.hasSubentities, result.objects > 0 else { return result }
        var split: [(name: String, objects: Int)] = []
        do {
            for member in model.subtree(of: view.entity) where !member.isAbstract {
                let own = try ctx.withTimeLimit(timeLimit) {
                    try ctx.count(member.name, matching: criteria.excludingSubentities())
                }
                split.append((member.name, own))
            }
            result.byEntity = split
        } catch let error as CDStoreError where error.code == .interrupted {
            // The total stands; only the split is left out.
        }
        return result
    }

    /// The sentence a page shows: `5 objects: Employee 4, Manager 1`, `more than 10,000 objects`.
    var words: String {
        let number = ValueCells.grouped(objects)
        if isComplete { return "\(number) object\(objects == 1 ? "" : "s")" }
        return "more than \(number) object\(objects == 1 ? "" : "s")"
    }

    /// The count as JSON fields: `count`, `countComplete`, `countStoppedAtTimeLimit`, `countByEntity`.
    var jsonFields: [(String, ObjectValue)] {
        var fields: [(String, ObjectValue)] = [("count", .integer(Int64(objects))), ("countComplete", .bool(isComplete)),
                                               ("countStoppedAtTimeLimit", .bool(stoppedAtTimeLimit))]
        if !byEntity.isEmpty {
            fields.append(("countByEntity", .dictionary(byEntity.map { ($0.name, .integer(Int64($0.objects))) })))
        }
        return fields
    }
}
