import Foundation

/// The shared corpus of real Core Data models, compiled models and stores (`../shared/corpus`, beside the
/// package root), for tests. The corpus is read-only: copy a store with ``copyStore(_:)`` before opening it.
public enum Corpus {
    /// The package root, found from this file's path so tests work from any working directory.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CDStoreTestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()

    /// `../shared`, beside the package root.
    public static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    /// `../shared/corpus`.
    public static let root: URL = shared.appendingPathComponent("corpus")
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

    /// Whether the corpus is present (it is on every developer machine and in CI).
    public static var isAvailable: Bool { FileManager.default.fileExists(atPath: models.path) }

    /// Every `.xcdatamodeld` bundle of the corpus, sorted by folder name.
    public static func modelBundles() throws -> [URL] {
        try children(of: models).filter { $0.pathExtension == "xcdatamodeld" }
    }

    /// The `.xcdatamodel` version folders of `bundle`, sorted by name.
    public static func versions(of bundle: URL) throws -> [URL] {
        try children(of: bundle).filter { $0.pathExtension == "xcdatamodel" }
    }

    /// Every version of every bundle of the corpus (the `.xcdatamodel` folders).
    public static func allModelVersions() throws -> [URL] {
        try modelBundles().flatMap { try versions(of: $0) }
    }

    /// `manifest.json`, parsed.
    public static func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("manifest.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The manifest's items of one kind ("model", "compiled", "store").
    public static func manifestItems(kind: String) throws -> [[String: Any]] {
        let items = try manifest()["items"] as? [[String: Any]] ?? []
        return items.filter { $0["kind"] as? String == kind }
    }

    /// Copies a store and its `-wal`/`-shm` companions into a new temporary folder and returns the copy,
    /// so that opening it can never write beside the corpus file.
    public static func copyStore(_ store: URL) throws -> URL {
        let folder = try temporaryDirectory()
        let manager = FileManager.default
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

    private static func children(of folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0) }
    }
}

/// A new empty folder under the system's temporary directory, unique per call.
public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("cdstore-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
