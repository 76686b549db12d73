// Golden-file tests: output users see, compared with files under Tests/Snapshots/.
//
// To accept new output after an intended change, run
//     CDSTORE_RECORD_SNAPSHOTS=1 swift test --skip-build --filter GoldenOutputTests
// which rewrites the files instead of comparing (and fails, having checked nothing), then review
// `git diff Tests/Snapshots` line by line and run again without it.
import CDStoreTestSupport
import Foundation
import Testing

@Suite("Golden output")
struct GoldenOutputTests {
    /// Edge values: Int64 min/max, Float 0.1, Infinity, "", newline, tab, quotes, UTF-8, binary, and an
    /// all-NULL object. (NaN cannot be stored: see `errors.txt`.)
    static let data = #"""
        {"str":"plain","i16":-32768,"i32":2147483647,"i64":9223372036854775807,"dec":12.345,"dbl":0.1,"flt":0.1,"flag":true,"when":"2024-05-01T12:30:00.25Z","uid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","blob":"AAEC/w==","link":"https://example.com/a?b=1","xf":"YnBsaXN0MDA="}
        {"str":"","i64":-9223372036854775808,"dbl":"Infinity","flt":"-Infinity","flag":false,"when":"2001-01-01","blob":""}
        {"str":"line1\nline2\ttab, \"quoted\" — Café ☕️ 日本","dbl":1e-300,"flt":3.4028235e38,"i16":0}
        {"dec":null}
        """#

    static func seeded() throws -> Sandbox {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--nl"], stdin: data)
        try box.ok(["insert", "Shape", "--json", #"[{"_entity":"Circle","label":"unit","radius":1},{"_entity":"Square","label":"big","side":1e6}]"#])
        try box.ok(["insert", "Checked", "code=A-1", "name=Ann", "age=30", "joined=2020-02-29T08:00:00+01:00"])
        return box
    }

    @Test(arguments: ["json", "ndjson", "csv", "table", "line"])
    func fetchFormats(format: String) throws {
        let box = try Self.seeded()
        try assertSnapshot(try box.ok(["fetch", "Item", "--format", format]), named: "fetch-item.\(format)")
    }

    @Test func fetchSubEntities() throws {
        let box = try Self.seeded()
        try assertSnapshot(try box.ok(["fetch", "Shape", "--format", "table"]), named: "fetch-shape.table")
    }

    @Test(arguments: ["json", "ndjson"])
    func exportFormats(format: String) throws {
        let box = try Self.seeded()
        try assertSnapshot(try box.ok(["export", "--format", format]), named: "export.\(format)")
    }

    @Test func count() throws {
        let box = try Self.seeded()
        let text = try ["Item", "Shape", "Circle", "Checked"].map { "\($0): " + (try box.ok(["count", $0])) }.joined()
            + "Item where str != nil: " + (try box.ok(["count", "Item", "--where", "str != nil"]))
        try assertSnapshot(Sandbox.anonymized(text), named: "count.txt")
    }

    @Test(arguments: ["text", "json"])
    func modelShow(format: String) throws {
        let result = try CLIRunner.run(["model", "show", Fixtures.model.path, "--format", format])
        #expect(result.status == 0 && result.stderr == "")
        try assertSnapshot(Sandbox.anonymized(result.stdout), named: "model-show.\(format == "text" ? "txt" : "json")")
    }

    /// What a model says beyond names and types: composite elements, external storage, indexed attributes and a
    /// to-many relationship's count limits, in both forms.
    @Test(arguments: ["text", "json"])
    func modelShowDetails(format: String) throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Shelf.json")
        try Data(#"""
            {"format": "cdstore-model", "formatVersion": 1, "entities": [
              {"name": "Shelf", "attributes": [
                 {"name": "label", "type": "String", "indexed": true},
                 {"name": "photo", "type": "Binary", "optional": true, "allowsExternalBinaryDataStorage": true},
                 {"name": "place", "type": "Composite", "composite": "Place", "optional": true, "elements": [
                    {"name": "room", "type": "String", "optional": true},
                    {"name": "row", "type": "Integer 16", "optional": true}]}],
               "relationships": [
                 {"name": "books", "destination": "Book", "toMany": true, "inverse": "shelf", "minCount": 1, "maxCount": 40}]},
              {"name": "Book", "attributes": [{"name": "title", "type": "String"}],
               "relationships": [{"name": "shelf", "destination": "Shelf", "inverse": "books", "optional": true}]}]}
            """#.utf8).write(to: model)
        let result = try CLIRunner.run(["model", "show", model.path, "--format", format])
        #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
        try assertSnapshot(result.stdout, named: "model-show-details.\(format == "text" ? "txt" : "json")")
    }

    @Test func modelHashes() throws {
        let result = try CLIRunner.run(["model", "hashes", Fixtures.model.path])
        try assertSnapshot(Sandbox.anonymized(result.stdout), named: "model-hashes.txt")
    }

    /// One file of error messages: the command, its exit status and what it printed on standard error.
    @Test func errorMessages() throws {
        let box = try Self.seeded()
        let commands: [([String], String?)] = [
            (["insert", "Itme", "i16=1"], nil),
            (["insert", "Item", "i16=70000"], nil),
            (["insert", "Item", "dbl=NaN"], nil),
            (["insert", "Item", "when=yesterday"], nil),
            (["insert", "Checked", "code=A-1", "name=Bob"], nil),
            (["insert", "Checked", "code=B", "name=Bob", "age=200"], nil),
            (["insert", "Item", "--nl"], "{\"i16\":1}\n{\"i16\":2,,}\n"),
            (["insert", "Item", "--csv"], "i16,str\n1,\"a\n"),
            (["insert", "Item", "--json", "[{\"i16\": 1}, {\"i16\" 2}]"], nil),
            (["insert", "Shape", "label=x"], nil),
            (["fetch", "Item", "--where", "str BEGINSWITH[c] 'a' AND"], nil),
            (["fetch", "Item", "--where", "nope == 1"], nil),
            (["delete", "Item"], nil),
            (["fetch", "Item", "--bogus"], nil),
        ]
        var text = ""
        for (arguments, stdin) in commands {
            let result = try box.run(arguments, stdin: stdin)
            text += "$ cdstore " + arguments.map(Self.shellQuoted).joined(separator: " ") + (stdin == nil ? "" : " < input") + "\n"
            text += result.stderr + "exit \(result.status)\n\n"
        }
        try assertSnapshot(Sandbox.anonymized(text), named: "errors.txt")
    }

    @Test(arguments: [[], ["insert"], ["fetch"], ["count"], ["delete"], ["export"], ["history"], ["model"], ["model", "show"],
                      ["model", "validate"], ["model", "compile"], ["model", "hashes"], ["model", "diff"], ["serve"], ["mcp"],
                      ["migrate"], ["mapping"], ["mapping", "show"], ["mapping", "infer"], ["scan"], ["watch"]])
    func help(command: [String]) throws {
        let result = try CLIRunner.run(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let name = (["cdstore"] + command).joined(separator: "-") + ".help.txt"
        try assertSnapshot(Sandbox.anonymized(result.stdout), named: "help/" + name)
    }

    static func shellQuoted(_ argument: String) -> String {
        argument.allSatisfy { $0.isLetter || $0.isNumber || "-_=.,/:".contains($0) }
            ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
