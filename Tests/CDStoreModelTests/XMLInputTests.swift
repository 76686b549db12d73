@testable import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// The readers that take XML (model `contents`, XML property lists) through cdstore's own XML reader: errors are
/// `ModelError`s / `PropertyListReader.Failure`s with file, line and column.
@Suite("XML inputs: models and property lists")
struct XMLInputTests {
    static let file = URL(fileURLWithPath: "/m/M.xcdatamodel/contents")

    func model(_ bytes: [UInt8]) throws -> LoadedModel { try XcodeModelReader.read(Data(bytes), file: Self.file) }

    /// The model error for `xml` as the CLI prints it, or "no error".
    func modelError(_ xml: String) -> String {
        do {
            _ = try model(Array(xml.utf8))
            return "no error"
        } catch let error as ModelError {
            return "\(error.code.rawValue) \(error.description)"
        } catch {
            return "unexpected \(error)"
        }
    }

    static func findings() throws -> [(name: String, bytes: [UInt8])] {
        let folder = Corpus.packageRoot.appendingPathComponent("Fuzz/Corpus/xml-model")
        return try ["finding-empty-processing-instruction.xml", "finding-fuzzed-processing-instruction.xml"].map {
            ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    // MARK: - Models

    /// Both fuzz findings killed the process inside Foundation's `XMLParser`. The reduced one is well-formed (a
    /// `<model/>` with no entities, which Xcode can write too); the fuzzed one has text before its root.
    @Test func theXMLParserFindingsAreAReadAndAnError() throws {
        let findings = try Self.findings()
        #expect(findings[0].bytes == Array("<?xml version=\"1.0\"?><?pi?><model/>".utf8))
        let empty = try model(findings[0].bytes)
        #expect(empty.model.entities.isEmpty && empty.warnings.isEmpty)
        #expect { try model(findings[1].bytes) } throws: { error in
            (error as? ModelError)?.description == "/m/M.xcdatamodel/contents:1:6: not well-formed XML (text before the root element)"
        }
    }

    @Test func externalEntitiesAndEntityExpansionAreRefusedInModels() {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <model><entity name="&xxe;"/></model>
            """
        #expect(modelError(xxe) == "malformedXML /m/M.xcdatamodel/contents:3:22: not well-formed XML "
                + "(a reference to the external entity '&xxe;': cdstore never reads external entities)")
        var subset = "<!ENTITY l0 \"lol\">"
        for level in 1...9 { subset += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\(subset)]>\n<model><entity name=\"&l9;\"/></model>"
        #expect(modelError(laughs) == "malformedXML /m/M.xcdatamodel/contents:3:22: not well-formed XML "
                + "(entity references expand to more than 1048576 bytes (refused: a document this small should not need that))")
    }

    @Test func aTruncatedModelSaysWhere() {
        let xml = "<?xml version=\"1.0\"?>\n<model>\n    <entity name=\"A\">\n        <attribute name=\"x\" attr"
        #expect(modelError(xml) == "malformedXML /m/M.xcdatamodel/contents:4:33: not well-formed XML "
                + "(the document ends inside the tag <attribute> (truncated?))")
        #expect(modelError("<model>\n<entity name=\"A\">\n") == "malformedXML /m/M.xcdatamodel/contents:3:1: not well-formed XML "
                + "(the document ends inside <entity> (truncated?))")
    }

    @Test func deepNestingInAModelIsAnError() {
        let xml = "<model><entity name=\"A\"><userInfo>" + String(repeating: "<x>", count: 100_000)
        #expect(modelError(xml) == "malformedXML /m/M.xcdatamodel/contents:1:794: not well-formed XML "
                + "(elements nest deeper than 256 levels)")
    }

    /// Xcode writes line breaks and tabs in attribute values as character references; they come back as written.
    @Test func characterReferencesInModelValuesRoundTrip() throws {
        var entity = Entity(name: "A", parentName: nil, isAbstract: false)
        var attribute = Attribute(name: "code", type: .string, isOptional: true)
        attribute.regularExpression = "^a\n\tb\r\"<&>'$"
        attribute.userInfo = ["note": "line one\nline two"]
        entity.attributes = [attribute]
        let written = XcodeModelWriter.contents(of: ManagedObjectModel(entities: [entity]))
        #expect(String(decoding: written, as: UTF8.self).contains("regularExpressionString=\"^a&#10;&#9;b&#13;&quot;&lt;&amp;&gt;'$\""))
        let read = try XcodeModelReader.read(written, file: Self.file).model.entities[0].attributes[0]
        #expect(read.regularExpression == attribute.regularExpression)
        #expect(read.userInfo == attribute.userInfo)
    }

    /// Literal line breaks in an attribute value are spaces (what `XMLParser` gave too): XML requires it.
    @Test func literalLineBreaksInModelValuesAreSpaces() throws {
        let xml = "<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"String\" regularExpressionString=\"a\nb\r\nc\"/></entity></model>"
        #expect(try model(Array(xml.utf8)).model.entities[0].attributes[0].regularExpression == "a b c")
    }

    /// Comments, processing instructions and a DOCTYPE anywhere a model may hold them change nothing.
    @Test func commentsAndProcessingInstructionsInAModelChangeNothing() throws {
        let plain = "<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/></entity></model>"
        let decorated = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?><?editor x?>
            <!DOCTYPE model [<!ENTITY s "String">]><!-- made by hand -->
            <model><?pi?><!-- c --><entity name="A"><?pi data?><attribute name="x" attributeType="&s;"/><![CDATA[ ]]></entity></model>
            <?after?><!-- end -->
            """
        let a = try model(Array(plain.utf8)).model, b = try model(Array(decorated.utf8)).model
        #expect(a == b)
        #expect(VersionHasher.entityHashes(of: a) == VersionHasher.entityHashes(of: b))
    }

    // MARK: - XML property lists

    @Test func xmlPropertyListsAreReadWithoutFoundation() throws {
        let bytes = [UInt8](try Data(contentsOf: Corpus.packageRoot.appendingPathComponent("Fuzz/Corpus/plist/xml-every-type.plist")))
        let value = try PropertyListReader.read(bytes)
        let top = try #require(value.dictionaryValue)
        #expect(top["$top"] == .dictionary(["root": .uid(1)]))
        #expect(top["$version"] == .int(100_000) && top["hex"] == .int(Int64.max))
        #expect(top["real"] == .real(-1500) && top["date"] == .date(0) && top["data"] == .data([0, 1, 2, 3, 4]))
        #expect(top["yes"] == .bool(true) && top["no"] == .bool(false))
        #expect(top["$objects"]?.arrayValue?[1].dictionaryValue?["NS.string"] == .string("a <b> & \nc"))
        // What Foundation reads from the same bytes (on the test side only) is the same value.
        let foundation = try PropertyListValue(foundationObject: try PropertyListSerialization.propertyList(from: Data(bytes), format: nil))
        #expect(foundation == value)
    }

    @Test func datesAndNumbersAsFoundationReadsThem() throws {
        func read(_ body: String) throws -> PropertyListValue { try PropertyListReader.read(Array("<plist>\(body)</plist>".utf8)) }
        #expect(try read("<date>2024-02-29T12:34:56Z</date>") == .date(730_902_896))
        #expect(try read("<date>1970-01-01T00:00:00Z</date>") == .date(-978_307_200))
        #expect(try read("<integer> -9223372036854775808 </integer>") == .int(.min))
        #expect(try read("<integer>+12</integer>") == .int(12))
        guard case .real(let nan) = try read("<real>nan</real>") else { Issue.record("<real>nan</real> is not a real"); return }
        #expect(nan.isNaN)
        #expect(try read("<array/>") == .array([]))
        #expect(try read("<dict/>") == .dictionary([:]))
        #expect(try read("<string/>") == .string(""))
    }

    @Test func malformedPropertyListsAreErrorsWithPositions() {
        func failure(_ text: String) -> String {
            do {
                _ = try PropertyListReader.read(Array(text.utf8))
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(failure("<plist><dict><key>a</key></dict></plist>") == "not a property list: 1:8: a <key> without a value in <dict>")
        #expect(failure("<plist><dict><string>a</string><true/></dict></plist>")
                == "not a property list: 1:14: <string> where <dict> expects a <key>")
        #expect(failure("<plist>\n<integer>99999999999999999999</integer></plist>")
                == "not a property list: 2:1: '99999999999999999999' is not a 64-bit integer")
        #expect(failure("<plist><date>yesterday</date></plist>")
                == "not a property list: 1:8: 'yesterday' is not a date (expected YYYY-MM-DDTHH:MM:SSZ)")
        #expect(failure("<plist><data>!!</data></plist>") == "not a property list: 1:8: <data> that is not base64")
        #expect(failure("<plist><set/></plist>") == "not a property list: 1:8: <set> is not a property-list element")
        #expect(failure("<plist><true/><false/></plist>") == "not a property list: 1:1: <plist> must hold one value")
        #expect(failure("<plist><string>a<b/></string></plist>") == "not a property list: 1:17: <b> inside <string>")
        #expect(failure("<plist><dict><key>a</key><?pi?>") == "not a property list: 1:32: not well-formed XML (the document ends inside <dict> (truncated?))")
        #expect(failure("{ a = b; }") == "not a property list (cdstore reads binary bplist00 and XML property lists)")
    }

    /// `.xccurrentversion` is an XML property list with a DOCTYPE naming Apple's DTD (never fetched).
    @Test func theCurrentVersionFileIsReadWithTheOwnReader() throws {
        let bundle = try temporaryDirectory().appendingPathComponent("M.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try XcodeModelWriter.currentVersionFile(naming: "M 2").write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(ModelLoader.currentVersion(ofBundle: bundle) == "M 2")
        try Data("<?pi?><plist><dict><key>_XCCurrentVersionName</key><string>M 3.xcdatamodel</string></dict></plist>".utf8)
            .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(ModelLoader.currentVersion(ofBundle: bundle) == "M 3")
        try Data("<plist><dict><key>_XCCurrentVersionName</key><string>".utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(ModelLoader.currentVersion(ofBundle: bundle) == nil)
    }
}
