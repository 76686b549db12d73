import CDStoreJSON
import Foundation

/// A managed object's identity as Core Data prints it: `x-coredata://<store UUID>/<Entity>/p<primary key>`.
///
/// Core Data equivalent: `NSManagedObjectID.uriRepresentation()`.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The UUID of the store the object lives in (`Z_METADATA.Z_UUID`).
    public var storeUUID: String
    /// The object's entity (its concrete entity, not an ancestor).
    public var entity: String
    /// Its primary key (`Z_PK`).
    public var primaryKey: Int64

    /// Creates an object ID.
    public init(storeUUID: String, entity: String, primaryKey: Int64) {
        self.storeUUID = storeUUID
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// Reads the URI form; nil when `text` is not one.
    public init?(uri text: String) {
        guard text.hasPrefix("x-coredata://") else { return nil }
        let parts = text.dropFirst("x-coredata://".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].first == "p",
              let pk = Int64(parts[2].dropFirst()), pk > 0 else { return nil }
        self.init(storeUUID: String(parts[0]), entity: String(parts[1]), primaryKey: pk)
    }

    /// The URI form.
    public var description: String { "x-coredata://\(storeUUID)/\(entity)/p\(primaryKey)" }
}

/// A row of an entity table: enough to find an object and to name it.
package struct ObjectRef: Hashable, Sendable {
    /// `Z_PK`.
    package var pk: Int64
    /// `Z_ENT` of its concrete entity.
    package var entityNumber: Int

    package init(pk: Int64, entityNumber: Int) {
        self.pk = pk
        self.entityNumber = entityNumber
    }
}

extension ObjectID: Codable {
    /// Reads the URI form (`x-coredata://…`), as `Encodable` wrote it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ObjectID(uri: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an object ID (x-coredata://…)")
        }
        self = id
    }

    /// Writes the URI form, as Core Data prints object IDs.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
