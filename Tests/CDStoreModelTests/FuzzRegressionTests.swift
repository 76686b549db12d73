@testable import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Inputs the fuzz targets in Fuzz/ found that crashed or hung a model reader. Each must now be a thrown error.
@Suite("Fuzz regressions: model readers")
struct ModelFuzzRegressionTests {
    func xml(_ bytes: [UInt8]) throws -> LoadedModel {
        try XcodeModelReader.read(Data(bytes), file: URL(fileURLWithPath: "/fuzz/M.xcdatamodel/contents"))
    }

    /// `XMLParser` trapped on an element name that is not UTF-8 (fuzz-xml-model).
    @Test func anElementNameThatIsNotUTF8IsMalformedXML() {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n    <entity name=\"A\">\n        <".utf8)
            + [0xFF, 0xFF] + Array("ibute name=\"x\" attributeType=\"String\"/>\n    </entity>\n</model>\n".utf8)
        #expect { try xml(bytes) } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .malformedXML && error.line == 4 && error.column == 10
        }
    }

    /// The same for an attribute name (fuzz-xml-model).
    @Test func anAttributeNameThatIsNotUTF8IsMalformedXML() {
        let bytes = Array("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\" x".utf8) + [0xC3]
            + Array("=\"1\">\n</entity>\n</model>\n".utf8)
        #expect { try xml(bytes) } throws: { error in (error as? ModelError)?.code == .malformedXML }
    }

    /// An unknown declared encoding was read as UTF-8 by libxml2, so it had to be checked as UTF-8 (fuzz-xml-model);
    /// cdstore's own reader refuses it by name.
    @Test func anUnknownDeclaredEncodingIsCheckedAsUTF8() {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"Ucode 4.3\"?>\n<model>\n<entity name=\"A\">\n<".utf8)
            + [0xFF, 0xFF] + Array("ibute name=\"x\"/>\n</entity>\n</model>\n".utf8)
        #expect { try xml(bytes) } throws: { error in
            (error as? ModelError)?.description
                == "/fuzz/M.xcdatamodel/contents:1:1: not well-formed XML (unsupported encoding 'Ucode 4.3' (cdstore reads UTF-8, UTF-16 and ISO-8859-1))"
        }
    }

    /// `encoding=` outside the XML declaration is not a declared encoding.
    @Test func anEncodingAttributeOnTheModelIsNotADeclaration() {
        let bytes = Array("<model encoding=\"latin1\">\n<".utf8) + [0xFF] + Array("x/>\n</model>\n".utf8)
        #expect { try xml(bytes) } throws: { error in (error as? ModelError)?.code == .malformedXML }
    }

    /// A document declared ISO-8859-1 is not checked as UTF-8.
    @Test func aLatin1DocumentStillLoads() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<model>\n<entity name=\"Caf".utf8) + [0xE9]
            + Array("\" representedClassName=\"Cafe\"/>\n</model>\n".utf8)
        let loaded = try xml(bytes)
        #expect(loaded.model.entities.map(\.name) == ["Café"])
    }
}

/// Inputs fuzz-plist and fuzz-compiled-model found that trapped or asked for an impossible allocation.
@Suite("Fuzz regressions: property lists and archives")
struct ArchiveFuzzRegressionTests {
    /// `bplist00`, one object, a one-entry offset table and the trailer.
    func bplist(object: [UInt8], offsetTable: [UInt8], offsetSize: UInt8) -> [UInt8] {
        func be64(_ n: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: n >> (56 - 8 * $0)) } }
        let table = 8 + object.count
        return Array("bplist00".utf8) + object + offsetTable
            + [0, 0, 0, 0, 0, 0, offsetSize, 1] + be64(1) + be64(0) + be64(table)
    }

    /// A UID of 2^64 - 1 trapped converting to `Int` (fuzz-plist).
    @Test func aUIDTooLargeForIntIsAnError() {
        let bytes = bplist(object: [0x87] + Array(repeating: 0xFF, count: 8), offsetTable: [8], offsetSize: 1)
        let error = #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.read(bytes) }
        #expect(error?.description == "binary property list has an offset or reference out of range")
    }

    /// The same for an 8-byte entry in the offset table.
    @Test func anOffsetTooLargeForIntIsAnError() {
        let bytes = bplist(object: [0x08], offsetTable: Array(repeating: 0xFF, count: 8), offsetSize: 8)
        let error = #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.read(bytes) }
        #expect(error?.description == "binary property list has an offset or reference out of range")
    }

    func archive() throws -> KeyedArchive {
        try KeyedArchive(plist: .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([.string("$null"), .dictionary([:])]),
        ]))
    }

    /// An archived NSDecimalNumber default with exponent 2^60 asked for a string of 2^60 zeros
    /// (fuzz-compiled-model); one with Int64.min trapped negating it. Neither is an NSDecimal.
    @Test func aDecimalWithAnImpossibleExponentIsNotADecimal() throws {
        let formatter = ArchivedPredicateFormatter(archive: try archive())
        for exponent in [Int64(1) << 60, .min, 128, -129] {
            #expect(formatter.decimalText(["NS.mantissa": .data([1, 0]), "NS.exponent": .int(exponent)]) == nil)
        }
        #expect(formatter.decimalText(["NS.mantissa": .data([0xCF, 0x07]), "NS.exponent": .int(-2)]) == "19.99")
        #expect(formatter.decimalText(["NS.mantissa": .data([1, 0]), "NS.exponent": .int(127)])
            == "1" + String(repeating: "0", count: 127))
    }

    /// A mantissa longer than NSDecimal's 8 words is refused rather than converted in quadratic time.
    @Test func aDecimalWithAnOverlongMantissaIsNotADecimal() throws {
        let formatter = ArchivedPredicateFormatter(archive: try archive())
        let long = PropertyListValue.data(Array(repeating: 0xFF, count: 100_000))
        #expect(formatter.decimalText(["NS.mantissa": long, "NS.exponent": .int(0)]) == nil)
    }
}

/// A compiled model fuzz-compiled-model damaged: the SwiftGen corpus model with "bplist01" for "bplist00" and 47 other
/// bytes changed. Foundation's binary plist parser, which read every version but 00, crashed on it (a null metadata
/// pointer bridging an NSSet); other versions are now refused up front.
@Suite("Fuzz regressions: compiled models")
struct CompiledModelFuzzRegressionTests {
    static let patch: [(Int, UInt8)] = [
        (7, 0x31), (354, 0x8D), (355, 0x8B), (356, 0xAB), (357, 0x9A), (358, 0x92), (359, 0x8F), (360, 0x93),
        (361, 0xA0), (410, 0x00), (411, 0x40), (412, 0x80), (996, 0x90), (997, 0x8B), (998, 0x96), (999, 0x90),
        (1829, 0xCB), (2008, 0x0F), (2088, 0x30), (2093, 0x4E), (2094, 0x53), (2095, 0x44), (2096, 0x65),
        (2097, 0x72), (2098, 0x69), (2099, 0x76), (2100, 0x61), (2101, 0x74), (2102, 0x69), (2103, 0x6F),
        (2104, 0x6E), (2105, 0x45), (2106, 0x78), (2107, 0x70), (2108, 0x72), (2109, 0x65), (2110, 0x73),
        (2111, 0x73), (2112, 0x69), (2113, 0x6F), (2114, 0x6E), (2173, 0xDB), (2291, 0x34), (2594, 0x75),
        (3477, 0x00), (3478, 0xD3), (3832, 0x09), (4138, 0x30),
    ]

    @Test func aBinaryPlistOfAnotherVersionIsRefusedNotHandedToFoundation() throws {
        let mom = Corpus.compiled.appendingPathComponent("SwiftGen__SwiftGen__Model.momd/Model.mom")
        var bytes = [UInt8](try Data(contentsOf: mom))
        try #require(bytes.count == 4549)
        for (offset, byte) in Self.patch { bytes[offset] = byte }
        let error = try #require(throws: ModelError.self) {
            try CompiledModelLoader.decode(Data(bytes), file: URL(fileURLWithPath: "/fuzz/Model.mom"))
        }
        #expect(error.code == .unsupportedFormat)
        let other = #expect(throws: PropertyListReader.Failure.self) { try PropertyListReader.read(Array("bplist01".utf8) + [0, 0]) }
        #expect(other?.description == "binary property list of an unsupported version (expected bplist00)")
    }
}
