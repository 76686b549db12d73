import CDStore
import Foundation

/// The writing tools, offered only by a server started with `--allow-writes`: each call is one transaction,
/// validated against the model before it commits, and `dry_run` (true unless the call says false) runs the same
/// work and rolls it back.
struct WriteTools {
    let store: CDStore

    /// The most object IDs a result lists.
    static let listedIDs = 100

    /// Thrown out of a write transaction to roll a dry run back, carrying what it would have done.
    private struct RolledBack: Error {
        var result: JSONValue
    }

    /// Runs `body` in one write transaction; a dry run's is rolled back.
    private func transaction(dryRun: Bool, _ body: (CDStore.Context) throws -> JSONValue) throws -> JSONValue {
        do {
            return try store.write { ctx in
                let result = try body(ctx)
                if dryRun { throw RolledBack(result: result) }
                return result
            }
        } catch let rolledBack as RolledBack {
            return rolledBack.result
        }
    }

    func insert(_ arguments: ToolArguments) throws -> JSONValue {
        let entity = try ReadTools(store: store).checkedEntity(arguments)
        let dryRun = try arguments.bool("dry_run", default: true)
        guard let values = arguments.value("values") else { throw ToolError("values", "is required: an object or an array of objects") }
        let records: [JSONValue]
        switch values {
        case .object: records = [values]
        case .array(let items) where !items.isEmpty && items.count <= 1000:
            for (index, item) in items.enumerated() {
                guard case .object = item else { throw ToolError("values", "item \(index + 1) must be an object, not \(item.typeName)") }
            }
            records = items
        case .array(let items):
            throw ToolError("values", items.isEmpty ? "is an empty array: give at least one object" : "has \(items.count) objects; at most 1000 in one call")
        default: throw ToolError("values", "must be an object or an array of objects, not \(values.typeName)")
        }
        // The library reads records as `cdstore insert --json` does (graphs, `_ref`, object IDs).
        let text = JSONValue.array(records).text
        let collected = Collected()
        return try Failure.mapping {
            try transaction(dryRun: dryRun) { ctx in
                let summary = try ctx.insert(.text(text, format: .json), into: entity,
                                             options: InsertOptions(onInsert: { collected.add($0) }))
                let ids = collected.ids
                return .object([
                    ("dry_run", .bool(dryRun)), ("entity", .string(entity)),
                    (dryRun ? "would_insert" : "inserted", .integer(Int64(summary.inserted))),
                    ("objects", .array(ids.prefix(Self.listedIDs).map { JSONValue.string(dryRun ? "\($0.entity) (new)" : $0.description) })),
                    ("note", .string(dryRun ? "nothing was written: call again with dry_run false to commit" : "committed in one transaction")),
                ])
            }
        }
    }

    func update(_ arguments: ToolArguments) throws -> JSONValue {
        let entity = try ReadTools(store: store).checkedEntity(arguments)
        let predicate = try arguments.string("where", required: true)!
        let dryRun = try arguments.bool("dry_run", default: true)
        guard case .object(let pairs)? = arguments.value("values"), !pairs.isEmpty else {
            throw ToolError("values", "is required: an object of attribute names and new values")
        }
        let assignments = try pairs.map { pair throws -> UpdateAssignment in
            let (key, value) = pair
            let text: String
            switch value {
            case .null: text = "\(key):=nil"
            case .bool(let b): text = "\(key)=\(b)"
            case .integer(let i): text = "\(key)=\(i)"
            case .number(let d): text = "\(key)=\(JSONValue.numberText(d))"
            case .string(let s): text = "\(key)=\(s)"
            case .object where value["expression"] != nil:
                guard case .object(let fields) = value, fields.count == 1, case .string(let expression)? = value["expression"] else {
                    throw ToolError("values", "'\(key)': an expression is {\"expression\": \"salary * 1.05\"}")
                }
                text = "\(key):=\(expression)"
            default:
                throw ToolError("values", "'\(key)': \(value.typeName) is not a value; give a string, number, boolean, null or {\"expression\": \"…\"}")
            }
            return try Failure.mapping { try UpdateAssignment(parsing: text) }
        }
        return try Failure.mapping(predicate: predicate) {
            try transaction(dryRun: dryRun) { ctx in
                let criteria = try Criteria(predicate)
                let ids = try ctx.fetch(entity, matching: criteria.limit(Self.listedIDs)).map(\.objectID.description)
                let changed = try ctx.update(entity, matching: criteria, assignments: assignments, dryRun: dryRun)
                return .object([
                    ("dry_run", .bool(dryRun)), ("entity", .string(entity)),
                    (dryRun ? "would_update" : "updated", .integer(Int64(changed))),
                    ("objects", .array(ids.map(JSONValue.string))),
                    ("note", .string(dryRun ? "nothing was written: call again with dry_run false to commit" : "committed in one transaction")),
                ])
            }
        }
    }

    func delete(_ arguments: ToolArguments) throws -> JSONValue {
        let entity = try ReadTools(store: store).checkedEntity(arguments)
        let dryRun = try arguments.bool("dry_run", default: true)
        let predicate = try arguments.string("where")
        let idText = try arguments.string("id")
        let criteria: Criteria
        switch (predicate, idText) {
        case (let predicate?, nil): criteria = try Failure.mapping(predicate: predicate) { try Criteria(predicate) }
        case (nil, let idText?):
            let id = try ObjectIDText.parse(idText, store: store)
            criteria = try Failure.mapping { try Criteria("SELF == %@", id) }
        default: throw ToolError("where", "give either `where` (TRUEPREDICATE deletes every object) or `id`, not both or neither")
        }
        return try Failure.mapping(predicate: predicate) {
            try transaction(dryRun: dryRun) { ctx in
                let ids = try ctx.fetch(entity, matching: criteria.limit(Self.listedIDs)).map(\.objectID.description)
                let result = try ctx.delete(entity, matching: criteria, dryRun: dryRun)
                return .object([
                    ("dry_run", .bool(dryRun)), ("entity", .string(entity)),
                    (dryRun ? "would_delete" : "deleted", .integer(Int64(result.requested))),
                    ("objects", .array(ids.map(JSONValue.string))),
                    ("by_entity", .object(result.byEntity.map { ($0.0, JSONValue.integer(Int64($0.1))) })),
                    ("total", .integer(Int64(result.total))),
                    ("note", .string(dryRun ? "nothing was deleted: call again with dry_run false to commit; delete rules were applied in the count"
                                     : "committed in one transaction, delete rules applied")),
                ])
            }
        }
    }
}

/// The IDs an insert reports, collected from its callback.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [ObjectID] = []
    var ids: [ObjectID] { lock.withLock { collected } }
    func add(_ id: ObjectID) { lock.withLock { collected.append(id) } }
}
