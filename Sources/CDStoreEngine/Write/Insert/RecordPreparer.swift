import CDStoreJSON
import CDStoreModel
internal import GRDB

/// A flat record converted and checked against the model: the values of its columns, ready to bind.
struct PreparedRow {
    /// The stored value of every attribute column, in the write plan's column order (defaults filled in).
    let row: [DatabaseValue]
    /// The input line the record started on, for errors.
    let line: Int?
}

/// The converted rows of a nested record's objects, in the record's shape: what ``GraphInserter`` would compute
/// for each object, computed on the reading thread.
final class PreparedObjectRows: @unchecked Sendable {
    /// The entity the row was made for (the writer uses it only for an object of that entity).
    let entityName: String
    /// The object's fields sorted by that entity's write plan: the writer reads the relationships from them instead
    /// of sorting the fields again.
    let fields: PlannedFields
    /// The stored attribute values (``EntityWritePlan/row(_:validatingMissing:)``); nil when they failed, so that
    /// the writing thread converts them itself and reports the error in its place.
    let row: [DatabaseValue]?
    /// The nested new objects of each relationship: by index in a to-many's array, the one object of a to-one
    /// (nil where an item is not a nested object, or was not prepared).
    let nested: [String: [PreparedObjectRows?]]

    init(entityName: String, fields: PlannedFields, row: [DatabaseValue]?, nested: [String: [PreparedObjectRows?]]) {
        self.entityName = entityName
        self.fields = fields
        self.row = row
        self.nested = nested
    }

    /// The prepared nested object at `index` of `relationship`.
    func nested(_ relationship: String, at index: Int) -> PreparedObjectRows? {
        guard let items = nested[relationship], index < items.count else { return nil }
        return items[index]
    }
}

/// A record as an insert receives it: as read, as a flat row ready to bind, or as read with its objects' rows.
///
/// Indirect: each item is one reference, boxed on the reading thread. Unboxed, the writing thread's copy of an
/// item out of its batch went through the generic value witnesses of a multi-payload enum, 700 instructions per
/// record for the copy and its release (ADR 0013).
indirect enum SourceItem {
    case record(InputRecord)
    case prepared(PreparedRow)
    case graph(InputRecord, PreparedObjectRows)
}

/// Converts and checks records on the thread that reads them (``ReadAhead``), so that the thread that writes
/// mostly binds and steps INSERTs: a load then costs about max(read + convert, write) rather than their sum
/// (figures in docs/decisions/0013-bulk-load-speed.md).
///
/// Only what needs nothing from the database is prepared. A flat record of the requested entity (no relationship
/// value, an entity with no uniqueness constraint to look up) becomes a ``PreparedRow``, written as it is. For any
/// other record each object's attribute values are converted and checked (``PreparedObjectRows``), and the writing
/// thread does the rest: references, uniqueness lookups, relationships. Whatever fails to prepare (a key that names
/// nothing, a value the model refuses, an unknown sub-entity) is left to the writing thread, whose general path gives
/// it exactly the outcome and error it gives without preparation.
///
/// The preparer has write plans of its own, one per entity, made before the reader starts: a plan remembers the
/// last record's keys, which must not be shared between threads. Their rules share compiled regular expressions
/// with the writer's, which Foundation lets several threads use (it clones the ICU matcher of one in use).
final class RecordPreparer: @unchecked Sendable {
    private let plans: [String: EntityWritePlan]
    private let model: ManagedObjectModel
    private let entity: Entity
    /// The requested entity's plan, when its records can be written as flat rows.
    private let flatPlan: EntityWritePlan?

    /// A preparer for records of `entity`, or nil when none could be prepared: the records are read through a
    /// JSON mapping (which reads keys and files its own way), or invalid records are skipped one by one (each in its
    /// own savepoint, its rules checked as it is stored).
    init?(entity: Entity, store: Store, options: InsertSettings) throws {
        guard options.mapping == nil, !options.skipInvalid else { return nil }
        // Keys that name nothing fail preparation instead of being counted here: the writing thread counts them.
        var refusing = options
        refusing.unknownKeys = .refused
        var plans: [String: EntityWritePlan] = [:]
        for candidate in store.model.entities where !candidate.isAbstract && store.layout.entity(named: candidate.name) != nil {
            plans[candidate.name] = try EntityWritePlan(entity: candidate, store: store, options: refusing)
        }
        self.plans = plans
        model = store.model
        self.entity = entity
        flatPlan = plans[entity.name].flatMap { $0.mayMerge ? nil : $0 }
    }

    /// `record`, prepared as far as it can be.
    func prepare(_ record: InputRecord) -> SourceItem {
        if let flatPlan, let row = flatRow(record, plan: flatPlan) { return .prepared(row) }
        if let rows = objectRows(record.fields, requested: entity, named: record.entityName, depth: 1) {
            return .graph(record, rows)
        }
        return .record(record)
    }

    private func flatRow(_ record: InputRecord, plan: EntityWritePlan) -> PreparedRow? {
        if let named = record.entityName, named != entity.name { return nil }
        // Fields that are all attributes (so no `_entity` among them), keyed as the last record's were.
        if let row = try? plan.directRow(record.fields) { return PreparedRow(row: row, line: record.line) }
        for (key, value) in record.fields where key == "_entity" {
            guard case .string(let named) = value, named == entity.name else { return nil }
        }
        guard let sorted = try? plan.sort(record.fields, model: model), sorted.relationships.isEmpty,
              let row = try? plan.row(sorted, validatingMissing: true) else { return nil }
        return PreparedRow(row: row, line: record.line)
    }

    /// The rows of the object `fields` describe and of the new objects nested in it, as ``GraphInserter`` would
    /// convert them; nil when nothing in it could be prepared.
    private func objectRows(_ fields: [(String, InputValue)], requested: Entity, named: String?, depth: Int) -> PreparedObjectRows? {
        guard depth <= GraphInserter.nestingLimit else { return nil }
        var name = named
        if name == nil, let field = fields.first(where: { $0.0 == "_entity" }), case .string(let text) = field.1 { name = text }
        let concrete: Entity
        if let name, name != requested.name {
            guard let sub = model.entity(named: name), model.subtree(of: requested).contains(where: { $0.name == name }) else { return nil }
            concrete = sub
        } else {
            concrete = requested
        }
        guard let plan = plans[concrete.name], let sorted = try? plan.sort(fields, model: model) else { return nil }
        let row = try? plan.row(sorted, validatingMissing: !plan.mayMerge)
        var nested: [String: [PreparedObjectRows?]] = [:]
        for (relationship, value) in sorted.relationships {
            guard let destination = model.entity(named: relationship.destination) else { continue }
            switch value {
            case .array(let items):
                let rows = items.map { item -> PreparedObjectRows? in
                    guard case .object(let members) = item, !members.contains(where: { $0.0 == "_ref" }) else { return nil }
                    return objectRows(members, requested: destination, named: nil, depth: depth + 1)
                }
                if rows.contains(where: { $0 != nil }) { nested[relationship.name] = rows }
            case .object(let members) where !members.contains(where: { $0.0 == "_ref" }):
                if let rows = objectRows(members, requested: destination, named: nil, depth: depth + 1) {
                    nested[relationship.name] = [rows]
                }
            default:
                break
            }
        }
        guard row != nil || !nested.isEmpty else { return nil }
        return PreparedObjectRows(entityName: concrete.name, fields: sorted, row: row, nested: nested)
    }
}

extension PlannedFields {
    /// The fields a prepared row was made from, as far as error messages need them: its stored values.
    init(prepared row: [DatabaseValue]) {
        attributes = row.map { value -> InputValue? in
            switch value.storage {
            case .null: return .null
            case .int64(let i): return .integer(i)
            case .double(let d): return .double(d)
            case .string(let s): return .string(s)
            case .blob(let data): return .string(data.base64EncodedString())
            }
        }
    }
}
