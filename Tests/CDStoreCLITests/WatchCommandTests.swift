import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// `cdstore watch` while another process (`cdstore insert`, `update`, `delete`) writes: each insert, update and
/// delete printed within 250 ms of its commit, with and without persistent history, across a checkpoint; SIGTERM
/// ends it with status 0.
@Suite(.serialized) struct WatchCommandTests {
    /// A `cdstore watch` running in the background, its output collected as it comes.
    final class Watching: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var output = Data()
        private var errors = Data()

        /// Standard input, kept open until ``closeInput()``.
        let input = Pipe()

        init(_ arguments: [String], stdin: String? = nil) throws {
            process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["CDSTORE_MODEL"] = nil
            environment["CDSTORE_STORE"] = nil
            process.environment = environment
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            try process.run()
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            for (pipe, isOutput) in [(out, true), (err, false)] {
                Thread.detachNewThread { [self] in
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(pipe.fileHandleForReading.fileDescriptor, $0.baseAddress, $0.count) }
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { return }
                        lock.withLock {
                            if isOutput { output.append(contentsOf: buffer[0..<count]) } else { errors.append(contentsOf: buffer[0..<count]) }
                        }
                    }
                }
            }
        }

        var lines: [String] { lock.withLock { String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init) } }
        var stderr: String { lock.withLock { String(decoding: errors, as: UTF8.self) } }

        /// Waits until `condition` holds, for at most `timeout` seconds; the time it took, or nil.
        @discardableResult
        func wait(timeout: TimeInterval = 10, _ condition: () -> Bool) -> TimeInterval? {
            let start = Date()
            while Date().timeIntervalSince(start) < timeout {
                if condition() { return Date().timeIntervalSince(start) }
                usleep(2000)
            }
            return nil
        }

        /// Ends standard input and returns the exit status once the process ends.
        func closeInput() throws -> Int32 {
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// Sends SIGTERM and returns the exit status.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Runs `write` (another process's commit), then waits for `count` more lines; returns them, checking that
    /// the last came within 250 ms of the write's end.
    static func expectLines(_ watching: Watching, _ count: Int, after write: () throws -> Void,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let before = watching.lines.count
        try write()
        let latency = watching.wait { watching.lines.count >= before + count }
        #expect(latency != nil, "no change printed: \(watching.lines) \(watching.stderr)", sourceLocation: sourceLocation)
        #expect((latency ?? 1) < 0.25, "printed \(Int((latency ?? 1) * 1000)) ms after the commit", sourceLocation: sourceLocation)
        usleep(100_000)
        #expect(watching.lines.count == before + count, "\(watching.lines.dropFirst(before))", sourceLocation: sourceLocation)
        return try watching.lines.dropFirst(before).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        }
    }

    static func start(_ sandbox: Sandbox, _ extra: [String] = []) throws -> Watching {
        let watching = try Watching(["watch", "--store", sandbox.store, "--format", "ndjson"] + extra)
        #expect(watching.wait { watching.stderr.contains("watching") } != nil, "\(watching.stderr)")
        return watching
    }

    @Test func printsChangesOfAnotherProcessWithoutHistory() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Notes.json").path
        try Data(ScanTree.model.utf8).write(to: URL(fileURLWithPath: model))
        let sandbox = try Sandbox(model: model)
        try sandbox.ok(["insert", "Note"], stdin: #"{"title": "first"}"#)
        let watching = try Self.start(sandbox)
        #expect(watching.stderr.contains("by comparing snapshots"), "\(watching.stderr)")

        let inserted = try Self.expectLines(watching, 2) {
            try sandbox.ok(["insert", "Note", "--nl"], stdin: "{\"title\": \"second\", \"pinned\": true}\n{\"title\": \"third\"}\n")
        }
        #expect(inserted.map { $0["change"] as? String } == ["inserted", "inserted"])
        #expect(inserted.map { $0["entity"] as? String } == ["Note", "Note"])
        #expect(inserted.map { ($0["values"] as? [String: Any])?["title"] as? String } == ["second", "third"])
        #expect((inserted.first?["_id"] as? String)?.hasSuffix("/Note/p2") == true)

        let updated = try Self.expectLines(watching, 1) {
            try sandbox.ok(["update", "Note", "--where", "title == 'second'", "--set", "title=2nd"])
        }
        #expect(updated.first?["change"] as? String == "updated")
        #expect(updated.first?["updated"] as? [String] == ["title"], "\(updated)")
        #expect((updated.first?["values"] as? [String: Any])?["title"] as? String == "2nd")

        // The writer checkpoints (and truncates its -wal): nothing to print; the next commit still shows.
        let checkpointer = try DatabaseQueue(path: sandbox.store)
        try checkpointer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try checkpointer.close()
        let deleted = try Self.expectLines(watching, 1) {
            try sandbox.ok(["delete", "Note", "--where", "title == 'first'"])
        }
        #expect(deleted.first?["change"] as? String == "deleted")
        #expect((deleted.first?["_id"] as? String)?.hasSuffix("/Note/p1") == true)
        #expect(deleted.first?["values"] == nil)
        #expect(watching.stop() == 0, "\(watching.stderr)")
    }

    @Test func printsChangesFromPersistentHistory() throws {
        let folder = try temporaryDirectory()
        let model = try HistoryFixture.writeModel(in: folder)
        let sandbox = try Sandbox(model: model)
        try sandbox.ok(["insert", "Shelf"], stdin: #"{"name": "A"}"#)
        try HistoryFixture.execute(HistoryFixture.tables, on: sandbox.store)
        let watching = try Self.start(sandbox, ["--entity", "Shelf"])
        #expect(watching.stderr.contains("from its persistent history"), "\(watching.stderr)")

        let inserted = try Self.expectLines(watching, 1) {
            try sandbox.ok(["insert", "Shelf"], stdin: #"{"name": "B", "label": "new"}"#)
            try sandbox.ok(["insert", "Tag"], stdin: #"{"name": "not watched"}"#)
        }
        #expect(inserted.first?["change"] as? String == "inserted")
        #expect((inserted.first?["values"] as? [String: Any])?["name"] as? String == "B")
        #expect(inserted.first?["transaction"] is Int, "\(inserted)")
        #expect(inserted.first?["timestamp"] is String, "\(inserted)")

        let updated = try Self.expectLines(watching, 1) {
            try sandbox.ok(["update", "Shelf", "--where", "name == 'B'", "--set", "label=old"])
        }
        #expect(updated.first?["change"] as? String == "updated")
        #expect(updated.first?["updated"] as? [String] == ["label"], "\(updated)")

        let deleted = try Self.expectLines(watching, 1) {
            try sandbox.ok(["delete", "Shelf", "--where", "name == 'A'"])
        }
        #expect(deleted.first?["change"] as? String == "deleted")
        #expect((deleted.first?["_id"] as? String)?.hasSuffix("/Shelf/p1") == true, "\(deleted)")
        #expect(watching.stop() == 0, "\(watching.stderr)")
    }

    /// The REPL's `.watch`: SIGTERM (as Ctrl-C) ends the watch, not the session, which goes on to its next line.
    @Test func replDotWatch() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Notes.json").path
        try Data(ScanTree.model.utf8).write(to: URL(fileURLWithPath: model))
        let sandbox = try Sandbox(model: model)
        try sandbox.ok(["insert", "Note"], stdin: #"{"title": "first"}"#)
        let repl = try Watching(["repl", "--store", sandbox.store, "--model", model],
                                stdin: ".watch Note --format ndjson\ncount Note\n")
        #expect(repl.wait { repl.stderr.contains("watching") } != nil, "\(repl.stderr)")
        let inserted = try Self.expectLines(repl, 1) { try sandbox.ok(["insert", "Note"], stdin: #"{"title": "second"}"#) }
        #expect(inserted.first?["change"] as? String == "inserted")
        repl.process.terminate()
        #expect(repl.wait { repl.lines.last == "2" } != nil, "the session did not go on: \(repl.lines) \(repl.stderr)")
        #expect(try repl.closeInput() == 0, "\(repl.stderr)")
    }

    @Test func predicateKeepsMatchingObjects() throws {
        let folder = try temporaryDirectory()
        let model = folder.appendingPathComponent("Notes.json").path
        try Data(ScanTree.model.utf8).write(to: URL(fileURLWithPath: model))
        let sandbox = try Sandbox(model: model)
        try sandbox.ok(["insert", "Note", "--nl"], stdin: "{\"title\": \"a\", \"pinned\": true}\n{\"title\": \"b\"}\n")
        let watching = try Self.start(sandbox, ["--entity", "Note", "--where", "pinned == YES"])
        let changes = try Self.expectLines(watching, 2) {
            try sandbox.ok(["insert", "Note", "--nl"], stdin: "{\"title\": \"c\", \"pinned\": true}\n{\"title\": \"d\"}\n")
            try sandbox.ok(["delete", "Note", "--where", "title IN {'a', 'b'}"])
        }
        #expect(changes.map { $0["change"] as? String } == ["inserted", "deleted"], "\(changes)")
        #expect(changes.map { $0["_id"] as? String ?? "" }.map { String($0.suffix(7)) } == ["Note/p3", "Note/p1"])
        #expect(watching.stop() == 0)
    }
}
