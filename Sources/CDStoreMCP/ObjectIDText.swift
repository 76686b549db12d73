import CDStore
import Foundation

/// Object IDs and dates as an assistant writes them.
enum ObjectIDText {
    /// `x-coredata://<UUID>/Entity/pN` of this store, or the short `Entity/pN`.
    static func parse(_ text: String, store: CDStore, argument: String = "id") throws(ToolError) -> ObjectID {
        let id: ObjectID
        if let full = ObjectID(uri: text) {
            guard full.storeUUID == store.storeUUID else {
                throw ToolError(argument, "'\(text)' is an object of another store (this store's UUID is \(store.storeUUID))")
            }
            id = full
        } else {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].first == "p", let key = Int64(parts[1].dropFirst()), key > 0 else {
                throw ToolError(argument, "'\(text.prefix(120))' is not an object ID: write x-coredata://\(store.storeUUID)/Entity/p1 or Entity/p1")
            }
            id = ObjectID(storeUUID: store.storeUUID, entity: String(parts[0]), primaryKey: key)
        }
        guard store.model.entities.contains(where: { $0.name == id.entity }) else {
            throw ToolError(argument, ModelDescription.unknownEntity(id.entity, in: store.model))
        }
        return id
    }

    /// An ISO 8601 date or date and time (`2024-05-01`, `2024-05-01T12:30:00Z`, with fractions or an offset).
    static func date(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }
}

/// History entries as JSON.
enum HistoryJSON {
    /// The most changes one transaction lists; more are counted under `changes_total`.
    static let maximumChanges = 200

    static func entry(_ transaction: HistoryTransaction) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("number", .integer(transaction.number))]
        pairs.append(("date", transaction.date.map { JSONValue.string(ObjectJSON.iso8601($0.timeIntervalSinceReferenceDate)) } ?? JSONValue.null))
        pairs.append(("author", transaction.author.map(JSONValue.string) ?? .null))
        pairs.append(("bundle_id", transaction.bundleID.map(JSONValue.string) ?? .null))
        pairs.append(("process_id", transaction.processID.map(JSONValue.string) ?? .null))
        pairs.append(("context", transaction.contextName.map(JSONValue.string) ?? .null))
        pairs.append(("changes_total", .integer(Int64(transaction.changes.count))))
        pairs.append(("changes", .array(transaction.changes.prefix(maximumChanges).map { change in
            var fields: [(String, JSONValue)] = [
                ("type", .string(change.type.description)), ("entity", .string(change.entity)),
                ("object", .string(change.objectID.description)),
            ]
            if let updated = change.updatedProperties { fields.append(("updated", .array(updated.map(JSONValue.string)))) }
            if let tombstone = change.tombstone {
                fields.append(("tombstone", .object(tombstone.map { ($0.name, ObjectJSON.value($0.value)) })))
            }
            return .object(fields)
        })))
        return .object(pairs)
    }
}
