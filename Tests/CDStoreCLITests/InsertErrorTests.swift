import CDStoreTestSupport
import Foundation
import Testing

/// Bad input: exit status 1, one `error:` line naming the entity, attribute and record (and line), and the store
/// left byte for byte as it was.
@Suite("Insert errors")
struct InsertErrorTests {
    /// A store holding one `Checked` object (code "a") and one `Item`.
    static func seeded() throws -> Sandbox {
        let box = try Sandbox()
        try box.ok(["insert", "Checked", "code=a", "name=Ann", "age=30"])
        try box.ok(["insert", "Item", "i16=1"])
        return box
    }

    /// Runs `arguments` on a seeded store and checks status 1, the exact message and the unchanged store.
    func expectRejected(_ arguments: [String], stdin: String? = nil, _ message: String, hint: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let box = try Self.seeded()
        let before = storeBytes(box.store)
        let result = try box.run(arguments, stdin: stdin)
        #expect(result.status == 1, sourceLocation: sourceLocation)
        // Store UUIDs differ between runs; messages name objects by URI.
        let stderr = result.stderr.replacingOccurrences(of: #"x-coredata://[0-9A-F-]{36}/"#, with: "x-coredata://<uuid>/",
                                                        options: .regularExpression)
        #expect(stderr == "error: " + message + "\n" + (hint.map { "hint: " + $0 + "\n" } ?? ""), sourceLocation: sourceLocation)
        #expect(result.stdout == "", sourceLocation: sourceLocation)
        #expect(storeBytes(box.store) == before, "the store changed", sourceLocation: sourceLocation)
    }

    @Test func unknownEntitySuggestsTheNearest() throws {
        try expectRejected(["insert", "Itme", "i16=1"], "no entity 'Itme' in the model; did you mean 'Item'?")
    }

    @Test func unknownAttribute() throws {
        try expectRejected(["insert", "Item", "i16=2", "i6=3"],
                           "record 1: entity 'Item', attribute 'i6': no such attribute or relationship; did you mean 'i16'?")
    }

    @Test func wrongType() throws {
        try expectRejected(["insert", "Item", "--json", #"[{"i16":1},{"i32":"abc"}]"#],
                           "record 2 (line 1): entity 'Item', attribute 'i32': expected a whole number, got 'abc'")
        try expectRejected(["insert", "Item", "uid=not-a-uuid"],
                           "record 1: entity 'Item', attribute 'uid': expected a UUID like E621E1F8-C36C-495A-93FC-0C247A3E6E5F, got 'not-a-uuid'")
        try expectRejected(["insert", "Item", "flag=maybe"],
                           "record 1: entity 'Item', attribute 'flag': expected a boolean (true/false, yes/no, 1/0), got 'maybe'")
        try expectRejected(["insert", "Item", "blob=%%%"],
                           "record 1: entity 'Item', attribute 'blob': expected base64-encoded data, got '%%%'")
    }

    @Test func missingRequiredValue() throws {
        try expectRejected(["insert", "Checked", "name=Bob"],
                           "record 1: entity 'Checked', attribute 'code': a value is required (the attribute is not optional)")
    }

    @Test func outOfRange() throws {
        try expectRejected(["insert", "Item", "i16=70000"],
                           "record 1: entity 'Item', attribute 'i16': 70000 is out of range for Integer 16")
        try expectRejected(["insert", "Item", "i64=9223372036854775808"],
                           "record 1: entity 'Item', attribute 'i64': 9223372036854775808 is out of range for Integer 64")
        try expectRejected(["insert", "Checked", "code=b", "name=Bob", "age=151"],
                           "record 1: entity 'Checked', attribute 'age': 151 is greater than the maximum 150")
        try expectRejected(["insert", "Checked", "code=b", "name=Bob", "age=-1"],
                           "record 1: entity 'Checked', attribute 'age': -1 is less than the minimum 0")
    }

    @Test func stringLengthAndPattern() throws {
        try expectRejected(["insert", "Checked", "code=b", "name=Bartholomew"],
                           "record 1: entity 'Checked', attribute 'name': 11 characters is longer than the maximum length 10")
        try expectRejected(["insert", "Checked", "code=b", "name=B"],
                           "record 1: entity 'Checked', attribute 'name': 1 character is shorter than the minimum length 2")
        try expectRejected(["insert", "Checked", "code=b", "name=Bob1"],
                           "record 1: entity 'Checked', attribute 'name': 'Bob1' does not match the regular expression '[A-Za-z ]+'")
    }

    @Test func dateBeforeTheMinimum() throws {
        try expectRejected(["insert", "Checked", "code=b", "name=Bob", "joined=2000-12-31"],
                           "record 1: entity 'Checked', attribute 'joined': 2000-12-31T00:00:00.000Z is before the earliest allowed date 2001-01-01T00:00:00.000Z")
    }

    @Test func malformedJSONGivesLineAndColumn() throws {
        try expectRejected(["insert", "Item", "--json", "[{\"i16\":1},\n {\"i16\" 2}]"],
                           "malformed JSON at line 2, column 9: expected ':' after key \"i16\"")
    }

    @Test func malformedCSV() throws {
        try expectRejected(["insert", "Item", "--csv"], stdin: "i16,str\n1,a\n2,\"open\n",
                           "line 3: malformed CSV: unterminated quoted field")
        try expectRejected(["insert", "Item", "--csv"], stdin: "i16,str\n1,a\n2,b,c\n",
                           "record 2 (line 3): malformed CSV: 3 fields, but the header has 2")
        try expectRejected(["insert", "Item", "--csv"], stdin: "i16,str\n1,a\n2,x\"y\n",
                           "line 3: malformed CSV: a quote inside an unquoted field (quote the whole field and double the quote)")
    }

    @Test func csvValueErrorNamesItsLine() throws {
        try expectRejected(["insert", "Item", "--csv"], stdin: "i16,str\n1,\"two\nlines\"\nx,b\n",
                           "record 2 (line 4): entity 'Item', attribute 'i16': expected a whole number, got 'x'")
    }

    @Test func badNDJSONLineIsNamed() throws {
        try expectRejected(["insert", "Item", "--nl"], stdin: "{\"i16\":1}\n\n{\"i16\":2\n",
                           "record 2 (line 3): malformed JSON at column 9: expected ',' or '}'")
        try expectRejected(["insert", "Item", "--nl"], stdin: "{\"i16\":1}\n{\"i16\":99999}\n",
                           "record 2 (line 2): entity 'Item', attribute 'i16': 99999 is out of range for Integer 16")
        try expectRejected(["insert", "Item", "--nl"], stdin: "{\"i16\":1}\n[1]\n",
                           "record 2 (line 2): expected a JSON object, got an array")
    }

    /// The line after a uniqueness error on insert that names the flag to merge with (the store layer's message
    /// still says "insert with upsert" in the library's words: it is written in Write/Graph).
    static let upsertHint = "--upsert merges a record into the object that has its unique values"

    @Test func uniquenessConstraintNamesConstraintAndValues() throws {
        try expectRejected(["insert", "Checked", "code=a", "name=Bob"],
                           "record 1: entity 'Checked': uniqueness constraint (code) violated: an object with code = 'a' already exists "
                           + "(x-coredata://<uuid>/Checked/p1)", hint: Self.upsertHint)
        // Two new records colliding with each other.
        try expectRejected(["insert", "Checked", "--json", #"[{"code":"x","name":"Bo"},{"code":"x","name":"Cy"}]"#],
                           "record 2 (line 1): entity 'Checked': uniqueness constraint (code) violated: an object with code = 'x' already exists "
                           + "(x-coredata://<uuid>/Checked/p2)", hint: Self.upsertHint)
    }

    @Test func abstractEntity() throws {
        try expectRejected(["insert", "Shape", "label=x"],
                           "record 1: entity 'Shape': the entity is abstract and cannot have objects of its own; insert one of Circle, Square (or set \"_entity\")")
    }

    @Test func entityFieldMustNameASubEntity() throws {
        try expectRejected(["insert", "Shape", "--json", #"{"_entity":"Item","label":"x"}"#],
                           "record 1 (line 1): entity 'Shape', attribute '_entity': 'Item' is not Shape or one of its sub-entities")
    }

    @Test func laterBadRecordWritesNothing() throws {
        let box = try Self.seeded()
        let before = storeBytes(box.store)
        let result = try box.run(["insert", "Item", "--nl"], stdin: "{\"i16\":5}\n{\"i16\":6}\n{\"i16\":\"x\"}\n")
        #expect(result.status == 1)
        #expect(storeBytes(box.store) == before)
        #expect(try box.ok(["count", "Item"]) == "1\n")
    }

    @Test func failedFirstInsertLeavesNoStoreBehind() throws {
        let box = try Sandbox()
        let result = try box.run(["insert", "Item", "i16=70000"])
        #expect(result.status == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: box.folder.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func subEntityThroughEntityField() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Shape", "--json", #"[{"_entity":"Circle","label":"c","radius":2},{"_entity":"Square","side":3}]"#])
        #expect(try box.ok(["count", "Shape"]) == "2\n")
        #expect(try box.ok(["count", "Circle"]) == "1\n")
    }

    /// A model whose inverse points at another entity (`Trip.folders` ↔ `Folder.parent`, a relationship to `Folder`):
    /// Xcode compiles it with a warning, and keeping that inverse would write Trip's keys into Folder's `ZPARENT`.
    /// The write is refused and the store keeps its bytes; objects without that relationship still go in.
    @Test func anInverseThatPointsAtAnotherEntityIsRefused() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("M.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Folder">
                    <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="children" inverseEntity="Folder"/>
                    <relationship name="children" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Folder" inverseName="parent" inverseEntity="Folder"/>
                </entity>
                <entity name="Trip">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="folders" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Folder" inverseName="parent" inverseEntity="Folder"/>
                </entity>
            </model>
            """.utf8).write(to: model.appendingPathComponent("contents"))
        let store = folder.appendingPathComponent("Trips.sqlite").path
        let first = try CLIRunner.run(["insert", "Trip", "name=A", "--store", store, "--model", model.path])
        #expect(first.status == 0, "\(first.stderr)")
        let before = storeBytes(store)
        let refused = try CLIRunner.run(["insert", "Trip", "--json", #"{"name": "T", "folders": [{}]}"#,
                                         "--store", store, "--model", model.path])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: record 1 (line 1): entity 'Trip', relationship 'folders': its inverse "
                + "'Folder.parent' is a relationship to 'Folder', not back to 'Trip': writing through it would store "
                + "keys of the wrong entity; fix the model's inverse\n")
        #expect(storeBytes(store) == before, "the store changed")
    }
}
