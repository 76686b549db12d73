import CDStoreJSON
import CDStoreTestSupport
import Foundation
import Testing

/// U+2028 and U+2029 in text values are written `\u2028` and `\u2029` by every JSON output, so that readers
/// splitting lines on Unicode separators (Python's `str.splitlines`, JavaScript before ES2019) see one record a
/// line. Each output is split as Python splits it, each line parsed, and the value read back whole.
@Suite("JSON line separators")
struct LineSeparatorTests {
    static let text = "one\u{2028}two\u{2029}three"
    static let escaped = #"one\u2028two\u2029three"#

    /// `text` split as Python's `str.splitlines()` splits it.
    static func pythonLines(_ text: String) -> [String] {
        let breaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029]
        var lines: [String] = [], current = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator(), pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            guard breaks.contains(scalar.value) else { current.append(scalar); continue }
            if scalar.value == 0x0D, pending?.value == 0x0A { pending = scalars.next() }
            lines.append(String(current))
            current = String.UnicodeScalarView()
        }
        if !current.isEmpty { lines.append(String(current)) }
        return lines
    }

    @Test func pythonLinesSplitsWherePythonDoes() {
        #expect(Self.pythonLines("a\u{2028}b\r\nc\u{85}d\n") == ["a", "b", "c", "d"])
    }

    /// The values of `key` in the JSON objects of `lines` (one object per line).
    static func values(_ key: String, inLines lines: [String]) throws -> [JSONValue] {
        try lines.map { line in
            guard case .object(let members) = try JSONReader.parse(line) else { throw CocoaError(.coderReadCorrupt) }
            return members.first { $0.0 == key }?.1 ?? .null
        }
    }

    static func seeded() throws -> Sandbox {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--json", #"{"str": "\#(escaped)", "i16": 1}"#])
        try box.ok(["insert", "Item", "--json", #"{"str": "plain", "i16": 2}"#])
        return box
    }

    /// NDJSON from the streaming path and from the general one (`CDSTORE_NO_STREAMING=1`), fetch and export.
    @Test(arguments: [["fetch", "Item", "--format", "ndjson"], ["export", "Item", "--format", "ndjson"]])
    func ndjsonKeepsOneRecordALine(command: [String]) throws {
        let box = try Self.seeded()
        for environment in [[:], ["CDSTORE_NO_STREAMING": "1"]] {
            let result = try CLIRunner.run(command + ["--store", box.store, "--model", box.model], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(Self.escaped))
            let lines = Self.pythonLines(result.stdout)
            #expect(lines.count == 2, "\(environment): \(lines)")
            #expect(try Self.values("str", inLines: lines) == [.string(Self.text), .string("plain")])
        }
    }

    /// A JSON array prints one object a line inside the brackets.
    @Test(arguments: [["fetch", "Item", "--format", "json"], ["export", "Item", "--format", "json"]])
    func jsonArrayKeepsOneRecordALine(command: [String]) throws {
        let box = try Self.seeded()
        for environment in [[:], ["CDSTORE_NO_STREAMING": "1"]] {
            let result = try CLIRunner.run(command + ["--store", box.store, "--model", box.model], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = Self.pythonLines(result.stdout)
            #expect(lines.count == 4 && lines.first == "[" && lines.last == "]", "\(environment): \(lines)")
            let records = lines.dropFirst().dropLast().map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
            #expect(try Self.values("str", inLines: records) == [.string(Self.text), .string("plain")])
        }
    }

    /// The whole-graph export document and the project command's records.
    @Test func graphExportAndProjection() throws {
        let box = try Self.seeded()
        let graph = try box.ok(["export"])
        #expect(graph.contains(Self.escaped) && !graph.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
        #expect(try JSONReader.parse(graph) != .null)
        let projected = try box.ok(["project", "Item", "--properties", "str", "--sort", "i16", "--format", "ndjson"])
        #expect(try Self.values("str", inLines: Self.pythonLines(projected)) == [.string(Self.text), .string("plain")])
    }

    /// `diff --format ndjson`: one record per difference, the changed value among them.
    @Test func diffRecords() throws {
        let box = try Self.seeded()
        let other = box.path("other.sqlite")
        try box.ok(["insert", "Item", "--json", #"{"str": "plain", "i16": 1}"#], store: other)
        try box.ok(["insert", "Item", "--json", #"{"str": "plain", "i16": 2}"#], store: other)
        let result = try CLIRunner.run(["diff", box.store, other, "--key", "Item=i16", "--format", "ndjson",
                                        "--model", box.model])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = Self.pythonLines(result.stdout)
        #expect(lines.count == 1, "\(lines)")
        #expect(result.stdout.contains(Self.escaped))
        for line in lines { _ = try JSONReader.parse(line) }
    }

    /// Model JSON: `model show --format json` and the JSON model `model compile` writes.
    @Test func modelJSON() throws {
        let box = try Sandbox()
        let model = try box.write("M.json", """
            {"format": "cdstore-model", "formatVersion": 1, "entities": [{"name": "Note", "attributes": [
              {"name": "text", "type": "String", "optional": true, "default": "\(Self.escaped)"}]}]}
            """)
        let shown = try CLIRunner.run(["model", "show", model, "--format", "json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(Self.pythonLines(shown.stdout).count == 1)
        #expect(shown.stdout.contains(Self.escaped))
        let compiled = try CLIRunner.run(["model", "compile", model])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        #expect(compiled.stdout.contains(Self.escaped))
        #expect(!compiled.stdout.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
        // Read back: the same default.
        let again = try box.write("again.json", compiled.stdout)
        let reshown = try CLIRunner.run(["model", "show", again, "--format", "json"])
        #expect(reshown.stdout == shown.stdout)
    }
}
