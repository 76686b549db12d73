import CDStoreModel
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

    /// A document in another declared encoding is not checked as UTF-8.
    @Test func aLatin1DocumentStillLoads() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<model>\n<entity name=\"Caf".utf8) + [0xE9]
            + Array("\" representedClassName=\"Cafe\"/>\n</model>\n".utf8)
        let loaded = try xml(bytes)
        #expect(loaded.model.entities.map(\.name) == ["Café"])
    }
}
