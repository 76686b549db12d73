@testable import CDStoreModel
import Foundation
import Testing

/// cdstore's own XML reader (`Sources/CDStoreModel/XML/`): every input is a correct read or an error with its
/// line and column, never a trap. Each case pins the whole result: the events, or the message and position.
@Suite("XML reader")
struct XMLReaderTests {
    /// The events of `xml`, one line each: `<name a="v">`, `</name>`, `"text"` (pieces of text joined).
    func events(_ xml: String) throws -> [String] { try events(Array(xml.utf8)) }

    func events(_ bytes: [UInt8]) throws -> [String] {
        var reader = try XMLReader(bytes)
        var lines: [String] = []
        while let event = try reader.next() {
            switch event {
            case .start(let tag):
                lines.append("<" + ([tag.name] + tag.attributes.map { "\($0.name)=\"\($0.value)\"" }).joined(separator: " ") + ">")
            case .end(let name, _):
                lines.append("</\(name)>")
            case .text(let text, _):
                if let last = lines.last, last.hasPrefix("\""), last.hasSuffix("\"") {
                    lines[lines.count - 1] = String(last.dropLast()) + text + "\""
                } else {
                    lines.append("\"\(text)\"")
                }
            }
        }
        return lines
    }

    /// The error reading `xml` gives, as `line:column: message`, or "no error".
    func failure(_ xml: String) -> String { failure(Array(xml.utf8)) }

    func failure(_ bytes: [UInt8]) -> String {
        do {
            _ = try events(bytes)
            return "no error"
        } catch let error as XMLError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    // MARK: - Fuzz findings

    /// `<?xml version="1.0"?><?pi?><model/>` crashed `XMLParser` (a processing instruction without data); it is
    /// well-formed: a root `<model/>` and nothing else.
    @Test func theEmptyProcessingInstructionFindingIsARead() throws {
        #expect(try events("<?xml version=\"1.0\"?><?pi?><model/>") == ["<model>", "</model>"])
    }

    /// The fuzzed finding: `<?x?>` replaced the start of the XML declaration, leaving text before the root.
    @Test func theFuzzedProcessingInstructionFindingIsAnError() {
        let xml = "<?x?>ml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple\"/>"
        #expect(failure(xml) == "1:6: text before the root element")
    }

    // MARK: - Processing instructions and comments

    @Test func processingInstructionsAnywhereOutsideTagsAreSkipped() throws {
        let xml = """
            <?xml version="1.0"?><?before?><?before with data?>
            <a><?inside?><b x="1"><?inside   data ?></b>t<?mid?>u<?xml-stylesheet href="s.css"?></a><?after?><?after data?>
            """
        #expect(try events(xml) == ["<a>", "<b x=\"1\">", "</b>", "\"tu\"", "</a>"])
    }

    @Test func aProcessingInstructionBeforeTheDeclarationMakesItAnError() {
        #expect(failure("<?pi?><?xml version=\"1.0\"?><a/>")
                == "1:7: an XML declaration ('<?xml … ?>') anywhere but at the very start")
    }

    @Test func malformedProcessingInstructions() {
        #expect(failure("<a><??></a>") == "1:6: expected processing instruction target")
        #expect(failure("<a><?pi") == "1:8: expected a space or '?>' after <?pi")
        #expect(failure("<a><?pi data") == "1:4: a processing instruction that never ends (no '?>')")
        #expect(failure("<a><?p\u{1}?></a>") == "1:7: not well-formed: a character XML does not allow")
    }

    @Test func commentsAreSkipped() throws {
        #expect(try events("<!-- one --><a>x<!-- two -->y<!---->z</a><!-- three -->") == ["<a>", "\"xyz\"", "</a>"])
        #expect(failure("<a><!-- a -- b --></a>") == "1:11: '--' inside a comment")
        #expect(failure("<a><!-- never ends </a>") == "1:4: a comment that never ends (no '-->')")
    }

    @Test func cdataSectionsAreText() throws {
        #expect(try events("<a><![CDATA[<b>&amp; ]]]]><![CDATA[>]]></a>") == ["<a>", "\"<b>&amp; ]]>\"", "</a>"])
        #expect(failure("<a><![CDATA[ open") == "1:4: a CDATA section that never ends (no ']]>')")
        #expect(failure("<a>]]></a>") == "1:4: ']]>' in text (write ]]&gt;)")
    }

    // MARK: - DOCTYPE and entities

    @Test func aDoctypeWithAnInternalSubsetDeclaresEntities() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [
              <!ELEMENT model (entity*)>
              <!ATTLIST entity name CDATA #REQUIRED note CDATA "a > b">
              <!-- a comment --><?pi in the subset?>
              <!ENTITY who "Ann &amp; &#66;ob">
              <!ENTITY greeting "hello, &who;">
              <!ENTITY lines "one&#10;two">
              <!ENTITY who "ignored: the first declaration wins">
              <!NOTATION gif SYSTEM "image/gif">
              <!ENTITY % parameter "ignored">
            ]>
            <model><entity name="&greeting;" lines="&lines;">&greeting; &lines;</entity></model>
            """
        #expect(try events(xml) == [
            "<model>", "<entity name=\"hello, Ann & Bob\" lines=\"one two\">", "\"hello, Ann & Bob one\ntwo\"",
            "</entity>", "</model>",
        ])
    }

    /// A property list's DOCTYPE names an external DTD, which is never fetched.
    @Test func anExternalDTDIsNotRead() throws {
        let xml = """
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><true/></plist>
            """
        #expect(try events(xml) == ["<plist version=\"1.0\">", "<true>", "</true>", "</plist>"])
        #expect(try events("<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\"><database/>")
                == ["<database>", "</database>"])
    }

    @Test func misplacedDoctypesAreErrors() {
        #expect(failure("<a/><!DOCTYPE a>") == "1:5: a DOCTYPE must come once, before the root element")
        #expect(failure("<!DOCTYPE a><!DOCTYPE a><a/>") == "1:13: a DOCTYPE must come once, before the root element")
        #expect(failure("<!DOCTYPE a [ <!ENTITY x \"1\"> ") == "1:1: the DOCTYPE's internal subset never ends (no ']')")
        #expect(failure("<!DOCTYPE a [ <!FOO> ]><a/>") == "1:15: expected a declaration in the DOCTYPE's internal subset")
    }

    /// XXE: a general external entity, SYSTEM or PUBLIC, is refused where it is used, never fetched.
    @Test func externalEntitiesAreRefused() {
        let system = "<!DOCTYPE a [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<a>&xxe;</a>"
        #expect(failure(system) == "2:4: a reference to the external entity '&xxe;': cdstore never reads external entities")
        let inAttribute = "<!DOCTYPE a [<!ENTITY xxe PUBLIC \"-//X//EN\" \"http://example.com/x\">]>\n<a b=\"&xxe;\"/>"
        #expect(failure(inAttribute) == "2:7: a reference to the external entity '&xxe;': cdstore never reads external entities")
        let nested = "<!DOCTYPE a [<!ENTITY xxe SYSTEM \"/etc/passwd\"><!ENTITY wrap \"[&xxe;]\">]>\n<a>&wrap;</a>"
        #expect(failure(nested) == "2:4: a reference to the external entity '&xxe;': cdstore never reads external entities")
        let unparsed = "<!DOCTYPE a [<!NOTATION n SYSTEM \"x\"><!ENTITY u SYSTEM \"x.gif\" NDATA n>]><a>&u;</a>"
        #expect(failure(unparsed) == "1:77: a reference to the external entity '&u;': cdstore never reads external entities")
    }

    /// Parameter entities are how an external DTD gets pulled in: any reference to one is refused.
    @Test func parameterEntityReferencesAreRefused() {
        let xml = "<!DOCTYPE a [<!ENTITY % dtd SYSTEM \"http://evil.example/x.dtd\"> %dtd;]><a/>"
        #expect(failure(xml) == "1:65: a parameter-entity reference (%name;): cdstore reads no DTD, internal or external")
        #expect(failure("<!DOCTYPE a [<!ENTITY e \"%p;\">]><a/>").hasSuffix("a parameter-entity reference (%name;): cdstore reads no DTD, internal or external"))
    }

    /// Billion laughs: ten levels of ten references each would be 10^9 copies of "lol".
    @Test func entityExpansionIsBounded() {
        var subset = "<!ENTITY lol0 \"lol\">"
        for level in 1...9 {
            subset += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let laughs = "<!DOCTYPE a [\(subset)]>\n<a>&lol9;</a>"
        #expect(failure(laughs) == "2:4: entity references expand to more than 1048576 bytes (refused: a document this small should not need that)")
        let inAttribute = "<!DOCTYPE a [\(subset)]>\n<a b=\"&lol9;\"/>"
        #expect(failure(inAttribute).hasPrefix("2:7: entity references expand to more than 1048576 bytes"))
        // Quadratic blow-up: one large entity used many times.
        let big = String(repeating: "x", count: 100_000)
        let quadratic = "<!DOCTYPE a [<!ENTITY big \"\(big)\">]>\n<a>" + String(repeating: "&big;", count: 20) + "</a>"
        #expect(failure(quadratic) == "2:54: entity references expand to more than 1048576 bytes (refused: a document this small should not need that)")
        // Many references to an empty entity cost too.
        var empty = "<!ENTITY e0 \"\">"
        for level in 1...6 { empty += "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 30) + "\">" }
        #expect(failure("<!DOCTYPE a [\(empty)]><a>&e6;</a>").contains("entity references expand to more than 1048576 bytes"))
    }

    @Test func recursiveEntitiesAreErrors() {
        let xml = "<!DOCTYPE a [<!ENTITY a \"x&b;\"><!ENTITY b \"y&a;\">]>\n<a>&a;</a>"
        #expect(failure(xml) == "2:4: entities nest deeper than 16 levels ('&a;' refers to itself?)")
    }

    @Test func entitiesWithMarkupAreRefused() {
        let xml = "<!DOCTYPE a [<!ENTITY m \"<b/>\">]>\n<a>&m;</a>"
        #expect(failure(xml) == "2:4: the entity '&m;' holds markup; cdstore expands text-only entities")
        #expect(failure("<!DOCTYPE a [<!ENTITY m \"&#60;b/>\">]><a x=\"&m;\"/>").hasSuffix("the entity '&m;' holds markup; cdstore expands text-only entities"))
    }

    // MARK: - References and attribute values

    @Test func characterAndPredefinedReferences() throws {
        let xml = "<a v=\"&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x1F600;\">&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x1f600;</a>"
        #expect(try events(xml) == ["<a v=\"<>&'\"AB😀\">", "\"<>&'\"AB😀\"", "</a>"])
    }

    @Test func badReferencesAreErrors() {
        #expect(failure("<a>&#0;</a>") == "1:4: a character reference to a character XML does not allow")
        #expect(failure("<a>&#xD800;</a>") == "1:4: a character reference to a character XML does not allow")
        #expect(failure("<a>&#x110000;</a>") == "1:4: a character reference to a character XML does not allow")
        #expect(failure("<a>&#99999999999999999999;</a>") == "1:4: a character reference to a character XML does not allow")
        #expect(failure("<a>&#;</a>") == "1:4: a malformed character reference (expected &#digits; or &#xhex;)")
        #expect(failure("<a>&#x12</a>") == "1:4: a malformed character reference (expected &#digits; or &#xhex;)")
        #expect(failure("<a>&nbsp;</a>") == "1:4: a reference to the undeclared entity '&nbsp;'")
        #expect(failure("<a>fish & chips</a>") == "1:9: '&' that does not start a reference (write &amp;)")
        #expect(failure("<a b=\"&\"/>") == "1:7: '&' that does not start a reference (write &amp;)")
    }

    /// XML 1.0 §3.3.3: literal tabs and line ends in an attribute value become spaces (a CR LF pair one space);
    /// character references keep their character. Xcode writes `&#10;` for a line break in a value.
    @Test func attributeValuesAreNormalised() throws {
        let xml = "<a tab=\"x\ty\" lf=\"x\ny\" crlf=\"x\r\ny\" cr=\"x\ry\" refs=\"x&#10;y&#9;z&#13;\" single='\"q\"'/>"
        #expect(try events(xml) == ["<a tab=\"x y\" lf=\"x y\" crlf=\"x y\" cr=\"x y\" refs=\"x\ny\tz\r\" single=\"\"q\"\">", "</a>"])
    }

    @Test func lineEndsInTextAreNormalised() throws {
        #expect(try events("<a>1\r\n2\r3\n4</a>") == ["<a>", "\"1\n2\n3\n4\"", "</a>"])
        // Positions count a CR LF pair as one line end.
        #expect(failure("<a>\r\n\r\n<b></c>") == "3:4: </c> does not close <b>")
    }

    // MARK: - Structure

    @Test func malformedTagsAreErrorsWithPositions() {
        #expect(failure("<a x=\"1\" x=\"2\"/>") == "1:10: attribute 'x' appears twice in <a>")
        #expect(failure("<a x=1/>") == "1:6: an attribute value must be in quotes")
        #expect(failure("<a x=\"1\"y=\"2\"/>") == "1:9: expected a space, '>' or '/>' in <a>")
        #expect(failure("<a x=\"<\"/>") == "1:7: '<' in an attribute value (write &lt;)")
        #expect(failure("<a x/>") == "1:5: attribute 'x' without '=' in <a>")
        #expect(failure("<a/ >") == "1:3: '/' in <a> not followed by '>'")
        #expect(failure("<1a/>") == "1:2: expected element name")
        #expect(failure("<a></b>") == "1:4: </b> does not close <a>")
        #expect(failure("<a><b></a>") == "1:7: </a> does not close <b>")
        #expect(failure("<a></a x>") == "1:8: expected '>' to end </a>")
        #expect(failure("<a><!DOCTYPE a></a>") == "1:4: '<!' in content that is neither a comment nor a CDATA section")
    }

    @Test func theDocumentHasExactlyOneRoot() {
        #expect(failure("") == "1:1: no root element")
        #expect(failure("  \n<!-- only a comment -->\n") == "3:1: no root element")
        #expect(failure("text<a/>") == "1:1: text before the root element")
        #expect(failure("<a/>text") == "1:5: text after the root element")
        #expect(failure("<a/><b/>") == "1:5: a second root element (a document has one)")
    }

    @Test func theXMLDeclarationIsChecked() throws {
        #expect(try events("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\" ?><a/>") == ["<a>", "</a>"])
        #expect(try events("<?xml version='1.1'?><a/>") == ["<a>", "</a>"])
        #expect(failure("<?xml version=\"2.0\"?><a/>") == "1:20: XML version '2.0' (cdstore reads XML 1.x)")
        #expect(failure("<?xml encoding=\"UTF-8\"?><a/>") == "1:7: expected 'version' in the XML declaration")
        #expect(failure("<?xml version=\"1.0\" standalone=\"maybe\"?><a/>") == "1:39: standalone='maybe' (expected 'yes' or 'no')")
        #expect(failure("<?xml version=\"1.0\"><a/>") == "1:20: a malformed XML declaration (expected '?>')")
        #expect(failure("<?xml version=\"1.0\" encoding=\"EBCDIC\"?><a/>")
                == "1:1: unsupported encoding 'EBCDIC' (cdstore reads UTF-8, UTF-16 and ISO-8859-1)")
    }

    /// Nesting is bounded by a limit, never by the stack: a million open elements is an error at the first one too
    /// deep.
    @Test func deepNestingIsAnErrorNotAStackOverflow() throws {
        let deep = String(repeating: "<a>", count: 1_000_000)
        #expect(failure(deep) == "1:769: elements nest deeper than 256 levels")
        let limit = String(repeating: "<a>", count: 256) + String(repeating: "</a>", count: 256)
        #expect(try events(limit).count == 512)
        #expect(failure(String(repeating: "<a>", count: 257) + String(repeating: "</a>", count: 257))
                == "1:769: elements nest deeper than 256 levels")
        // The tree reader builds without recursion too.
        let treeError = #expect(throws: XMLError.self) { try XMLTreeElement.parse(Array(deep.utf8)) }
        #expect(treeError?.description == "1:769: elements nest deeper than 256 levels")
        #expect(try XMLTreeElement.parse(Array(limit.utf8)).children.count == 1)
    }

    // MARK: - Encodings

    @Test func bytesThatAreNotUTF8AreErrorsWithTheirPosition() {
        #expect(failure([UInt8]("<a>\n<".utf8) + [0xFF] + [UInt8]("b/></a>".utf8)) == "2:2: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a ".utf8) + [0xC3] + [UInt8]("=\"1\"/>".utf8)) == "1:4: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a b=\"é".utf8) + [0xE9, 0x22] + [UInt8]("/>".utf8)) == "1:8: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a>".utf8) + [0xC0, 0xAF] + [UInt8]("</a>".utf8)) == "1:4: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a>".utf8) + [0xED, 0xA0, 0x80] + [UInt8]("</a>".utf8)) == "1:4: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a>".utf8) + [0xF4, 0x90, 0x80, 0x80] + [UInt8]("</a>".utf8)) == "1:4: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a>".utf8) + [0xE2, 0x82]) == "1:4: not well-formed: bytes that are not UTF-8")
        #expect(failure([UInt8]("<a>\u{0}</a>".utf8)) == "1:4: not well-formed: a character XML does not allow")
        #expect(failure([UInt8]("<a>\u{FFFE}</a>".utf8)) == "1:4: not well-formed: a character XML does not allow")
    }

    @Test func utf16AndLatin1AreRead() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a b=\"Café 😀\"/>"
        let noMark: [UInt8] = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let little: [UInt8] = [0xFF, 0xFE] + noMark
        let big: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big, noMark] {
            #expect(try events(bytes) == ["<a b=\"Café 😀\">", "</a>"])
        }
        #expect(failure(Array(little.dropLast())) == "1:1: UTF-16 text with an odd number of bytes (truncated?)")
        #expect(failure([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x3E, 0x00]) == "1:2: not well-formed: a UTF-16 surrogate without its pair")
        let latin1 = [UInt8]("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a b=\"Caf".utf8) + [0xE9] + [UInt8]("\"/>".utf8)
        #expect(try events(latin1) == ["<a b=\"Café\">", "</a>"])
        #expect(try events([0xEF, 0xBB, 0xBF] + [UInt8]("<a/>".utf8)) == ["<a>", "</a>"])
    }

    // MARK: - Truncation and positions

    /// Every proper prefix of a model is an error that says where, and none is a crash.
    @Test func everyTruncationIsAnError() throws {
        let model = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!DOCTYPE model [<!ENTITY e "x">]>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <!-- c --><?pi data?>
                <entity name="A" note="&e;&#10;&amp;"><attribute name="b" attributeType="String"/><![CDATA[t]]></entity>
            </model>
            """
        let bytes = Array(model.utf8)
        #expect(try events(bytes).count == 9)
        var messages: Set<String> = []
        for length in 0..<bytes.count {
            do {
                _ = try events(Array(bytes[..<length]))
                Issue.record("a document cut to \(length) bytes was read without error")
            } catch let error as XMLError {
                #expect(error.position.line >= 1 && error.position.column >= 1)
                messages.insert(error.message)
            }
        }
        #expect(messages.contains("the document ends inside <model> (truncated?)"))
        #expect(messages.contains("the document ends inside the tag <entity> (truncated?)"))
        #expect(messages.contains("the document ends inside an attribute value (truncated?)"))
    }

    /// Start tags report where they begin and where they end (the `>`, or the `/` of `/>`: where `XMLParser`
    /// reported an element, which the model reader keeps for its messages).
    @Test func startTagsKnowWhereTheyBeginAndEnd() throws {
        var reader = try XMLReader(Array("<a>\n  <bé c=\"1\"/>\n</a>".utf8))
        var tags: [String] = []
        while let event = try reader.next() {
            if case .start(let tag) = event {
                tags.append("\(tag.name) \(reader.position(at: tag.offset)) \(reader.position(at: tag.endOffset))")
            }
        }
        #expect(tags == ["a 1:1 1:3", "bé 2:3 2:12"])
    }

    @Test func theTreeHoldsElementsTextAndPositions() throws {
        let root = try XMLTreeElement.parse(Array("<a x=\"1\">\n <b>one</b><b>two<c/></b>tail</a>".utf8))
        #expect(root.name == "a" && root["x"] == "1" && root.text == "\n tail")
        #expect(root.children.map(\.text) == ["one", "two"])
        #expect(root.children.map(\.position) == [XMLPosition(line: 2, column: 2), XMLPosition(line: 2, column: 12)])
        #expect(root.child("b")?.children.map(\.name) == [] && root.children[1].child("c")?.name == "c")
    }
}
