import Foundation

/// Runs the built `cdstore` binary, as end-to-end tests and users do.
public enum CLIRunner {
    /// The debug binary SwiftPM built beside the tests (override with `$CDSTORE_BIN`).
    public static var binary: String {
        if let override = ProcessInfo.processInfo.environment["CDSTORE_BIN"], !override.isEmpty { return override }
        return Corpus.packageRoot.appendingPathComponent(".build/debug/cdstore").path
    }

    /// Runs `cdstore arguments…` with `stdin`, without inheriting `CDSTORE_MODEL`/`CDSTORE_STORE`; `environment`
    /// adds variables (e.g. those two) for this run.
    public static func run(_ arguments: [String], stdin: String? = nil,
                           environment: [String: String] = [:]) throws -> ProcessResult {
        var inherited = ProcessInfo.processInfo.environment
        inherited["CDSTORE_MODEL"] = nil
        inherited["CDSTORE_STORE"] = nil
        inherited.merge(environment) { _, new in new }
        return try ProcessRunner.run(binary, arguments, stdin: stdin, environment: inherited)
    }
}

/// The SHA-256-free fingerprint of a store for "left exactly as it was" checks: the bytes of the store file and
/// of its `-wal` (a committed write lands in one of them).
public func storeBytes(_ path: String) -> [Data?] {
    // An empty -wal holds nothing: SQLite leaves one behind when it opens a WAL store read-only.
    ["", "-wal"].map { suffix in FileManager.default.contents(atPath: path + suffix).flatMap { $0.isEmpty ? nil : $0 } }
}

/// Models and data shipped for tests under `Tests/Fixtures`.
public enum Fixtures {
    /// `Tests/Fixtures`.
    public static let root: URL = Corpus.packageRoot.appendingPathComponent("Tests/Fixtures")
    /// A model with every attribute type (`Item`), validation rules and a uniqueness constraint (`Checked`),
    /// and an abstract entity with two sub-entities (`Shape`, `Circle`, `Square`).
    public static let model: URL = root.appendingPathComponent("Fixture.xcdatamodeld")
}
