import CDStoreTestSupport
import Foundation
import Testing

/// A process killed inside a bulk write, or a disk that fills up, leaves the store as it was and verifying.
///
/// Each kill is aimed inside the write and the test proves it landed there: the command runs once to the end to
/// measure how long it holds its store's write lock (``WALWriteLock``, or the rollback journal of a store it
/// creates), then each round kills it a random time into that, no later than half of it, sending SIGKILL only
/// while the lock is held; afterwards the store's log holds no commit (or a hot journal is left), and the store
/// file is byte for byte what it was. A kill before the write began or after it committed fails the test.
/// `make reliability` runs more rounds (`CDSTORE_RELIABILITY_ROUNDS`) with new seeds (`CDSTORE_RELIABILITY_SEED`).
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

    /// How long `cdstore arguments…` holds the write lock of the WAL store `store` when nothing stops it; the
    /// command must succeed, and its write last long enough to aim kills inside it.
    func writeTime(_ arguments: [String], store: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        let measured = try KilledWriter.measure(arguments) { WALWriteLock.isHeld(store: store) }
        #expect(measured.status == 0, "cdstore \(arguments.joined(separator: " "))", sourceLocation: sourceLocation)
        try #require(measured.seconds >= 0.02, "the write lasts \(measured.seconds) s: too short to aim a kill inside it",
                     sourceLocation: sourceLocation)
        return measured.seconds
    }

    /// Kills `cdstore arguments…` `delay` seconds into its write transaction on the WAL store `store` (which
    /// nothing has open), then proves the kill landed inside it: the write lock was held when SIGKILL was sent, and
    /// the dead process committed nothing: its log holds no commit frame, and the store file, which only a
    /// checkpoint of committed frames changes, is byte for byte what it was.
    func killInsideTheWrite(_ arguments: [String], store: String, after delay: Double,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = FileManager.default.contents(atPath: store)
        try #require(before != nil && WriteAheadLog.read(store: store).frames == 0,
                     "a store with no pending log before the write", sourceLocation: sourceLocation)
        let outcome = try KilledWriter.run(arguments, until: KilledWriter.after(delay) { WALWriteLock.isHeld(store: store) })
        try #require(outcome.killedWhenReady, "killing \(delay) s into the write: \(outcome)", sourceLocation: sourceLocation)
        let left = WriteAheadLog.read(store: store)
        #expect(left.commits == 0,
                "the kill landed before the commit: the log holds \(left.commits) commit frames (\(left.uncommitted) uncommitted)",
                sourceLocation: sourceLocation)
        #expect(FileManager.default.contents(atPath: store) == before, "the store file is as it was",
                sourceLocation: sourceLocation)
    }

    /// A copy of the store at `path` (closed, its log checkpointed) at `copy`.
    func copyStore(_ path: String, to copy: String) throws -> String {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        return copy
    }

    /// The store, as `cdstore` reads it after a kill, holds `count` Person objects and verifies.
    func expectPeople(_ store: String, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLIRunner.run(["count", "Person", "--store", store])
        #expect(result.status == 0 && result.stdout == "\(count)\n", "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        let verify = try CLIRunner.run(["verify", "--store", store])
        #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)", sourceLocation: sourceLocation)
    }

    @Test func insertKilledInsideItsWriteLeavesNothing() throws {
        var random = SeededGenerator(state: 12 &+ Self.seed)
        let folder = try temporaryDirectory()
        let input = try Self.people(60_000, in: folder)
        func insert(_ store: String) throws -> [String] {
            #expect(try CLIRunner.run(["count", "Person", "--model", Self.model, "--store", store]).status == 0)
            return ["insert", "Person", "--file", input, "--store", store]
        }
        let whole = folder.appendingPathComponent("Whole.sqlite").path
        let time = try writeTime(try insert(whole), store: whole)
        try expectPeople(whole, 60_000)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Killed\(round).sqlite").path
            try killInsideTheWrite(try insert(store), store: store, after: Double.random(in: 0...time / 2, using: &random))
            try expectPeople(store, 0)
        }
    }

    /// The insert creates the store, so its first write runs with a rollback journal (``Store`` switches to one for
    /// a new store's first transaction): killed while the journal is open, it leaves a hot journal, which the
    /// read-only `count` and `verify` that follow must get past.
    @Test func insertCreatingTheStoreKilledInsideItsWriteLeavesNothing() throws {
        var random = SeededGenerator(state: 14 &+ Self.seed)
        let folder = try temporaryDirectory()
        let input = try Self.people(60_000, in: folder)
        func insert(_ store: String) -> [String] { ["insert", "Person", "--file", input, "--model", Self.model, "--store", store] }
        let whole = folder.appendingPathComponent("Whole.sqlite").path
        let measured = try KilledWriter.measure(insert(whole)) { RollbackJournal.isOpen(store: whole) }
        #expect(measured.status == 0)
        try #require(measured.seconds >= 0.02, "the journal is open \(measured.seconds) s: too short to aim a kill inside")
        try expectPeople(whole, 60_000)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Created\(round).sqlite").path
            var delay = Double.random(in: 0...measured.seconds / 2, using: &random)
            var outcome = try KilledWriter.run(insert(store), until: KilledWriter.after(delay) { RollbackJournal.isOpen(store: store) })
            // Tests run side by side, so one insert may finish sooner than the measured one: a run that ended on its
            // own before the kill proves nothing and is made again, aiming earlier; a round counts only when the kill
            // landed while the journal was open.
            for _ in 0..<4 where !outcome.killedWhenReady && outcome.status == 0 {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: store + suffix) }
                delay /= 4
                outcome = try KilledWriter.run(insert(store), until: KilledWriter.after(delay) { RollbackJournal.isOpen(store: store) })
            }
            try #require(outcome.killedWhenReady, "killing \(delay) s into the write: \(outcome)")
            #expect(RollbackJournal.isOpen(store: store), "the kill landed inside the write: it left a hot journal")
            try expectPeople(store, 0)
        }
    }

    @Test func importKilledInsideItsWriteLeavesNothing() throws {
        var random = SeededGenerator(state: 13 &+ Self.seed)
        let folder = try temporaryDirectory()
        let source = folder.appendingPathComponent("Source.sqlite").path
        #expect(try CLIRunner.run(["insert", "Person", "--file", try Self.people(40_000, in: folder),
                                   "--model", Self.model, "--store", source]).status == 0)
        let export = folder.appendingPathComponent("export.ndjson").path
        #expect(try CLIRunner.run(["export", "--format", "ndjson", "--output", export, "--store", source]).status == 0)
        func importing(_ store: String) throws -> [String] {
            #expect(try CLIRunner.run(["count", "Person", "--model", Self.model, "--store", store]).status == 0)
            return ["import", export, "--store", store]
        }
        let whole = folder.appendingPathComponent("Whole.sqlite").path
        let time = try writeTime(try importing(whole), store: whole)
        try expectPeople(whole, 40_000)
        for round in 0..<Self.rounds {
            let store = folder.appendingPathComponent("Imported\(round).sqlite").path
            try killInsideTheWrite(try importing(store), store: store, after: Double.random(in: 0...time / 2, using: &random))
            try expectPeople(store, 0)
        }
    }

    @Test func aMigrationKilledInsideItsWriteFinishesOnTheNextRunWithEveryRow() throws {
        var random = SeededGenerator(state: 14 &+ Self.seed)
        let staff = Corpus.schemas.appendingPathComponent("Staff.xcdatamodeld").path
        let folder = try temporaryDirectory()
        var text = ""
        for i in 0..<150_000 { text += #"{"name":"E\#(i)","age":\#(20 + i % 50),"salary":\#(i)}"# + "\n" }
        let input = folder.appendingPathComponent("employees.ndjson")
        try Data(text.utf8).write(to: input)
        let loaded = folder.appendingPathComponent("Loaded.sqlite").path
        let load = try CLIRunner.run(["insert", "Employee", "--file", input.path, "--model", staff, "--model-version", "Staff",
                                      "--store", loaded])
        #expect(load.status == 0, "\(load.stderr)")
        func migrate(_ store: String) -> [String] { ["migrate", "--model", staff, "--no-backup", "--store", store] }
        let whole = try copyStore(loaded, to: folder.appendingPathComponent("Whole.sqlite").path)
        let time = try writeTime(migrate(whole), store: whole)
        for round in 0..<Self.rounds {
            let store = try copyStore(loaded, to: folder.appendingPathComponent("Staff\(round).sqlite").path)
            try killInsideTheWrite(migrate(store), store: store, after: Double.random(in: 0...time / 2, using: &random))
            let again = try CLIRunner.run(migrate(store))
            #expect(again.status == 0 && again.stdout.contains("migrated \(store)"), "the store was left unmigrated: \(again.stdout)\(again.stderr)")
            #expect(try CLIRunner.run(["count", "Employee", "--model", staff, "--store", store]).stdout == "150000\n")
            let verify = try CLIRunner.run(["verify", "--model", staff, "--store", store])
            #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
        }
    }

    /// A small tmpfs stands for a full disk. Where one cannot be mounted (not root, no tmpfs) the test is skipped
    /// and says why; in CI, as root, it runs.
    @Test(.enabled(if: SmallDisk.problem == nil, Comment(rawValue: "cannot mount a 1 MB tmpfs here: \(SmallDisk.problem ?? "")")))
    func aFullDiskGivesACleanErrorAndAnUnchangedStore() throws {
        let folder = try temporaryDirectory()
        let mountPoint = folder.appendingPathComponent("small")
        try SmallDisk.mount(at: mountPoint)
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

/// A 1 MB tmpfs, the full disk of ``CrashSafetyTests/aFullDiskGivesACleanErrorAndAnUnchangedStore()``.
enum SmallDisk {
    /// Why none can be mounted here (nil: one can), found before the tests run by mounting and unmounting one.
    static let problem: String? = {
        do {
            let probe = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: probe) }
            try mount(at: probe)
            _ = try ProcessRunner.run("umount", [probe.path])
            return nil
        } catch {
            return "\(error)"
        }
    }()

    /// Mounts a 1 MB tmpfs on the folder `mountPoint` (created when missing).
    static func mount(at mountPoint: URL) throws {
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mounted = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
        guard mounted.status == 0 else {
            throw MountFailure(description: "mount -t tmpfs: \(mounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    /// A `mount` that failed, with what it said.
    struct MountFailure: Error, CustomStringConvertible {
        var description: String
    }
}
