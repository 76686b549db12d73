import CDStoreJSON
import CDStoreModel
import Foundation

/// The store's metadata: `Z_METADATA.Z_UUID` and the binary property list in `Z_METADATA.Z_PLIST`
/// (coredata-format.md §1.9).
///
/// Keys cdstore does not know (an app's `setMetadata:` entries, newer framework keys) are kept as they are
/// when the metadata is written back.
///
/// Core Data equivalent: `NSPersistentStoreCoordinator.metadataForPersistentStore(ofType:at:)`.
package struct StoreMetadata: @unchecked Sendable {
    /// Key under which earlier cdstore versions kept the JSON model a store was made with (docs/decisions/0002). Stores
    /// now carry Core Data's own `Z_MODELCACHE` instead (0008); the key is still read, and still written for a
    /// model whose cache cannot be archived (see `Store.keepModel`).
    package static let cachedModelKey = "cdstore.model"
    /// `NSPersistenceFrameworkVersion` cdstore writes: Core Data's build in 2024 stores (iOS 17 / macOS 14).
    package static let frameworkVersion = 1344

    /// The store UUID (`Z_UUID`, reported by Core Data as `NSStoreUUID`).
    package var uuid: String
    /// The whole property list; nil for a store whose `Z_PLIST` is NULL.
    package var plist: [String: Any]?

    /// Creates metadata.
    package init(uuid: String, plist: [String: Any]?) {
        self.uuid = uuid
        self.plist = plist
    }

    /// The metadata Core Data writes into a new store for `model`.
    package static func new(for model: ManagedObjectModel, uuid: String = UUID().uuidString) throws -> StoreMetadata {
        var metadata = StoreMetadata(uuid: uuid, plist: [:])
        try metadata.setModel(model)
        metadata.plist?["NSStoreType"] = "SQLite"
        metadata.plist?["NSPersistenceFrameworkVersion"] = frameworkVersion
        metadata.plist?["_NSAutoVacuumLevel"] = "2"
        return metadata
    }

    /// Replaces the model-describing keys (hashes, identifiers, digest, checksum) with `model`'s and drops a JSON
    /// model kept under ``cachedModelKey``, which would describe the model being replaced. The model itself goes
    /// to `Z_MODELCACHE` (`Store.keepModel`).
    package mutating func setModel(_ model: ManagedObjectModel) throws {
        var plist = self.plist ?? [:]
        plist["NSStoreModelVersionHashes"] = VersionHasher.entityHashes(of: model).mapValues { Data($0) }
        plist["NSStoreModelVersionHashesVersion"] = 3
        plist["NSStoreModelVersionIdentifiers"] = model.versionIdentifiers
        plist["NSStoreModelVersionHashesDigest"] = VersionHasher.hashesDigest(of: model)
        plist["NSStoreModelVersionChecksumKey"] = VersionHasher.versionChecksum(of: model)
        plist.removeValue(forKey: Self.cachedModelKey)
        self.plist = plist
    }

    /// Keeps `model` as cdstore's JSON model under ``cachedModelKey``: only for a model `Z_MODELCACHE` cannot hold.
    package mutating func keepJSONModel(_ model: ManagedObjectModel) throws {
        var plist = self.plist ?? [:]
        plist[Self.cachedModelKey] = try JSONModelCodec.encode(model)
        self.plist = plist
    }

    /// Entity version hashes the store was saved with (`NSStoreModelVersionHashes`).
    package var entityHashes: [String: Data] {
        (plist?["NSStoreModelVersionHashes"] as? [String: Any])?.compactMapValues { $0 as? Data } ?? [:]
    }

    /// The model's version identifiers (`NSStoreModelVersionIdentifiers`).
    package var versionIdentifiers: [String] {
        (plist?["NSStoreModelVersionIdentifiers"] as? [Any])?.compactMap { $0 as? String } ?? []
    }

    /// `NSPersistenceFrameworkVersion`: the Core Data build that last wrote the metadata.
    package var persistenceFrameworkVersion: Int? {
        integer("NSPersistenceFrameworkVersion")
    }

    /// The JSON model an earlier cdstore kept in the store (``cachedModelKey``), if any.
    package var cachedModel: Data? { plist?[Self.cachedModelKey] as? Data }

    /// The binary property list for `Z_PLIST`: the same metadata always gives the same bytes (keys sorted,
    /// see ``BinaryPropertyListWriter``), unlike `PropertyListSerialization`, whose order changes per process.
    package func encodedPlist() throws -> Data? {
        guard let plist else { return nil }
        return try BinaryPropertyListWriter.data(try PropertyListValue(foundationObject: plist))
    }

    /// Reads `Z_PLIST` contents (nil for a NULL column) with cdstore's own property-list reader (the one fuzzed
    /// with compiled models), not Foundation's: a damaged store cannot crash the process, and opening a store no
    /// longer pays for `PropertyListSerialization` and `NSDictionary` bridging (a tenth of `count`'s start-up,
    /// docs/decisions/0013-bulk-load-speed.md). Values come out as Swift's own types: `Int64`, `Bool`, `Double`,
    /// `String`, `Data`, `Date`, arrays and dictionaries (read numbers with ``integer(_:)``).
    package static func decode(uuid: String, plist data: Data?) throws -> StoreMetadata {
        guard let data, !data.isEmpty else { return StoreMetadata(uuid: uuid, plist: nil) }
        let value: PropertyListValue
        do {
            value = try PropertyListReader.read(data)
        } catch {
            throw StoreError(.cannotOpen, "Z_METADATA.Z_PLIST is not a property list (\(error))")
        }
        guard let dictionary = value.dictionaryValue else {
            throw StoreError(.cannotOpen, "Z_METADATA.Z_PLIST is not a dictionary property list")
        }
        return StoreMetadata(uuid: uuid, plist: dictionary.mapValues(\.foundationObject))
    }

    /// The integer under `key`, however it was stored (a Swift integer as read, an `NSNumber`, a boolean).
    package func integer(_ key: String) -> Int? {
        switch plist?[key] {
        case let n as Int64: return Int(exactly: n)
        case let n as Int: return n
        case let b as Bool: return b ? 1 : 0
        case let n as NSNumber: return n.intValue
        default: return nil
        }
    }

    /// Entities whose stored hash differs from `model`'s, or that exist on one side only, sorted by name.
    package func hashDifferences(from model: ManagedObjectModel) -> [String] {
        let stored = entityHashes
        let current = VersionHasher.entityHashes(of: model).mapValues { Data($0) }
        return Set(stored.keys).union(current.keys).filter { stored[$0] != current[$0] }.sorted()
    }
}
