import CDStoreJSON
import CDStoreTestSupport
import Foundation
import Testing

/// A temporary folder with a store path and the fixture model, for one test.
struct Sandbox {
    let folder: URL
    let store: String
    let model: String

    /// A sandbox for `model` (the fixture model by default).
    init(model: String = Fixtures.model.path) throws {
        folder = try temporaryDirectory()
        store = folder.appendingPathComponent("test.sqlite").path
        self.model = model
    }

    /// A path inside the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `text` to a file in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs `cdstore arguments… --store STORE --model MODEL`.
    func run(_ arguments: [String], stdin: String? = nil, store: String? = nil) throws -> ProcessResult {
        try CLIRunner.run(arguments + ["--store", store ?? self.store, "--model", model], stdin: stdin)
    }

    /// Runs a command that must succeed and returns its standard output.
    @discardableResult
    func ok(_ arguments: [String], stdin: String? = nil, store: String? = nil,
            sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments, stdin: stdin, store: store)
        #expect(result.status == 0, "cdstore \(arguments.joined(separator: " ")) failed: \(result.stderr)",
                sourceLocation: sourceLocation)
        return Self.anonymized(result.stdout)
    }

    /// Output with the store UUIDs in object IDs replaced, so that output of two stores (or two runs) compares.
    static func anonymized(_ text: String) -> String {
        text.replacingOccurrences(of: #"x-coredata://[0-9A-F-]{36}/"#, with: "x-coredata://<store-uuid>/",
                                  options: .regularExpression)
            .replacingOccurrences(of: #""storeUUID":"[0-9A-F-]{36}""#, with: #""storeUUID":"<store-uuid>""#,
                                  options: .regularExpression)
    }

    /// Parses JSON output into objects.
    static func objects(_ json: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) as? [[String: Any]] ?? []
    }
}

/// Parses `output` (JSON, store UUIDs anonymized) and `expected` (JSON text) with cdstore's JSON reader and
/// compares the whole values, keys in order; a fragment check would pass on output that merely holds the piece.
func expectJSON(_ output: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let actual = try JSONReader.parse(Sandbox.anonymized(output))
        let wanted = try JSONReader.parse(expected)
        #expect(actual == wanted, "\nactual:   \(output)\nexpected: \(expected)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("not JSON: \(error)\n\(output)", sourceLocation: sourceLocation)
    }
}

/// `expectJSON` for NDJSON output: one expected JSON text per line, in order.
func expectNDJSON(_ output: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(output.isEmpty || output.hasSuffix("\n"), "NDJSON output does not end with a newline", sourceLocation: sourceLocation)
    let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast(output.hasSuffix("\n") ? 1 : 0)
    #expect(lines.count == expected.count, "\(lines.count) lines, expected \(expected.count):\n\(output)",
            sourceLocation: sourceLocation)
    for (line, wanted) in zip(lines, expected) {
        expectJSON(String(line), wanted, sourceLocation: sourceLocation)
    }
}
