import CDStoreTestSupport
import Foundation
import Testing

/// Issue 13: a process killed at any moment of a bulk write, or a disk that fills up, leaves all or nothing and a
/// store that verifies. `make reliability` runs more rounds (`CDSTORE_RELIABILITY_ROUNDS`).
@Suite("Killed writers and full disks", .serialized)
struct CrashSafetyTests {
    static let model = Corpus.packageRoot.appendingPathComponent("Schemas/People.json").path
    static var rounds: Int { ProcessInfo.processInfo.environment["CDSTORE_RELIABILITY_ROUNDS"].flatMap(Int.init) ?? 2 }
    /// The seed of the kill moments: fixed for `make test`, a new one for each run of `make reliability`.
    static var seed: UInt64 { ProcessInfo.processInfo.environment["CDSTORE_RELIABILITY_SEED"].flatMap(UInt64.init) ?? 0 }

    static func people(_ count: Int, in folder: URL) throws -> String {
        var text = ""
        text.reserveCapacity(count * 100)
        for i in 0..<count {
            text += #"{"id":\#(i),"name":"P\#(i)","age":\#(18 + i % 70),"salary":\#(i),"active":true,"joined":"2020-01-01"}"# + "\n"
        }
        let path = folder.appendingPathComponent("people.ndjson").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Starts `cdstore arguments…`, kills it with SIGKILL after `delay` seconds (if it still runs), and says whether
    /// it was killed.
    func kill(_ arguments: [String], after delay: Double) throws -> Bool {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([CLIRunner.binary] + arguments).map(quoted).joined(separator: " ")
        let script = "\(command) > /dev/null 2>&1 & pid=$!; sleep \(delay); "
            + "if kill -9 $pid 2>/dev/null; then echo killed; else echo finished; fi; wait $pid 2>/dev/null; true"
        return try ProcessRunner.run("/bin/bash", ["-c", script]).stdout == "killed\n"
    }

    func expectAllOrNothing(_ store: String, expected: Int, killed: Bool) throws {
        let count = try CLIRunner.run(["count", "Person", "--store", store])
        #expect(count.status == 0, "\(count.stderr)")
        let objects = Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        #expect(objects == 0 || objects == expected, "\(objects) objects after a kill")
        if !killed { #expect(objects == expected) }
        let verify = try CLIRunner.run(["verify", "--store", store])
        #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
    }

    @Test func insertKilledAtRandomMomentsLeavesAllOrNothing() throws {
        var random = SeededGenerator(state: 12 &+ Self.seed)
        let folder = try temporaryDirectory()
        let input = try Self.people(60_000, in: folder)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Killed\(round).sqlite").path
            #expect(try CLIRunner.run(["count", "Person", "--model", Self.model, "--store", store]).status == 0)
            let killed = try kill(["insert", "Person", "--file", input, "--store", store],
                                  after: Double.random(in: 0.05...1.2, using: &random))
            try expectAllOrNothing(store, expected: 60_000, killed: killed)
        }
    }

    /// The insert creates the store, so its first write runs with a rollback journal (ADR 0013, session 26): killed,
    /// it leaves a hot journal, which the read-only `count` and `verify` that follow must get past.
    @Test func insertCreatingTheStoreKilledAtRandomMomentsLeavesAllOrNothing() throws {
        var random = SeededGenerator(state: 14 &+ Self.seed)
        let folder = try temporaryDirectory()
        let input = try Self.people(60_000, in: folder)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Created\(round).sqlite").path
            // Late enough that the store exists: a kill inside its creation is another case.
            let killed = try kill(["insert", "Person", "--file", input, "--model", Self.model, "--store", store],
                                  after: Double.random(in: 0.3...1.2, using: &random))
            try expectAllOrNothing(store, expected: 60_000, killed: killed)
        }
    }

    @Test func importKilledAtRandomMomentsLeavesAllOrNothing() throws {
        var random = SeededGenerator(state: 13 &+ Self.seed)
        let folder = try temporaryDirectory()
        let source = folder.appendingPathComponent("Source.sqlite").path
        #expect(try CLIRunner.run(["insert", "Person", "--file", try Self.people(40_000, in: folder),
                                   "--model", Self.model, "--store", source]).status == 0)
        let export = folder.appendingPathComponent("export.ndjson").path
        #expect(try CLIRunner.run(["export", "--format", "ndjson", "--output", export, "--store", source]).status == 0)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Imported\(round).sqlite").path
            #expect(try CLIRunner.run(["count", "Person", "--model", Self.model, "--store", store]).status == 0)
            let killed = try kill(["import", export, "--store", store], after: Double.random(in: 0.05...1.2, using: &random))
            try expectAllOrNothing(store, expected: 40_000, killed: killed)
        }
    }

    @Test func aMigrationKilledMidwayFinishesOnTheNextRunWithEveryRow() throws {
        var random = SeededGenerator(state: 14 &+ Self.seed)
        let staff = Corpus.schemas.appendingPathComponent("Staff.xcdatamodeld").path
        let folder = try temporaryDirectory()
        var text = ""
        // Enough rows that the migration takes about a second, so that the kill lands inside it.
        for i in 0..<150_000 { text += #"{"name":"E\#(i)","age":\#(20 + i % 50),"salary":\#(i)}"# + "\n" }
        let input = folder.appendingPathComponent("employees.ndjson")
        try Data(text.utf8).write(to: input)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Staff\(round).sqlite").path
            let load = try CLIRunner.run(["insert", "Employee", "--file", input.path, "--model", staff, "--model-version", "Staff",
                                          "--store", store])
            #expect(load.status == 0, "\(load.stderr)")
            _ = try kill(["migrate", "--model", staff, "--no-backup", "--store", store],
                         after: Double.random(in: 0.05...0.8, using: &random))
            let again = try CLIRunner.run(["migrate", "--model", staff, "--no-backup", "--store", store])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try CLIRunner.run(["count", "Employee", "--model", staff, "--store", store]).stdout == "150000\n")
            let verify = try CLIRunner.run(["verify", "--model", staff, "--store", store])
            #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
        }
    }

    /// A small tmpfs stands for a full disk; without the right to mount one (not root, no tmpfs) the test says so
    /// and passes.
    @Test func aFullDiskGivesACleanErrorAndAnUnchangedStore() throws {
        let folder = try temporaryDirectory()
        let mountPoint = folder.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mounted = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
        guard mounted.status == 0 else {
            print("skipped: cannot mount a small tmpfs here (\(mounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
            return
        }
        defer { _ = try? ProcessRunner.run("umount", [mountPoint.path]) }
        let store = mountPoint.appendingPathComponent("Full.sqlite").path
        #expect(try CLIRunner.run(["insert", "Person", "id=1", "name=Ann", "age=30", "salary=1", "active=yes",
                                   "joined=2020-01-01", "--model", Self.model, "--store", store]).status == 0)
        let before = storeBytes(store)
        let result = try CLIRunner.run(["insert", "Person", "--file", try Self.people(40_000, in: folder), "--store", store])
        #expect(result.status == 4)
        #expect(result.stderr == "error: the disk is full (SQLite error 13); nothing was written\n")
        #expect(try CLIRunner.run(["count", "Person", "--store", store]).stdout == "1\n")
        #expect(try CLIRunner.run(["verify", "--store", store]).stdout == "ok\n")
        #expect(storeBytes(store) == before)
    }
}
