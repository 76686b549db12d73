import CDStoreTestSupport
import Foundation
import Testing

/// Processes writing one store at once wait for each other (busy timeout, IMMEDIATE transactions) and
/// never lose a row or share a primary key; readers never fail while a write commits. `make reliability` runs it
/// with 25,000 records per writer, five times; `make test` with fewer.
@Suite("Concurrent writers and readers")
struct ConcurrentWritersTests {
    static let model = Corpus.packageRoot.appendingPathComponent("Schemas/People.json").path
    static var recordsPerWriter: Int {
        ProcessInfo.processInfo.environment["CDSTORE_RELIABILITY_RECORDS"].flatMap(Int.init) ?? 1500
    }
    static var rounds: Int { ProcessInfo.processInfo.environment["CDSTORE_RELIABILITY_ROUNDS"].flatMap(Int.init) ?? 1 }

    /// Runs every command at once, each in its own process, and returns their results in order. The processes are
    /// started by one shell, not by Foundation's `Process` from several threads (which is not safe on Linux).
    func runTogether(_ commands: [[String]], in folder: URL) throws -> [ProcessResult] {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var script = "cd \(quoted(folder.path))\n"
        for (index, command) in commands.enumerated() {
            script += ([CLIRunner.binary] + command).map(quoted).joined(separator: " ") + " > out\(index) 2> err\(index) &\n"
            script += "pid\(index)=$!\n"
        }
        for index in commands.indices { script += "wait $pid\(index); echo $? > status\(index)\n" }
        var environment = ProcessInfo.processInfo.environment
        environment["CDSTORE_MODEL"] = nil
        environment["CDSTORE_STORE"] = nil
        let shell = try ProcessRunner.run("/bin/bash", ["-c", script], environment: environment)
        #expect(shell.status == 0, "\(shell.stderr)")
        return try commands.indices.map { index in
            func read(_ name: String) throws -> String {
                try String(contentsOf: folder.appendingPathComponent("\(name)\(index)"), encoding: .utf8)
            }
            return ProcessResult(status: Int32(try read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
                                 stdout: try read("out"), stderr: try read("err"))
        }
    }

    func writerInput(_ writer: Int, count: Int, in folder: URL) throws -> String {
        var text = ""
        for i in 0..<count {
            let id = writer * 1_000_000 + i
            text += #"{"id":\#(id),"name":"W\#(writer)-\#(i)","age":\#(20 + i % 60),"salary":\#(i),"active":true,"joined":"2020-01-01"}"# + "\n"
        }
        let path = folder.appendingPathComponent("writer\(writer).ndjson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: ["wal", "delete"])
    func fourWritersAndTwoReadersLoseNothing(journal: String) throws {
        let count = Self.recordsPerWriter
        for _ in 0..<Self.rounds {
            let folder = try temporaryDirectory()
            let store = folder.appendingPathComponent("Shared.sqlite").path
            // A WAL store as insert creates it; a rollback-journal one as seed writes it (DELETE, as bundled).
            let setup = journal == "wal"
                ? try CLIRunner.run(["count", "Person", "--model", Self.model, "--store", store])
                : try CLIRunner.run(["seed", "--model", Self.model, "--out", store])
            #expect(setup.status == 0, "\(setup.stderr)")
            var commands: [[String]] = []
            for writer in 1...4 {
                commands.append(["insert", "Person", "--file", try writerInput(writer, count: count, in: folder),
                                 "--store", store, "--busy-timeout", "60000"])
            }
            for _ in 1...2 {
                commands.append(["fetch", "Person", "--where", "age > 30", "--sort", "-salary", "--limit", "20",
                                 "--format", "ndjson", "--store", store, "--busy-timeout", "60000"])
            }
            let results = try runTogether(commands + commands.suffix(2) + commands.suffix(2), in: folder)
            for (command, result) in zip(commands + commands.suffix(2) + commands.suffix(2), results) {
                #expect(result.status == 0, "cdstore \(command.prefix(2).joined(separator: " ")): \(result.stderr)")
            }
            let total = try CLIRunner.run(["count", "Person", "--store", store])
            #expect(total.stdout == "\(4 * count)\n")
            // Every writer's records, each under its own key, and Z_MAX is the largest key handed out.
            let keys = try ProcessRunner.python("""
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                print(*db.execute("SELECT COUNT(*), COUNT(DISTINCT Z_PK), COUNT(DISTINCT ZID), MAX(Z_PK) FROM ZPERSON").fetchone(),
                      *db.execute("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'").fetchone())
                """, [store])
            #expect(keys.stdout == Array(repeating: "\(4 * count)", count: 5).joined(separator: " ") + "\n", "\(keys.stderr)")
            let verify = try CLIRunner.run(["verify", "--store", store])
            #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
            let info = try CLIRunner.run(["info", "--store", store, "--format", "json"])
            #expect(info.status == 0)
        }
    }

    @Test func aWriterThatCannotGetTheLockSaysWhoHoldsItAndThatNothingWasWritten() throws {
        let folder = try temporaryDirectory()
        let store = folder.appendingPathComponent("Locked.sqlite").path
        #expect(try CLIRunner.run(["count", "Person", "--model", Self.model, "--store", store]).status == 0)
        // A second process holding a write transaction open, as another tool would.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            time.sleep(30)
            """, store]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer { holder.terminate() }
        // Wait for "locked": the write lock is taken.
        var byte: UInt8 = 0
        while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == -1 && errno == EINTR {}
        let before = storeBytes(store)
        let started = Date()
        let result = try CLIRunner.run(["insert", "Person", "id=1", "name=Ann", "age=30", "salary=1", "active=yes",
                                        "joined=2020-01-01", "--store", store, "--busy-timeout", "300"])
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(result.status == 4)
        #expect(result.stderr.hasPrefix("error: --busy-timeout: the store is locked by another connection and stayed locked for 0.3 s, the longest wait allowed"))
        #expect(result.stderr.contains("it is open in pid \(holder.processIdentifier): "), "\(result.stderr)")
        #expect(result.stderr.contains("python3 -c import sqlite3, sys, time db = sqlite3.connect"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("; nothing was written\n"))
        #expect(storeBytes(store) == before)
    }
}
