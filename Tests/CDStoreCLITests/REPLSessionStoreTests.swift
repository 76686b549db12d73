import CDStoreTestSupport
import Foundation
import Testing

/// The REPL's one store connection: kept open across statements, without keeping other processes out.
@Suite("The REPL's store connection")
struct REPLSessionStoreTests {
    /// Between two statements another process writes, without waiting (--busy-timeout 0), and the next statement
    /// sees its row; the session reads and writes through the same single connection all along.
    @Test func otherProcessesWriteBetweenStatementsAndTheSessionSeesIt() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let repl = try REPLProcess(["repl", "--store", box.store, "--model", box.model])
        defer { repl.stop() }
        repl.send("count Item")
        try repl.expectOutput("1\n")
        let connections = try repl.openDescriptors(of: box.store)
        #expect(connections.count == 1, "the store is open \(connections.count) times")

        let other = try box.run(["insert", "Item", "i16=2", "--busy-timeout", "0"])
        #expect(other.status == 0, "\(other.stderr)")
        repl.send("count Item")
        try repl.expectOutput("1\n2\n")
        repl.send("insert Item i16=3")
        try repl.expectOutput("1\n2\ninserted 1 object into Item\n")
        // The session's write is committed when its statement ends: another process counts it, without waiting.
        #expect(try box.ok(["count", "Item", "--busy-timeout", "0"]) == "3\n")
        repl.send("count Item --where 'i16 > 1'")
        try repl.expectOutput("1\n2\ninserted 1 object into Item\n2\n")
        #expect(try repl.openDescriptors(of: box.store) == connections)

        let result = repl.finish()
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    /// A statement that fails does not end the connection or the session.
    @Test func aFailedStatementKeepsTheConnection() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let repl = try REPLProcess(["repl", "--store", box.store, "--model", box.model])
        defer { repl.stop() }
        repl.send("count Item")
        try repl.expectOutput("1\n")
        let connections = try repl.openDescriptors(of: box.store)
        #expect(connections.count == 1, "the store is open \(connections.count) times")
        repl.send("insert Item i16=notanumber")
        repl.send("count Item")
        try repl.expectOutput("1\n1\n")
        #expect(try repl.openDescriptors(of: box.store) == connections)
        let result = repl.finish()
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: line 2: "), "\(result.stderr)")
    }
}

/// A `cdstore repl` process fed one line at a time through a pipe, for tests that act between statements.
final class REPLProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let lock = NSLock()
    private var stdout = Data(), stderr = Data()
    private let done = DispatchGroup()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CDSTORE_MODEL"] = nil
        environment["CDSTORE_STORE"] = nil
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        for (pipe, isOutput) in [(output, true), (errors, false)] {
            done.enter()
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let descriptor = pipe.fileHandleForReading.fileDescriptor
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    lock.withLock {
                        if isOutput {
                            stdout.append(contentsOf: buffer[0..<count])
                        } else {
                            stderr.append(contentsOf: buffer[0..<count])
                        }
                    }
                }
                done.leave()
            }
        }
    }

    /// Sends `line` as the next line of input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits (up to 20 s, for a loaded machine) until everything printed on standard output is `expected`.
    func expectOutput(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        while Date() < deadline {
            text = lock.withLock { String(decoding: stdout, as: UTF8.self) }
            if text == expected { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let errorText = lock.withLock { String(decoding: stderr, as: UTF8.self) }
        let wanted = expected.debugDescription
        Issue.record("standard output is \(text.debugDescription), expected \(wanted); standard error: \(errorText)",
                     sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// The process's file descriptors open on `path` (from /proc, which must be readable).
    func openDescriptors(of path: String) throws -> [String] {
        let folder = "/proc/\(process.processIdentifier)/fd"
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { entry in
            // A descriptor closed since the listing is not the store's.
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry)) == target
        }.sorted()
    }

    /// Ends the input and waits for the process.
    func finish() -> ProcessResult {
        try? input.fileHandleForWriting.close()
        done.wait()
        process.waitUntilExit()
        return lock.withLock {
            ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
        }
    }

    /// Ends the process if a test left it running.
    func stop() {
        if process.isRunning { process.terminate() }
    }
}
