import CBuildStamp

/// The version `cdstore --version` and the REPL's banner show: the one stamped into the program when it was packaged
/// or installed (`Scripts/stamp-version.py`, from `git describe`), with its commit; a program built by a plain
/// `swift build` carries no stamp and shows the version below alone.
enum BuildVersion {
    /// The version of an unstamped build: the one the next release tag will carry.
    static let unstamped = "0.1.0"

    /// The version, and the commit when the program was stamped: "0.1.0+3.g1a2b3c4 (commit 1a2b3c4…)".
    static var description: String {
        guard let stamp else { return unstamped }
        return stamp.commit.isEmpty ? stamp.version : "\(stamp.version) (commit \(stamp.commit))"
    }

    /// The version alone.
    static var version: String { stamp?.version ?? unstamped }

    /// The stamp's two words, version and commit; nil in an unstamped program.
    private static let stamp: (version: String, commit: String)? = {
        let words = String(cString: cdstore_build_stamp()).split(separator: " ", maxSplits: 1).map(String.init)
        guard let version = words.first else { return nil }
        return (version, words.count > 1 ? words[1] : "")
    }()
}
