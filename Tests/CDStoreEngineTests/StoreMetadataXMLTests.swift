import CDStoreModel
@testable import CDStoreEngine
import Foundation
import Testing

/// `Z_PLIST` metadata that is XML (Core Data writes binary, a damaged or crafted store need not) goes
/// through cdstore's own XML reader, never Foundation's XML plist parser, and reads as the binary form does.
@Suite("Store metadata in XML")
struct StoreMetadataXMLTests {
    static let value: PropertyListValue = .dictionary([
        "NSPersistenceFrameworkVersion": .int(1344),
        "NSStoreModelVersionHashes": .dictionary(["A": .data([1, 2, 3])]),
        "NSStoreModelVersionIdentifiers": .array([.string("v1")]),
        "NSStoreType": .string("SQLite"),
    ])

    @Test func xmlMetadataReadsAsTheBinaryFormDoes() throws {
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.value.foundationObject, format: .xml, options: 0)
        let fromXML = try StoreMetadata.decode(uuid: "U", plist: xml)
        let fromBinary = try StoreMetadata.decode(uuid: "U", plist: try BinaryPropertyListWriter.data(Self.value))
        #expect(fromXML.entityHashes == ["A": Data([1, 2, 3])])
        #expect(fromXML.versionIdentifiers == ["v1"] && fromXML.persistenceFrameworkVersion == 1344)
        #expect(try fromXML.encodedPlist() == fromBinary.encodedPlist())
    }

    @Test func damagedXMLMetadataCannotBeOpened() {
        let damaged = Data("<?xml version=\"1.0\"?><?pi?><plist><dict><key>a</key>".utf8)
        #expect { try StoreMetadata.decode(uuid: "U", plist: damaged) } throws: { error in
            (error as? StoreError)?.code == .cannotOpen
                && (error as? StoreError)?.message.contains("1:53: not well-formed XML (the document ends inside <dict> (truncated?))") == true
        }
    }
}
