import Foundation

/// The shared corpus of real Core Data models, compiled models and stores (`../shared/corpus`, beside the
/// package root), for tests. The corpus is read-only: copy a store with ``copyStore(_:)`` before opening it.
///
/// A test that reads the corpus fails when it is missing: every list below throws ``CorpusMissing``, naming the
/// folder, rather than return nothing (a parameterized test over an empty list runs no case and passes), and a
/// test that reads one named file fails on opening it. `CDSTORE_CORPUS=/elsewhere` points the tests at another
/// folder, which shows those failures with `CDSTORE_CORPUS=/nonexistent`.
public enum Corpus {
    /// The package root, found from this file's path so tests work from any working directory.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CDStoreTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    /// `../shared`, beside the package root.
    public static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    /// `../shared/corpus`, or the folder `CDSTORE_CORPUS` names.
    public static let root: URL = ProcessInfo.processInfo.environment["CDSTORE_CORPUS"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    } ?? shared.appendingPathComponent("corpus")
    /// `../shared/corpus/models`: `.xcdatamodeld` bundles.
    public static let models: URL = root.appendingPathComponent("models")
    /// `../shared/corpus/compiled`: `.momd` folders.
    public static let compiled: URL = root.appendingPathComponent("compiled")
    /// `../shared/corpus/stores`: SQLite stores with their `-wal`/`-shm` files.
    public static let stores: URL = root.appendingPathComponent("stores")
    /// `../shared/tools/coredata`: the Python reference checkers.
    public static let tools: URL = shared.appendingPathComponent("tools/coredata")
    /// `Schemas/` in the package: the sample models shipped with cdstore.
    public static let schemas: URL = packageRoot.appendingPathComponent("Schemas")

    /// Throws ``CorpusMissing`` unless `folder` (by default the corpus itself) exists: the first line of a test that
    /// reads corpus files without listing them first.
    public static func require(_ folder: URL = root) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CorpusMissing(folder: folder.path, wanted: nil)
        }
    }

    /// `items`, or ``CorpusMissing`` naming `folder` when there are none: for lists a test builds from the corpus
    /// itself (a filter of the manifest, the files of one folder).
    public static func nonEmpty<Item>(_ items: [Item], _ wanted: String, in folder: URL) throws -> [Item] {
        if items.isEmpty { throw CorpusMissing(folder: folder.path, wanted: wanted) }
        return items
    }

    /// The entries of `folder` whose name ends in `.pathExtension`, sorted by name; ``CorpusMissing`` when the
    /// folder is missing or has none.
    public static func entries(of folder: URL, withExtension pathExtension: String) throws -> [URL] {
        try require(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try nonEmpty(names.map { folder.appendingPathComponent($0) }.filter { $0.pathExtension == pathExtension },
                            "no .\(pathExtension)", in: folder)
    }

    /// Every `.xcdatamodeld` bundle of the corpus, sorted by folder name.
    public static func modelBundles() throws -> [URL] {
        try entries(of: models, withExtension: "xcdatamodeld")
    }

    /// The `.xcdatamodel` version folders of `bundle`, sorted by name.
    public static func versions(of bundle: URL) throws -> [URL] {
        try entries(of: bundle, withExtension: "xcdatamodel")
    }

    /// Every version of every bundle of the corpus (the `.xcdatamodel` folders).
    public static func allModelVersions() throws -> [URL] {
        try modelBundles().flatMap { try versions(of: $0) }
    }

    /// Every `.momd` folder of the corpus, sorted by name.
    public static func compiledModels() throws -> [URL] {
        try entries(of: compiled, withExtension: "momd")
    }

    /// Every `.sqlite` store of the corpus (`stores/<project>/<name>.sqlite`), sorted by folder and name.
    public static func storeFiles() throws -> [URL] {
        try require(stores)
        let folders = try FileManager.default.contentsOfDirectory(atPath: stores.path).sorted()
            .map { stores.appendingPathComponent($0) }
        let files = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                .filter { $0.hasSuffix(".sqlite") }.map { folder.appendingPathComponent($0) }
        }
        return try nonEmpty(files, "no .sqlite store", in: stores)
    }

    /// `manifest.json`, parsed.
    public static func manifest() throws -> [String: Any] {
        try require(root)
        let url = root.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CorpusMissing(folder: root.path, wanted: "no manifest.json")
        }
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The manifest's items of one kind ("model", "compiled", "store"); ``CorpusMissing`` when it has none.
    public static func manifestItems(kind: String) throws -> [[String: Any]] {
        let items = try manifest()["items"] as? [[String: Any]] ?? []
        return try nonEmpty(items.filter { $0["kind"] as? String == kind }, "no manifest item of kind \"\(kind)\"",
                            in: root)
    }

    /// Copies a store and its `-wal`/`-shm` companions into a new temporary folder and returns the copy,
    /// so that opening it can never write beside the corpus file; ``CorpusMissing`` when there is no such store
    /// (SQLite would make an empty one of the missing copy).
    public static func copyStore(_ store: URL) throws -> URL {
        let manager = FileManager.default
        guard manager.fileExists(atPath: store.path) else {
            throw CorpusMissing(folder: store.deletingLastPathComponent().path, wanted: "no \(store.lastPathComponent)")
        }
        let folder = try temporaryDirectory()
        for suffix in ["", "-wal", "-shm"] {
            let source = URL(fileURLWithPath: store.path + suffix)
            guard manager.fileExists(atPath: source.path) else { continue }
            let target = folder.appendingPathComponent(source.lastPathComponent)
            try manager.copyItem(at: source, to: target)
            // Corpus files are read-only; SQLite needs to write the -shm of a WAL store it opens.
            try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        }
        return folder.appendingPathComponent(store.lastPathComponent)
    }
}

/// A corpus folder that is missing or holds nothing to test: what a corpus-driven test fails with, rather than run
/// no case and pass.
public struct CorpusMissing: Error, CustomStringConvertible {
    /// The folder that is missing or empty.
    public var folder: String
    /// What it lacks ("no .momd", ...); nil when the folder itself is missing.
    public var wanted: String?

    /// A corpus failure about `folder`.
    public init(folder: String, wanted: String?) {
        self.folder = folder
        self.wanted = wanted
    }

    /// The folder and what it lacks, with where the corpus comes from.
    public var description: String {
        let what = wanted.map { "the corpus is empty: \($0) in \(folder)" } ?? "the corpus is missing: no folder \(folder)"
        return what + " (the tests read ../shared/corpus beside the package, or $CDSTORE_CORPUS)"
    }
}

/// A new empty folder under the system's temporary directory, unique per call. The folders a test process made are
/// removed when it exits (a run makes about a thousand, some with stores of megabytes), unless
/// `$CDSTORE_KEEP_TEST_FILES` is set, to look at what a failing test left.
public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("cdstore-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    TemporaryDirectories.shared.add(url)
    return url
}

/// The folders ``temporaryDirectory()`` made in this process, removed at its exit.
final class TemporaryDirectories: @unchecked Sendable {
    static let shared = TemporaryDirectories()
    private let lock = NSLock()
    private var made: [URL] = []
    private var registered = false

    func add(_ url: URL) {
        let first = lock.withLock {
            made.append(url)
            defer { registered = true }
            return !registered
        }
        if first && ProcessInfo.processInfo.environment["CDSTORE_KEEP_TEST_FILES"] == nil {
            atexit { TemporaryDirectories.shared.removeAll() }
        }
    }

    func removeAll() {
        let folders = lock.withLock { made }
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }
}
