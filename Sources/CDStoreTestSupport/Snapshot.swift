// Only where Testing is: a release build with the static Swift runtime (which has no Testing module) builds every
// target of the package, this one included, and must not fail on it.
#if canImport(Testing)
import Foundation
import Testing

/// The one snapshot (golden file) check of the tests: a text compared whole with a file under `Tests/Snapshots/`.
///
/// With `CDSTORE_RECORD_SNAPSHOTS=1` in the environment the file is (re)written with the text, and the test still
/// fails, as in swift-snapshot-testing: a run that records has checked nothing, so it must not pass. A missing
/// file is written too (the first run of a new test records it) and fails the same way; the run after compares.
package enum Snapshot {
    /// The environment variable that asks for recording.
    package static let recordVariable = "CDSTORE_RECORD_SNAPSHOTS"
    /// The folder snapshots are kept in.
    package static let folder: URL = Corpus.packageRoot.appendingPathComponent("Tests/Snapshots")

    /// Whether this run records (`CDSTORE_RECORD_SNAPSHOTS=1`).
    package static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    /// What a check found.
    package enum Outcome: Equatable, Sendable {
        /// The text is the file's.
        case matched
        /// The text differs from the file (which is left as it was).
        case differed
        /// Recording was asked for: the file now holds the text.
        case recorded
        /// There was no file: it now holds the text.
        case recordedMissing
    }

    /// Compares `text` with `folder/name` and records a test issue unless they are the same; writes the file
    /// instead when recording (or when there is none), which is an issue as well.
    @discardableResult
    package static func check(_ text: String, named name: String, in folder: URL = Snapshot.folder,
                             recording: Bool = Snapshot.isRecording,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let url = folder.appendingPathComponent(name)
        let shown = folder == Snapshot.folder ? "Tests/Snapshots/\(name)" : url.path
        let existing = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
        guard recording || existing == nil else {
            guard let expected = existing, expected != text else { return .matched }
            Issue.record(Comment(rawValue: difference(expected, text, file: shown)), sourceLocation: sourceLocation)
            return .differed
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        let why = existing == nil ? "there was no snapshot \(shown)" : "\(recordVariable)=1"
        Issue.record("recorded new snapshot \(shown) (\(why)); check it and re-run without \(recordVariable)",
                     sourceLocation: sourceLocation)
        return existing == nil ? .recordedMissing : .recorded
    }

    /// Where two texts first part, line by line, with the whole actual text for copying.
    static func difference(_ expected: String, _ actual: String, file: String) -> String {
        let expectedLines = expected.components(separatedBy: "\n"), actualLines = actual.components(separatedBy: "\n")
        let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        return """
            output differs from \(file) at line \(first + 1):
              expected: \(first < expectedLines.count ? expectedLines[first] : "<end>")
              actual:   \(first < actualLines.count ? actualLines[first] : "<end>")
            (run with \(recordVariable)=1 to record the new output)
            whole output:
            \(actual)
            """
    }
}

/// Compares `text` with `Tests/Snapshots/<name>` (see ``Snapshot``): a test issue unless they are the same, and
/// when recording (`CDSTORE_RECORD_SNAPSHOTS=1`) or when there is no file, the file is written and the test fails.
@discardableResult
package func assertSnapshot(_ text: String, named name: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Snapshot.Outcome {
    try Snapshot.check(text, named: name, sourceLocation: sourceLocation)
}
#endif
