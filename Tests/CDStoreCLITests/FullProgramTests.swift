import CDStoreTestSupport
import Foundation
import Testing

/// The lean `cdstore` and `cdstore-full`: what the lean program leaves out (so that it starts fast) and how it hands
/// `serve`, the REPL and SwiftData sources over, decided before a command runs (ADR 0014, ADR 0015).
@Suite struct FullProgramTests {
    static var full: String {
        URL(fileURLWithPath: CLIRunner.binary).deletingLastPathComponent().appendingPathComponent("cdstore-full").path
    }

    static let note = "@Model final class Note {\n    var title: String = \"\"\n}\n"

    /// A sandbox whose store holds one company.
    static func companyStore() throws -> Sandbox {
        let sandbox = try Sandbox(model: Fixtures.root.appendingPathComponent("Graph.xcdatamodeld").path)
        let made = try CLIRunner.run(["insert", "Company", "name=Acme", "--store", sandbox.store, "--model", sandbox.model])
        #expect(made.status == 0, "\(made.stderr)")
        return sandbox
    }

    /// A copy of the lean program alone in a folder, with no `cdstore-full` beside it.
    static func leanAlone() throws -> String {
        let folder = try temporaryDirectory()
        let copy = folder.appendingPathComponent("cdstore").path
        try FileManager.default.copyItem(atPath: CLIRunner.binary, toPath: copy)
        return copy
    }

    @Test func theLeanProgramLinksNeitherTheWebServerNorSwiftSyntax() throws {
        let lean = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.binary))
        let full = try Data(contentsOf: URL(fileURLWithPath: Self.full))
        // Module names as they appear in mangled symbols and metadata of the programs.
        for module in ["11SwiftSyntax", "11SwiftParser", "15HummingbirdCore"] {
            #expect(lean.range(of: Data(module.utf8)) == nil, "cdstore links \(module)")
            #expect(full.range(of: Data(module.utf8)) != nil, "cdstore-full does not link \(module)")
        }
    }

    @Test func swiftSourcesAreHandedOverWithTheSameArgumentsAndOutput() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Note.swift").path
        try Data(Self.note.utf8).write(to: URL(fileURLWithPath: model))
        let lean = try CLIRunner.run(["model", "show", model, "--format", "json"])
        let full = try ProcessRunner.run(Self.full, ["model", "show", model, "--format", "json"])
        #expect(lean.status == 0)
        #expect(lean.stderr == "")
        #expect(lean.stdout == full.stdout)
        #expect(lean.stdout.contains("\"Note\""))
    }

    @Test func withoutTheFullProgramSwiftSourcesSayWhatIsMissing() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Note.swift").path
        try Data(Self.note.utf8).write(to: URL(fileURLWithPath: model))
        let result = try ProcessRunner.run(try Self.leanAlone(), ["model", "show", model])
        #expect(result.status == 4)
        #expect(result.stderr == "error: reading SwiftData sources needs cdstore-full, installed beside cdstore; it is "
                + "not there (make install installs both)\n")
    }

    /// The hand-over is decided from the arguments before anything runs: a write naming Swift sources is refused
    /// by the lean program alone before it opens, let alone creates, the store.
    @Test func swiftSourcesAreRecognisedBeforeTheStoreIsOpened() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Note.swift").path
        try Data(Self.note.utf8).write(to: URL(fileURLWithPath: model))
        let store = folder.appendingPathComponent("New.sqlite").path
        let result = try ProcessRunner.run(try Self.leanAlone(), ["insert", "Note", "title=a", "--model", model, "--store", store])
        #expect(result.status == 4)
        #expect(result.stderr.hasPrefix("error: reading SwiftData sources needs cdstore-full"))
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// The REPL runs in `cdstore-full` only (any statement may read Swift sources or need the web server's
    /// program): the lean program alone says so, rather than running a session that may fail midway.
    @Test func withoutTheFullProgramTheREPLSaysWhatIsMissing() throws {
        let result = try ProcessRunner.run(try Self.leanAlone(), ["repl", "--store", "/nonexistent.sqlite"], stdin: "")
        #expect(result.status == 4)
        #expect(result.stderr == "error: the REPL needs cdstore-full, installed beside cdstore; it is not there "
                + "(make install installs both)\n")
    }

    @Test func withoutTheFullProgramServeSaysWhatIsMissing() throws {
        let result = try ProcessRunner.run(try Self.leanAlone(), ["serve", "--store", "/nonexistent.sqlite"])
        #expect(result.status == 4)
        #expect(result.stderr == "error: cdstore serve needs cdstore-full, installed beside cdstore; it is not there "
                + "(make install installs both)\n")
    }

    @Test func serveIsNotAStatementOfTheREPL() throws {
        let sandbox = try Self.companyStore()
        let result = try CLIRunner.run(["repl", "--store", sandbox.store, "--model", sandbox.model],
                                       stdin: "serve\ncount Company\n")
        #expect(result.status == 1)
        #expect(result.stderr == "error: line 1: serve runs until Ctrl-C, so it is not a REPL statement: run "
                + "`cdstore serve` in a shell\n")
        #expect(result.stdout == "1\n")
    }

    @Test func mcpIsNotAStatementOfTheREPL() throws {
        let sandbox = try Self.companyStore()
        let result = try CLIRunner.run(["repl", "--store", sandbox.store, "--model", sandbox.model],
                                       stdin: "mcp --store \(sandbox.store)\ncount Company\n")
        #expect(result.status == 1)
        #expect(result.stderr == "error: line 1: mcp answers its client on standard input until it ends, so it is not a "
                + "REPL statement: run `cdstore mcp` in a shell\n")
        #expect(result.stdout == "1\n")
    }

    @Test func serveIsHandedOverAndPrintsItsAddress() throws {
        let sandbox = try Self.companyStore()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = ["serve", "--store", sandbox.store, "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        let pid = process.processIdentifier
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("http://127.0.0.1:"))
        #if os(Linux)
        // The same process, now running cdstore-full.
        let running = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        #expect(running == "cdstore-full\n")
        #endif
    }
}
