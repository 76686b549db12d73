import CDStore
import Foundation

/// Prints a store diff: as a table (or CSV), the model changes and then one summary row per entity; as JSON or
/// NDJSON, one record per model change and per object that differs.
///
/// ```
/// {"entity":"Employee","key":{"employeeNumber":1001},"change":"changed","fields":{"salary":[72000,75600]}}
/// {"entity":"Employee","key":{"employeeNumber":1007},"change":"added","values":{"employeeNumber":1007,…}}
/// {"entity":"Staff","change":"model","description":"attribute renamed: Staff.fullName (was name)"}
/// ```
struct DiffPrinter {
    let format: OutputFormat
    let output: TextOutput

    /// The summary's columns.
    static let columns = ["entity", "key", "only in A", "only in B", "changed", "same"]

    /// Runs `diff`, printing as it goes, and returns the counts per entity.
    func print(_ diff: CDStore.StoreComparison) throws -> [EntityComparison] {
        let records = format == .json || format == .ndjson
        let writer = format.writer(columns: records ? [] : Self.columns, output: output)
        if records {
            for change in diff.modelChanges {
                writer.write([("entity", .string(change.entity)), ("change", .string("model")),
                              ("description", .string(change.description))])
            }
        } else if !diff.modelChanges.isEmpty && format.isForReading {
            for change in diff.modelChanges { output.line(change.description) }
            output.line("")
        }
        let comparisons = try diff.run { difference in
            guard records else { return }
            writer.write(Self.record(difference))
        }
        if !records {
            for comparison in comparisons { writer.write(Self.summary(comparison)) }
        }
        writer.finish()
        return comparisons
    }

    /// One difference as a record: entity, key, change, then `fields` (name → [A's value, B's value]) for a
    /// changed object or `values` (name → value) for an added or removed one.
    static func record(_ difference: ObjectDifference) -> [(String, ObjectValue)] {
        var record: [(String, ObjectValue)] = [("entity", .string(difference.entity)), ("key", .dictionary(difference.key)),
                                               ("change", .string(difference.change.rawValue))]
        switch difference.change {
        case .changed:
            record.append(("fields", .dictionary(difference.fields.map { ($0.name, .array([$0.a, $0.b])) })))
        case .added, .removed:
            record.append(("values", .dictionary(difference.values)))
        }
        return record
    }

    /// One entity's counts as a summary row.
    static func summary(_ comparison: EntityComparison) -> [(String, ObjectValue)] {
        [("entity", .string(comparison.entity)), ("key", .string(comparison.key.attributes.joined(separator: ","))),
         ("only in A", .integer(Int64(comparison.onlyInA))), ("only in B", .integer(Int64(comparison.onlyInB))),
         ("changed", .integer(Int64(comparison.changed))), ("same", .integer(Int64(comparison.same)))]
    }

    /// Notes for standard error: the entities matched by `Z_PK` (said once), and keys shared by several objects.
    static func notes(planned: [EntityComparison], ran: [EntityComparison]) -> [String] {
        var notes: [String] = []
        let byPrimaryKey = planned.filter { $0.key == .primaryKey }.map(\.entity)
        if !byPrimaryKey.isEmpty {
            notes.append("note: matched by Z_PK, as no uniqueness constraint, --key or identityAttribute gives a key: "
                         + byPrimaryKey.joined(separator: ", ") + " (objects with other primary keys in the two stores show as different)")
        }
        for comparison in ran where comparison.sharedKeys > 0 {
            notes.append("warning: \(comparison.entity): \(comparison.sharedKeys) \(comparison.sharedKeys == 1 ? "object has" : "objects have") "
                         + "the key (\(comparison.key.attributes.joined(separator: ","))) of another object of the same store; "
                         + "such objects are paired in Z_PK order")
        }
        return notes
    }
}
