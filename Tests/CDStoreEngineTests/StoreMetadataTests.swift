import CDStoreModel
import Foundation
import Testing
@testable import CDStoreEngine

/// `Z_METADATA.Z_PLIST` read by cdstore's own property-list reader: values as Swift types, numbers however they were
/// stored, damaged bytes an error (never a crash in Foundation's parser).
@Suite("Store metadata")
struct StoreMetadataTests {
    private func encoded(_ entries: [String: PropertyListValue]) throws -> Data {
        try BinaryPropertyListWriter.data(.dictionary(entries))
    }

    @Test func valuesComeOutAsSwiftTypes() throws {
        let hash = Data([1, 2, 3])
        let metadata = try StoreMetadata.decode(uuid: "U", plist: try encoded([
            "NSStoreType": .string("SQLite"),
            "NSPersistenceFrameworkVersion": .int(1344),
            "NSStoreModelVersionHashesVersion": .int(3),
            "NSStoreModelVersionHashes": .dictionary(["Person": .data([1, 2, 3])]),
            "NSStoreModelVersionIdentifiers": .array([.string("v2")]),
            "NSPersistentStoreRebuildIndicesKey": .bool(true),
        ]))
        #expect(metadata.uuid == "U")
        #expect(metadata.plist?["NSStoreType"] as? String == "SQLite")
        #expect(metadata.persistenceFrameworkVersion == 1344)
        #expect(metadata.integer("NSStoreModelVersionHashesVersion") == 3)
        #expect(metadata.entityHashes == ["Person": hash])
        #expect(metadata.versionIdentifiers == ["v2"])
        #expect(metadata.plist?["NSPersistentStoreRebuildIndicesKey"] as? Bool == true)
        #expect(metadata.integer("NSPersistentStoreRebuildIndicesKey") == 1)
        #expect(metadata.integer("NSStoreType") == nil)
        #expect(metadata.integer("missing") == nil)
    }

    /// Metadata set in code (an `NSNumber`, a Swift `Int`) reads as the same integer as metadata read from a store.
    @Test func integersSetInCodeRead() {
        let metadata = StoreMetadata(uuid: "U", plist: ["a": NSNumber(value: 7), "b": 8, "c": Int64(9)])
        #expect(metadata.integer("a") == 7)
        #expect(metadata.integer("b") == 8)
        #expect(metadata.integer("c") == 9)
    }

    /// What was read writes back to the same bytes: nothing is lost or retyped on the way through Swift types.
    @Test func readMetadataWritesBackTheSameBytes() throws {
        let bytes = try encoded([
            "NSStoreType": .string("SQLite"), "n": .int(-5), "r": .real(2.5), "d": .date(12.0), "b": .bool(false),
            "x": .data([0, 255]), "list": .array([.int(1), .string("two")]), "map": .dictionary(["k": .bool(true)]),
        ])
        let metadata = try StoreMetadata.decode(uuid: "U", plist: bytes)
        #expect(try metadata.encodedPlist() == bytes)
    }

    @Test func nullAndEmptyColumnsHaveNoPlist() throws {
        #expect(try StoreMetadata.decode(uuid: "U", plist: nil).plist == nil)
        #expect(try StoreMetadata.decode(uuid: "U", plist: Data()).plist == nil)
    }

    @Test(arguments: [Data("bplist00garbage".utf8), Data("not a plist".utf8), Data("bplist01".utf8)])
    func damagedBytesCannotOpen(bytes: Data) {
        #expect { try StoreMetadata.decode(uuid: "U", plist: bytes) } throws: { error in
            (error as? StoreError)?.code == .cannotOpen && "\(error)".contains("Z_METADATA.Z_PLIST is not a property list")
        }
    }

    @Test func anArrayIsNotMetadata() throws {
        let bytes = try BinaryPropertyListWriter.data(.array([.int(1)]))
        #expect { try StoreMetadata.decode(uuid: "U", plist: bytes) } throws: { error in
            (error as? StoreError)?.code == .cannotOpen && "\(error)".contains("not a dictionary property list")
        }
    }
}
