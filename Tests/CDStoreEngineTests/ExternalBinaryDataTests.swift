import CDStoreModel
@testable import CDStoreEngine
import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// `Binary` attributes with external storage: `0x01 ‖ bytes` in the row, `0x02 ‖ name ‖ 0x00` for a file in
/// `.<store>_SUPPORT/_EXTERNAL_DATA/`.
@Suite struct ExternalBinaryDataTests {
    static var attribute: Attribute {
        var a = Attribute(name: "thumbnail", type: .binary, isOptional: true)
        a.allowsExternalBinaryDataStorage = true
        return a
    }

    /// A store file with a hand-made support directory holding one external file.
    static func makeStore() throws -> (store: URL, fileName: String, contents: Data) {
        let folder = try temporaryDirectory()
        let store = folder.appendingPathComponent("Photos.sqlite")
        let external = folder.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        let name = "0B2E6C4A-52B8-4F5C-9F1E-3C8A4E1D7F20"
        let contents = Data((0..<2048).map { UInt8($0 % 251) })
        try contents.write(to: external.appendingPathComponent(name))
        return (store, name, contents)
    }

    static func externalReference(_ name: String) -> Data {
        Data([0x02]) + Data(name.utf8) + Data([0x00])
    }

    @Test func supportDirectoryIsBesideTheStore() {
        let location = ExternalDataLocation(storeFile: URL(fileURLWithPath: "/data/App/Model.v2.sqlite"))
        #expect(location.directory.path == "/data/App/.Model.v2_SUPPORT/_EXTERNAL_DATA")
        #expect(ExternalDataLocation.supportDirectory(forStoreFile: URL(fileURLWithPath: "/x/Notes.storedata")).path
                == "/x/.Notes_SUPPORT")
    }

    @Test func readsInlineAndExternalValues() throws {
        let (store, name, contents) = try Self.makeStore()
        let location = ExternalDataLocation(storeFile: store)
        let attribute = Self.attribute

        let inline = Data([0x01, 0xDE, 0xAD]).databaseValue
        #expect(try AttributeCoding.objectValue(inline, for: attribute, externalData: location) == .data(Data([0xDE, 0xAD])))
        #expect(AttributeCoding.objectValue(inline, for: attribute) == .data(Data([0xDE, 0xAD])))

        let external = Self.externalReference(name).databaseValue
        #expect(try AttributeCoding.objectValue(external, for: attribute, externalData: location) == .data(contents))
        // Without the store's location the reference cannot be followed: the raw column comes back.
        #expect(AttributeCoding.objectValue(external, for: attribute) == .data(Self.externalReference(name)))
        let noFolder = #expect(throws: StoreError.self) { try AttributeCoding.objectValue(external, for: attribute, externalData: nil) }
        #expect(noFolder?.code == .cannotOpen)
        #expect(noFolder?.description == "value is kept in external data file '0B2E6C4A-52B8-4F5C-9F1E-3C8A4E1D7F20', "
                + "but the store's _EXTERNAL_DATA directory is not known")

        // Other bytes stay as they are; NULL is nil.
        let other = Data([0x07, 0x08]).databaseValue
        #expect(try AttributeCoding.objectValue(other, for: attribute, externalData: location) == .data(Data([0x07, 0x08])))
        #expect(try AttributeCoding.objectValue(.null, for: attribute, externalData: location) == .null)
    }

    @Test func missingFileNamesItAndCoreDataCode() throws {
        let (store, _, _) = try Self.makeStore()
        let location = ExternalDataLocation(storeFile: store)
        let value = Self.externalReference("NOT-THERE").databaseValue
        do {
            _ = try AttributeCoding.objectValue(value, for: Self.attribute, externalData: location)
            Issue.record("a missing external file must be an error")
        } catch let error as StoreError {
            let folder = store.deletingLastPathComponent().appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA").path
            #expect(error.description == "external data file 'NOT-THERE' is missing from \(folder) (Core Data error 134185)")
            #expect(error.property == "thumbnail")
        }
    }

    @Test func fileNamesCannotLeaveTheDirectory() throws {
        let (store, _, _) = try Self.makeStore()
        let location = ExternalDataLocation(storeFile: store)
        for name in ["../Photos.sqlite", "..", "a/b"] {
            let error = #expect(throws: StoreError.self) {
                try AttributeCoding.objectValue(Self.externalReference(name).databaseValue, for: Self.attribute, externalData: location)
            }
            #expect(error?.code == .cannotOpen, "\(name)")
            #expect(error?.description == "external data reference '\(name)' is not a file name")
        }
    }

    @Test func referencesParse() {
        #expect(ExternalBinaryData.reference(Data([0x01])) == .inline(Data()))
        #expect(ExternalBinaryData.reference(Self.externalReference("abc")) == .external(fileName: "abc"))
        #expect(ExternalBinaryData.reference(Data([0x02, 0x61])) == .raw(Data([0x02, 0x61])))  // no terminator
        #expect(ExternalBinaryData.reference(Data([0x02, 0x00])) == .raw(Data([0x02, 0x00])))  // empty name
        #expect(ExternalBinaryData.reference(Data()) == .raw(Data()))
    }

    @Test func writesInline() throws {
        let attribute = Self.attribute
        let stored = try AttributeCoding.storedValue(.string(Data([9, 8, 7]).base64EncodedString()), for: attribute)
        #expect(stored == Data([0x01, 9, 8, 7]).databaseValue)
        #expect(AttributeCoding.objectValue(stored, for: attribute) == .data(Data([9, 8, 7])))
        // Without external storage the bytes are stored as they are.
        let plain = Attribute(name: "raw", type: .binary)
        #expect(try AttributeCoding.storedValue(.string("CQgH"), for: plain) == Data([9, 8, 7]).databaseValue)
    }

    @Test func lengthLimitsCountTheBytesNotTheMarker() throws {
        var attribute = Self.attribute
        attribute.maxValue = "3"
        let validation = AttributeValidation(model: ManagedObjectModel(entities: []))
        let stored = try AttributeCoding.storedValue(.string(Data([1, 2, 3]).base64EncodedString()), for: attribute)
        #expect(throws: Never.self) { try validation.validate(stored, for: attribute) }
        let tooLong = try AttributeCoding.storedValue(.string(Data([1, 2, 3, 4]).base64EncodedString()), for: attribute)
        let error = #expect(throws: StoreError.self) { try validation.validate(tooLong, for: attribute) }
        #expect(error?.code == .invalidInput)
        #expect(error?.description == "4 bytes is longer than the maximum length 3")
    }
}
