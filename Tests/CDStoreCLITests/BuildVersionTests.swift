import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore --version`: the bare version in a program nobody stamped (a plain `swift build`), the version and commit
/// once `Scripts/stamp-version.py` (which `Scripts/install.sh` and `make dist` run) has stamped a copy.
@Suite struct BuildVersionTests {
    static let script = Corpus.packageRoot.appendingPathComponent("Scripts/stamp-version.py").path
    static let commit = String(repeating: "1a2b3c4d", count: 5)

    @Test func anUnstampedProgramPrintsTheBareVersion() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "0.1.0\n")
    }

    @Test func aStampedCopyPrintsVersionAndCommitAndIsStampedOnce() throws {
        let copy = try temporaryDirectory().appendingPathComponent("cdstore").path
        try FileManager.default.copyItem(atPath: CLIRunner.binary, toPath: copy)
        let stamped = try ProcessRunner.run("python3", [Self.script, "1.2.0+3.g1a2b3c4", Self.commit, copy])
        #expect(stamped.status == 0, "\(stamped.stderr)")
        let version = try ProcessRunner.run(copy, ["--version"])
        #expect(version.stdout == "1.2.0+3.g1a2b3c4 (commit \(Self.commit))\n", "\(version.stderr)")

        let again = try ProcessRunner.run("python3", [Self.script, "1.2.1", Self.commit, copy])
        #expect(again.status != 0 && again.stderr.contains("is stamped already (1.2.0+3.g1a2b3c4 "), "\(again.stderr)")
    }

    @Test func aVersionLongerThanTheRoomIsRefused() throws {
        let copy = try temporaryDirectory().appendingPathComponent("cdstore").path
        try FileManager.default.copyItem(atPath: CLIRunner.binary, toPath: copy)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let result = try ProcessRunner.run("python3", [Self.script, String(repeating: "9", count: 200), Self.commit, copy])
        #expect(result.status != 0 && result.stderr.contains("longer than"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    }
}
