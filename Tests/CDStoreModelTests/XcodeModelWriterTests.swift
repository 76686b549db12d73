import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreModel

/// The Xcode model writer: its XML against a golden file and against real `contents` files, escaping, what it
/// reports it cannot hold.
@Suite("Xcode model writer")
struct XcodeModelWriterTests {
    /// A small model with one of nearly every setting, and text that needs escaping.
    static func smallModel() -> ManagedObjectModel {
        var person = Entity(name: "Person")
        person.className = "Person"
        person.syncable = true
        person.codeGenerationType = "class"
        person.renamingIdentifier = "Human"
        person.spotlightDisplayNameExpression = "name"
        person.userInfo = ["a&b": "c<d>", "Key": "\"quoted\""]
        var name = Attribute(name: "name", type: .string)
        name.minValue = "1"
        name.maxValue = "80"
        name.regularExpression = "^[A-Z][a-z]+( \"Jr\")? & co\n?$"
        name.defaultValue = "Ann \"A&B\" <x>"
        name.isIndexedBySpotlight = true
        name.userInfo = ["note": "line 1\nline 2\ttab & \"quoted\" 'single' <tag>", "RawType": "String"]
        var age = Attribute(name: "age", type: .integer16, isOptional: true)
        age.minValue = "0"
        age.maxValue = "150"
        age.defaultValue = "0"
        age.usesScalarValueType = true
        var born = Attribute(name: "born", type: .date, isOptional: true)
        born.defaultDateTimeInterval = -978307200
        born.minDateTimeInterval = 0.5
        var photo = Attribute(name: "photo", type: .binary, isOptional: true)
        photo.allowsExternalBinaryDataStorage = true
        photo.preservesValueInHistoryOnDeletion = true
        var tags = Attribute(name: "tags", type: .transformable, isOptional: true)
        tags.valueTransformerName = "NSSecureUnarchiveFromData"
        tags.customClassName = "[String]"
        var nickname = Attribute(name: "nickname", type: .string, isOptional: true)
        nickname.isTransient = true
        var bookCount = Attribute(name: "bookCount", type: .integer64, isOptional: true)
        bookCount.derivationExpression = "books.@count"
        bookCount.isReadOnly = true
        var identifier = Attribute(name: "identifier", type: .uuid, isOptional: true)
        identifier.allowsCloudEncryption = true
        identifier.renamingIdentifier = "id"
        identifier.versionHashModifier = "2"
        identifier.isIndexed = true
        var address = Attribute(name: "address", type: .composite, isOptional: true)
        address.compositeName = "Address"
        address.isStoredInExternalRecord = true
        person.attributes = [name, age, born, photo, tags, nickname, bookCount, identifier, address]
        var books = Relationship(name: "books", destination: "Book", inverseName: "author", isToMany: true)
        books.isOptional = true
        books.isOrdered = true
        books.deleteRule = .cascade
        books.userInfo = ["why": "ordered & cascading"]
        person.relationships = [books]
        var namesakes = FetchedProperty(name: "namesakes", fetchRequest: FetchRequestTemplate(
            name: "fetchedPropertyFetchRequest", entity: "Person", predicate: "name == $FETCH_SOURCE.name AND age < 18"))
        namesakes.isOptional = true
        person.fetchedProperties = [namesakes]
        var byName = FetchIndex(name: "byName", elements: [
            FetchIndex.Element(property: "name"), FetchIndex.Element(property: "age", isAscending: false),
            FetchIndex.Element(property: nil, expression: "name.length", expressionType: "Integer 64", type: "RTree"),
        ])
        byName.partialIndexPredicate = "age > 0"
        person.fetchIndexes = [byName]
        person.uniquenessConstraints = [["name", "born"]]

        var book = Entity(name: "Book")
        book.className = "Book"
        book.syncable = true
        book.versionHashModifier = "v2"
        book.attributes = [Attribute(name: "title", type: .string)]
        var author = Relationship(name: "author", destination: "Person", inverseName: "books")
        author.minCount = 1
        author.deleteRule = .deny
        author.renamingIdentifier = "writer"
        book.relationships = [author]
        book.compoundIndexes = [["title"]]
        var ebook = Entity(name: "Ebook", parentName: "Book")
        ebook.className = "Ebook"
        ebook.syncable = true
        var format = Attribute(name: "format", type: .string)
        format.defaultValue = "EPUB"
        ebook.attributes = [format]

        var adults = FetchRequestTemplate(name: "Adults", entity: "Person", predicate: "age >= 18")
        adults.options = ["fetchLimit": "10", "returnDistinctResults": "YES"]
        var cloud = Configuration(name: "Cloud", entities: ["Person", "Book"])
        cloud.usedWithCloudKit = true
        return ManagedObjectModel(entities: [person, book, ebook], versionIdentifiers: ["2.0"],
                                  fetchRequests: [adults], configurations: [cloud])
    }

    /// The settings the writer gives a model that was not read from XML.
    static let newModelSettings = Dictionary(uniqueKeysWithValues: XcodeModelWriter.newModelSettings)

    @Test("A small model's XML equals the golden file, and reads back as the same model")
    func golden() throws {
        let xml = String(decoding: XcodeModelWriter.contents(of: Self.smallModel()), as: UTF8.self)
        try assertSnapshot(xml, named: "xcode-model-small.contents")
        let reread = try XcodeModelReader.read(Data(xml.utf8), file: URL(fileURLWithPath: "/small/contents"))
        var expected = Self.smallModel()
        expected.fileSettings = Self.newModelSettings
        #expect(reread.warnings.isEmpty)
        #expect(reread.model == expected)
        #expect(XcodeModelWriter.limitations(of: expected).isEmpty)
    }

    @Test("Attribute values are escaped as XML needs", arguments: [
        ("plain", "plain"),
        ("a \"b\" & c", "a &quot;b&quot; &amp; c"),
        ("<tag attr='1'>", "&lt;tag attr='1'&gt;"),
        ("line 1\nline 2\r\n\tend", "line 1&#10;line 2&#13;&#10;&#9;end"),
        ("é ✓ 🙂", "é ✓ 🙂"),
        ("bell\u{7}", "bell\u{FFFD}"),
    ])
    func escaping(text: String, escaped: String) {
        #expect(ModelXMLElement.escaped(text) == escaped)
    }

    @Test("Quotes, ampersands, newlines and tabs in user info, regexes, defaults and predicates come back exactly",
          arguments: ["a \"b\" & c", "<x>&amp;</x>", "line 1\nline 2", "tab\there\r\nCRLF", " leading and trailing ",
                      "'single' \"double\"", "ünïcödé ✓ 🙂"])
    func valuesRoundTrip(text: String) throws {
        var entity = Entity(name: "Note")
        var body = Attribute(name: "body", type: .string, isOptional: true)
        body.userInfo = [text: text]
        body.regularExpression = text
        body.defaultValue = text
        entity.attributes = [body]
        entity.userInfo = ["k": text]
        let request = FetchRequestTemplate(name: "Match", entity: "Note", predicate: "body == \"\(text)\"")
        let model = ManagedObjectModel(entities: [entity], versionIdentifiers: [text], fetchRequests: [request])
        let reread = try XcodeModelReader.read(XcodeModelWriter.contents(of: model), file: URL(fileURLWithPath: "/x"))
        var expected = model
        expected.fileSettings = Self.newModelSettings
        #expect(reread.model == expected)
    }

    @Test("Control characters XML cannot hold become U+FFFD and are reported")
    func controlCharacters() throws {
        var entity = Entity(name: "Note")
        entity.userInfo = ["k": "a\u{1}b"]
        let model = ManagedObjectModel(entities: [entity])
        let reread = try XcodeModelReader.read(XcodeModelWriter.contents(of: model), file: URL(fileURLWithPath: "/x"))
        #expect(reread.model.entities[0].userInfo == ["k": "a\u{FFFD}b"])
        #expect(XcodeModelWriter.limitations(of: model)
                == ["some names or values hold control characters XML cannot hold; they are written as U+FFFD"])
    }

    @Test("What an Xcode model cannot say is reported")
    func limitations() {
        var entity = Entity(name: "Item")
        var code = Attribute(name: "code", type: .string)
        code.isReadOnly = true
        var total = Attribute(name: "total", type: .integer64)
        total.derivationExpression = "lines.@count"
        entity.attributes = [code, total]
        let model = ManagedObjectModel(entities: [entity], versionIdentifiers: ["1", "2"])
        #expect(XcodeModelWriter.limitations(of: model) == [
            "the model has 2 version identifiers and an Xcode model holds one: only '1' is written",
            "entity 'Item', attribute 'code': read-only without being derived; an Xcode model cannot say so, and the "
                + "attribute's version hash changes",
            "entity 'Item', attribute 'total': derived but not read-only; an Xcode model cannot say so, and the "
                + "attribute's version hash changes",
        ])
    }

    @Test("momc's syncable user-info entry and compiler settings are not written back")
    func compilerArtifacts() throws {
        var entity = Entity(name: "Item")
        entity.userInfo = ["com.apple.syncservices.Syncable": "NO", "kept": "yes"]
        var marked = Entity(name: "Marked")
        marked.syncable = false
        marked.userInfo = ["com.apple.syncservices.Syncable": "NO"]
        let model = ManagedObjectModel(entities: [entity, marked], fetchRequests: [],
                                       fileSettings: ["CDMCompilerToolVersion": "22758.0", "CDMCompilerXcodeVersion": "150400"])
        let xml = String(decoding: XcodeModelWriter.contents(of: model), as: UTF8.self)
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" \
            systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                <entity name="Item">
                    <userInfo>
                        <entry key="kept" value="yes"/>
                    </userInfo>
                </entity>
                <entity name="Marked" syncable="NO">
                    <userInfo>
                        <entry key="com.apple.syncservices.Syncable" value="NO"/>
                    </userInfo>
                </entity>
            </model>
            """)
    }

    /// Files Xcode 8 and later saved (the version identifier last) and that have no empty `<userInfo/>`, which
    /// the writer leaves out: their `contents` less the diagram layout.
    static func modernCorpusFiles() throws -> [(URL, String)] {
        try Corpus.allModelVersions().compactMap { version in
            let text = try String(contentsOf: version.appendingPathComponent("contents"), encoding: .utf8)
            guard text.contains("<model type="), !text.contains("<userInfo/>") else { return nil }
            var expected = text.replacingOccurrences(of: #"(?s)\n    <elements>.*</elements>"#, with: "",
                                                     options: .regularExpression)
            if expected.hasSuffix("\n") { expected.removeLast() }
            return (version, expected)
        }
    }

    @Test("Corpus models Xcode saved are written back byte for byte (less the diagram layout)")
    func realFilesReproduced() throws {
        let files = try Self.modernCorpusFiles()
        #expect(files.count == 216, "modern corpus files: \(files.count)")
        for (version, expected) in files {
            let model = try ModelLoader.load(version.path).model
            let written = String(decoding: XcodeModelWriter.contents(of: model), as: UTF8.self)
            #expect(written == expected, "\(version.path)")
        }
    }
}
