import CDStoreTestSupport
import Foundation
import Testing

/// The snapshot check fails whenever it has not compared: while recording, and when the file was missing.
@Suite("Snapshot helper: recording fails")
struct SnapshotHelperTests {
    @Test func matchingTextPasses() throws {
        let folder = try temporaryDirectory()
        try Data("same\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
        #expect(try Snapshot.check("same\n", named: "a.txt", in: folder, recording: false) == .matched)
    }

    @Test func recordingWritesTheFileAndFails() throws {
        let folder = try temporaryDirectory()
        try Data("old\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
        var outcome: Snapshot.Outcome?
        try withKnownIssue {
            outcome = try Snapshot.check("new\n", named: "a.txt", in: folder, recording: true)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("recorded new snapshot \(folder.path)/a.txt (CDSTORE_RECORD_SNAPSHOTS=1)") }
        }
        #expect(outcome == .recorded)
        #expect(try String(contentsOf: folder.appendingPathComponent("a.txt"), encoding: .utf8) == "new\n")
    }

    @Test func recordingFailsEvenWhenTheTextIsTheSame() throws {
        let folder = try temporaryDirectory()
        try Data("same\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
        var outcome: Snapshot.Outcome?
        try withKnownIssue {
            outcome = try Snapshot.check("same\n", named: "a.txt", in: folder, recording: true)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("recorded new snapshot \(folder.path)/a.txt (CDSTORE_RECORD_SNAPSHOTS=1)") }
        }
        #expect(outcome == .recorded)
    }

    @Test func aMissingFileIsWrittenAndFails() throws {
        let folder = try temporaryDirectory()
        var outcome: Snapshot.Outcome?
        try withKnownIssue {
            outcome = try Snapshot.check("first\n", named: "sub/b.txt", in: folder, recording: false)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("recorded new snapshot \(folder.path)/sub/b.txt (there was no snapshot") }
        }
        #expect(outcome == .recordedMissing)
        #expect(try String(contentsOf: folder.appendingPathComponent("sub/b.txt"), encoding: .utf8) == "first\n")
    }

    @Test func aDifferenceFailsAndLeavesTheFile() throws {
        let folder = try temporaryDirectory()
        try Data("one\ntwo\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
        var outcome: Snapshot.Outcome?
        try withKnownIssue {
            outcome = try Snapshot.check("one\nthree\n", named: "a.txt", in: folder, recording: false)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("output differs from \(folder.path)/a.txt at line 2:\n  expected: two\n  actual:   three\n") }
        }
        #expect(outcome == .differed)
        #expect(try String(contentsOf: folder.appendingPathComponent("a.txt"), encoding: .utf8) == "one\ntwo\n")
    }
}
