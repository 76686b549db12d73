import CDStoreModel
import CDStoreEngine
import CDStoreIO
import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// The streaming encoder (``Store/writeRecords(_:style:to:)``) against the general path (fetched objects printed
/// by the CLI's writers, selected with `CDSTORE_NO_STREAMING=1`): the same bytes for every format, on stores
/// whose columns hold every attribute type and the values that trip encoders up.
@Suite("Streamed records")
struct StreamedRecordsTests {
    /// Runs `cdstore arguments… --store store` on both paths and expects the same output.
    static func expectSame(_ arguments: [String], store: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let streamed = try CLIRunner.run(arguments + ["--store", store])
        let general = try CLIRunner.run(arguments + ["--store", store], environment: ["CDSTORE_NO_STREAMING": "1"])
        #expect(streamed.status == 0 && general.status == 0,
                "cdstore \(arguments.joined(separator: " ")): \(streamed.stderr) \(general.stderr)", sourceLocation: sourceLocation)
        #expect(!streamed.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(streamed.stdout == general.stdout, "cdstore \(arguments.joined(separator: " ")) differs",
                sourceLocation: sourceLocation)
    }

    static func newStore(_ model: String, _ records: [(String, String)]) throws -> String {
        let store = try temporaryDirectory().appendingPathComponent("test.sqlite").path
        for (entity, json) in records {
            let result = try CLIRunner.run(["insert", entity, "--json", json, "--store", store, "--model", model])
            #expect(result.status == 0, "\(result.stderr)")
        }
        return store
    }

    /// Every attribute type (Fixture's `Item`), plus rows written behind Core Data's back: values of the
    /// "wrong" storage class, NUL bytes and invalid UTF-8 in text, CR LF and combining marks next to CSV's
    /// special characters, dates far outside 0001–9999, -0.0, empty and odd-sized blobs.
    @Test func everyAttributeTypeAndOddValues() throws {
        let store = try Self.newStore(Fixtures.model.path, [
            ("Item", #"""
             [{"str":"plain","i16":-32768,"i32":2147483647,"i64":9223372036854775807,"dec":12.345,"dbl":0.1,"flt":0.1,"flag":true,"when":"2024-05-01T12:30:00.25Z","uid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","blob":"AAEC/w==","link":"https://example.com/a?b=1","xf":"YnBsaXN0MDA="},
              {"str":"","i64":-9223372036854775808,"dbl":"Infinity","flt":"-Infinity","flag":false,"when":"2001-01-01","blob":""},
              {"str":"line1\nline2\ttab, \"quoted\" — Café ☕️ 日本","dbl":1e-300,"flt":3.4028235e38,"i16":0,"xf":[1,"two",{"k":true}]},
              {"dec":null}]
             """#),
            ("Shape", #"[{"_entity":"Circle","label":"unit","radius":1},{"_entity":"Square","label":"big, \"box\"","side":1e6}]"#),
        ])
        let texts = ["a\r\nb", ",\u{301}x", "\"\u{301}", " lead", "trail ", "tab\t\u{1}\u{1F}", "é,", "x\\y", "A\u{2028}B"]
        let reals: [Double] = [-0.0, 1e15, 123456789012345.5, 1e300, -1e-300, 2.5, 1e13, -7e10, 1e16, .leastNonzeroMagnitude]
        try DatabaseQueue(path: store).write { db in
            for (i, text) in texts.enumerated() {
                try db.execute(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZSTR) SELECT ?, Z_ENT, 1, ? FROM ZITEM WHERE Z_PK = 1",
                               arguments: [100 + i, text])
            }
            for (i, real) in reals.enumerated() {
                try db.execute(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZDBL, ZI64, ZI16, ZFLAG, ZWHEN, ZFLT, ZDEC) "
                               + "SELECT ?, Z_ENT, 1, ?, ?, ?, ?, ?, ?, ? FROM ZITEM WHERE Z_PK = 1",
                               arguments: [200 + i, real, real, real, real, real, real, real])
            }
            // Storage classes the model does not expect, NUL and invalid UTF-8 inside text.
            try db.execute(sql: """
                INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZSTR, ZDBL, ZI32, ZWHEN, ZFLAG, ZUID, ZBLOB, ZDEC, ZLINK)
                SELECT 300, Z_ENT, 1, CAST(x'41004243' AS TEXT), 'text', 'x', 7, 2, x'0102', x'00ff', 'NaN', 42 FROM ZITEM WHERE Z_PK = 1;
                INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZSTR, ZDBL, ZUID, ZLINK, ZI16)
                SELECT 301, Z_ENT, 1, CAST(x'41ff2c42' AS TEXT), 7, x'', 1.5, x'ff' FROM ZITEM WHERE Z_PK = 1;
                INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZSTR) SELECT 302, Z_ENT, 1, CAST(x'e697a5ff00ff' AS TEXT) FROM ZITEM WHERE Z_PK = 1;
                """)
        }
        for format in ["json", "ndjson", "csv"] {
            try Self.expectSame(["export", "Item", "--format", format], store: store)
            try Self.expectSame(["export", "Circle", "--format", format], store: store)
            try Self.expectSame(["fetch", "Item", "--format", format], store: store)
            try Self.expectSame(["fetch", "Item", "--format", format, "--where", "i64 != nil", "--sort", "-dbl", "--limit", "3"],
                                store: store)
            try Self.expectSame(["fetch", "Square", "--format", format], store: store)
        }
        try Self.expectSame(["export", "--format", "json"], store: store)
        try Self.expectSame(["export", "--format", "ndjson"], store: store)
    }

    /// To-one, to-many, ordered and many-to-many relationships, sub-entities sharing a table, and more objects
    /// than one batch of 256 rows.
    @Test func relationshipsAndSubEntities() throws {
        let organization = Corpus.schemas.appendingPathComponent("Organization.xcdatamodeld").path
        let members = (0..<300).map { #"{"_entity":"Employee","name":"E\#($0)","employeeNumber":\#(10 + $0),"salary":\#($0 * 7)}"# }
        let store = try Self.newStore(organization, [
            ("Organization", #"""
             [{"name":"Acme","headquarters":{"city":"Paris"},"tags":[{"label":"t1"},{"label":"t2"}],
               "members":[{"_entity":"Employee","name":"Ann","email":"ann@x","employeeNumber":1,"salary":900,"badge":{"code":"B1"}},
                          {"_entity":"Employee","name":"Max","email":"max@x","employeeNumber":2,"salary":5000,
                           "reports":[{"_ref":{"name":"Ann"}},{"_entity":"Employee","name":"Eve","employeeNumber":3,"salary":2000}]},
                          {"_entity":"Contractor","name":"Cy","agency":"Ag"}],
               "projects":[{"title":"Apollo","tasks":[{"title":"c"},{"title":"a","done":true},{"title":"b"}],"people":[{"_ref":{"name":"Ann"}}]}]},
              {"name":"Globex","members":[\#(members.joined(separator: ","))],
               "projects":[{"title":"Bridge","people":[{"_ref":{"name":"E1"}},{"_ref":{"name":"Cy"}}]}]}]
             """#),
            ("Person", #"[{"name":"Bo","friends":[{"_ref":{"name":"Ann"}},{"_ref":{"name":"Max"}}]},{"name":"Di","friends":[{"_ref":{"name":"Bo"}}]}]"#),
        ])
        for format in ["json", "ndjson"] {
            try Self.expectSame(["export", "--format", format], store: store)
        }
        for entity in ["Employee", "Organization", "Project", "Person", "Contractor"] {
            for format in ["json", "ndjson", "csv"] {
                try Self.expectSame(["export", entity, "--format", format], store: store)
                try Self.expectSame(["fetch", entity, "--format", format, "--exact-entity"], store: store)
                try Self.expectSame(["fetch", entity, "--format", format, "--exact-entity", "--counts"], store: store)
            }
        }
        try Self.expectSame(["fetch", "Employee", "--format", "csv", "--exact-entity", "--no-relationships"], store: store)
    }

    /// Binary values kept in `_EXTERNAL_DATA` files are read from there, as the general path reads them.
    @Test func externalBinaryData() throws {
        let library = Corpus.schemas.appendingPathComponent("Library.xcdatamodeld").path
        let store = try Self.newStore(library, [("Author", #"[{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E51","name":"Ann","portrait":"AAEC"},"#
            + #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E52","name":"Bo"},{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E53","name":"Cy"}]"#)])
        let external = URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent(".test_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data((0..<300).map { UInt8($0 % 256) }).write(to: external.appendingPathComponent("PORTRAIT-1"))
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE ZAUTHOR SET ZPORTRAIT = ? WHERE ZNAME = 'Bo'",
                           arguments: [Data([0x02]) + Data("PORTRAIT-1".utf8) + Data([0x00])])
        }
        for format in ["json", "ndjson", "csv"] {
            try Self.expectSame(["export", "Author", "--format", format], store: store)
        }
    }

    /// Exporting 200,000 objects keeps memory flat: peak RSS of the child process (from `/usr/bin/time`) stays
    /// far below what holding the rows would take.
    @Test func largeExportPeakMemoryIsBounded() throws {
        // `make test` installs it (package `time`); without it this test cannot measure, which is a failure.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time is missing: apt-get install time")
        let store = try temporaryDirectory().appendingPathComponent("people.sqlite").path
        let people = Corpus.schemas.appendingPathComponent("People.json").path
        #expect(try CLIRunner.run(["count", "Person", "--store", store, "--model", people]).status == 0)
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
                INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZAGE, ZSALARY, ZACTIVE, ZJOINED)
                SELECT i, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'), 1, i, 'Person ' || i, i % 90,
                       i * 1.25, i % 2, i * 1000.5 FROM n
                """)
        }
        for format in ["ndjson", "csv"] {
            let result = try ProcessRunner.run("/usr/bin/time", ["-f", "%M", CLIRunner.binary, "export", "Person",
                                                                 "--format", format, "--store", store, "--output", "/dev/null"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "exported 200000 objects to /dev/null\n")
            let kilobytes = result.stderr.split(separator: "\n").last.flatMap { Int($0) } ?? .max
            // Holding every row (the old `Row.fetchAll`) grew with the row count; streaming stays at the binary's own footprint.
            #expect(kilobytes < 64 * 1024, "peak RSS \(kilobytes) KiB exporting 200k objects as \(format)")
        }
    }

    /// The library call on its own: framing from the style, columns the object lacks as empty CSV fields, and
    /// requests that need the general path refused.
    @Test func writeRecordsIntoMemory() throws {
        let path = try temporaryDirectory().appendingPathComponent("M.sqlite").path
        let store = try Store.open(at: path, loaded: try ModelLoader.load(Fixtures.model.path), options: .init(uuid: "U"))
        try store.insert([InputRecord(fields: [("label", .string("a, b")), ("radius", .double(2.5))], entityName: "Circle")],
                         into: "Shape")
        let csv = MemorySink()
        let written = try store.writeRecords(ObjectFetchRequest(entity: "Circle"),
                                             style: RecordStyle(syntax: .csv(columns: ["_id", "radius", "nothing", "label"]),
                                                                first: "<", separator: "|", terminator: ">"), to: csv)
        #expect(written == 1)
        #expect(csv.text == "<x-coredata://U/Circle/p1,2.5,,\"a, b\"\n>")
        let json = MemorySink()
        try store.writeRecords(ObjectFetchRequest(entity: "Circle"), style: RecordStyle(syntax: .json, nameEntity: true), to: json)
        #expect(json.text == #"{"_id":"x-coredata://U/Circle/p1","_entity":"Circle","label":"a, b","radius":2.5}"#)

        #expect(!store.canStreamRecords(ObjectFetchRequest(entity: "Shape")))
        #expect(store.canStreamRecords(ObjectFetchRequest(entity: "Circle")))
        #expect(!store.canStreamRecords(ObjectFetchRequest(entity: "Circle", includes: ["x"])))
        let error = #expect(throws: StoreError.self) {
            try store.writeRecords(ObjectFetchRequest(entity: "Shape"), style: RecordStyle(syntax: .json), to: MemorySink())
        }
        #expect(error?.code == .invalidInput && error?.input == .includes)
        #expect(error?.description == "entity 'Shape': prefetch: this request cannot be streamed (sub-entities or relationships to prefetch)")
    }
}
