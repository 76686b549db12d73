import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore serve` as a process: the URL first on stdout, a clean stop on SIGTERM and SIGINT, the warning for a
/// non-loopback address, and the exit statuses of a store that cannot be served.
@Suite struct ServeCommandTests {
    /// A store with a few objects, made through the CLI.
    static func store() throws -> Sandbox {
        let box = try Sandbox(model: Corpus.schemas.appendingPathComponent("Company.json").path)
        try box.ok(["insert", "Company", "--file", Corpus.schemas.appendingPathComponent("demo/Company.json").path])
        return box
    }

    /// Starts `cdstore serve ARGS`, waits for its first stdout line, sends `signal`, and returns that line, the
    /// exit status and stderr.
    static func serve(_ arguments: [String], signal: Int32) throws -> (url: String, status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = ["serve"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(0x0A), let byte = try handle.read(upToCount: 1), !byte.isEmpty { line += byte }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (String(decoding: line, as: UTF8.self), process.terminationStatus, stderr)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func printsItsURLFirstAndStopsCleanly(signal: Int32) throws {
        let box = try Self.store()
        let before = storeBytes(box.store)
        let result = try Self.serve(["--store", box.store, "--port", "0"], signal: signal)
        #expect(result.url.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/\n/) != nil, "\(result.url)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(storeBytes(box.store) == before)
    }

    @Test func aNonLoopbackHostIsWarnedAbout() throws {
        let box = try Self.store()
        let result = try Self.serve(["--store", box.store, "--port", "0", "--host", "0.0.0.0"], signal: SIGTERM)
        #expect(result.url.hasPrefix("http://0.0.0.0:"))
        #expect(result.stderr == "warning: --host 0.0.0.0 is not a loopback address: anyone who can reach it can read the whole store\n")
    }

    @Test func storesThatCannotBeServedExitWithTheirStatus() throws {
        let folder = try temporaryDirectory()
        let missing = try CLIRunner.run(["serve", "--store", folder.appendingPathComponent("none.sqlite").path, "--port", "0"])
        #expect(missing.status == 4)
        #expect(missing.stderr.hasPrefix("error: no store at "))
        let usage = try CLIRunner.run(["serve", "--port", "70000", "--store", "x"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--port must be from 0 to 65535, not 70000"))
    }

    @Test func timeLimitLabelsAndWatchAreChecked() throws {
        let box = try Self.store()
        let cases: [([String], String)] = [
            (["--time-limit", "0"], "--time-limit must be from 1 to 600000 milliseconds, not 0"),
            (["--label", "Employee"], "--label takes Entity=property, not 'Employee'"),
            (["--label", "Nobody=name"], "--label: no entity 'Nobody' in the model"),
            (["--label", "Employee=nosuch"], "--label: Employee has no attribute 'nosuch'"),
            (["--watch", "--immutable"], "--watch and --immutable exclude each other"),
        ]
        for (arguments, message) in cases {
            let result = try CLIRunner.run(["serve", "--store", box.store, "--port", "0"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // Known labels, a time limit and watching start the server, which stops cleanly.
        let served = try Self.serve(["--store", box.store, "--port", "0", "--label", "Employee=lastName", "--time-limit", "250",
                                     "--watch"], signal: SIGTERM)
        #expect(served.url.hasPrefix("http://127.0.0.1:") && served.status == 0, "\(served.stderr)")
    }
}
