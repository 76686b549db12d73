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

/// A record as an insert receives it: as read, or already converted and checked on the reading thread.
enum SourceItem {
    case record(InputRecord)
    case prepared(PreparedRow)
}

/// Converts and checks the flat records of one entity on the thread that reads them (``ReadAhead``), so that
/// the thread that writes only binds and steps their INSERTs: a load then costs about max(read + convert,
/// write) rather than their sum (issue 27; figures in docs/decisions/0013-bulk-load-speed.md).
///
/// Only what needs nothing from the database is prepared: a record of the requested entity itself, with no
/// relationship value, whose every value converts and passes its rules. Anything else (a relationship, a
/// sub-entity, a key that names nothing, a value that fails) is handed over as read, and the writing thread's
/// general path gives it exactly the outcome and error it gives without preparation.
///
/// The preparer has a write plan of its own: a plan remembers the last record's keys, which must not be shared
/// between threads. Its rules hold compiled regular expressions, which Foundation lets several threads use.
final class RecordPreparer: @unchecked Sendable {
    private let plan: EntityWritePlan
    private let model: ManagedObjectModel
    private let entityName: String

    /// A preparer for records of `entity`, or nil when none of them could be prepared: the entity is abstract,
    /// may merge into existing objects (uniqueness constraints or identity attributes, looked up in the tables),
    /// the records are read through a JSON mapping, or invalid records are skipped one by one (each in its own
    /// savepoint).
    init?(entity: Entity, store: Store, options: InsertOptions) throws {
        guard !entity.isAbstract, options.mapping == nil, !options.skipInvalid else { return nil }
        // Keys that name nothing fail preparation instead of being counted here: the writing thread counts them.
        var refusing = options
        refusing.unknownKeys = .refused
        let plan = try EntityWritePlan(entity: entity, store: store, options: refusing)
        guard !plan.mayMerge else { return nil }
        self.plan = plan
        model = store.model
        entityName = entity.name
    }

    /// `record` converted and checked, or nil when the writing thread must insert it as read.
    func prepare(_ record: InputRecord) -> PreparedRow? {
        if let named = record.entityName, named != entityName { return nil }
        for (key, value) in record.fields where key == "_entity" {
            guard case .string(let named) = value, named == entityName else { return nil }
        }
        guard let sorted = try? plan.sort(record.fields, model: model), sorted.relationships.isEmpty,
              let row = try? plan.row(sorted, validatingMissing: true) else { return nil }
        return PreparedRow(row: row, line: record.line)
    }

    /// Whether `other` writes the columns this preparer's rows hold, in the same order.
    func matches(_ other: EntityWritePlan) -> Bool {
        other.entity.name == entityName && other.columns.map(\.column) == plan.columns.map(\.column)
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
