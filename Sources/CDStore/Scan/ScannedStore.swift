import Foundation

/// A Core Data or SwiftData store a ``StoreScanner`` found, or a file it could not read, with what it knows of it.
///
/// A store found in a folder is read where it lies, without changing a byte of it (SQLite's `immutable=1`, or a
/// private copy when its `-wal` holds data); one found in a backup is read from a private copy of its entry and
/// of its `-wal` entry, and carries the backup's ``domain`` and ``relativePath``.
public struct ScannedStore: Sendable, Equatable {
    /// The store file (for a store in a backup, the file the backup keeps it in: `<backup>/ab/ab12…`).
    public var path: String
    /// The bundle identifier of the app (or the identifier of the app group) whose container holds the store,
    /// when the folder layout says it: a simulator's or device's container (its
    /// `.com.apple.mobile_container_manager.metadata.plist`), an app group, a macOS `Containers/<id>` or
    /// `Group Containers/<id>` folder, or a backup's domain. Nil elsewhere.
    public var app: String?
    /// The backup domain the store belongs to (`AppDomain-com.example.app`); nil outside a backup.
    public var domain: String?
    /// The store's path inside its backup domain (`Library/Application Support/Model.sqlite`); nil outside a
    /// backup.
    public var relativePath: String?
    /// What wrote the store and what it keeps besides the app's data, in words: `Core Data`, `SwiftData`,
    /// `Core Data + CloudKit mirroring, persistent history on`. Nil when the file could not be read
    /// (see ``problems``).
    public var kind: String?
    /// Where the model the store was read with comes from: `coreDataCache` (Core Data's `Z_MODELCACHE`),
    /// `cdstoreCache` (the model cdstore keeps in stores it made) or `inferredFromTables` (the store carries no
    /// model). Nil when the file could not be read.
    public var modelSource: String?
    /// The number of objects of exactly each concrete entity (objects of sub-entities count under their own).
    public var entities: [String: Int]
    /// Every object of the store: the sum of ``entities``.
    var objects: Int { entities.values.reduce(0, +) }
    /// The bytes of the store file and of its `-wal`.
    public var size: Int64
    /// When the store file or its `-wal` last changed, whichever is later.
    public var lastModified: Date?
    /// What is wrong with the store or kept it from being read: a damaged or unreadable file, a store that
    /// carries no model, a model cache that does not match the store.
    public var problems: [String]

    /// The backup file holding the store's `-wal` (a backup keeps it as an entry of its own); nil when the
    /// `-wal`, if any, sits beside ``path``.
    var walPath: String?

    /// A store found at `path`, before it is read.
    init(path: String, app: String?, domain: String? = nil, relativePath: String? = nil, walPath: String? = nil) {
        self.path = path
        self.app = app
        self.domain = domain
        self.relativePath = relativePath
        self.walPath = walPath
        kind = nil
        modelSource = nil
        entities = [:]
        size = 0
        lastModified = nil
        problems = []
    }

    /// The store's file name as the app named it: the last part of ``relativePath`` in a backup, else of ``path``.
    var fileName: String {
        ((relativePath ?? path) as NSString).lastPathComponent
    }

    /// The `-wal` file read with the store: the backup's entry, or the file beside ``path``.
    var companionWAL: String { walPath ?? path + "-wal" }
}
