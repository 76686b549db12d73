import CDStore
import Foundation

/// The store a REPL session keeps open across its commands, so that each command does not load the model and
/// open the store again. ``CommandLineRunner/run(_:session:)`` hands it to the command it runs
/// (``StoreOptions/session``), whose ``StoreOptions/openStore(create:announce:readsOnly:)`` asks it first.
///
/// The store is opened by the first command that needs it, writable when the file is (created by the first
/// command that creates stores, as on the command line). No transaction stays open between commands: each
/// write commits when its command finishes, other processes can write while the session waits at its prompt,
/// and the next command sees what they committed.
final class SessionStores: @unchecked Sendable {
    /// The session's `--store`, `--model`, `--model-version`, `--read-only`, `--immutable`, `--busy-timeout`,
    /// `--no-migrate` and `--no-backup`; `.open` and `.model` change the paths.
    private(set) var options: StoreOptions

    private let lock = NSLock()
    private var shared: CDStore?
    /// The file the shared store was opened on, to notice it being replaced or removed between commands.
    private var sharedFile: FileIdentity?
    /// The store the running command opened last, which Ctrl-C interrupts.
    private var running: CDStore?
    /// Whether the shared store was created by the command that is running.
    private var createdByRunningCommand = false

    init(options: StoreOptions) {
        self.options = options
    }

    /// The session's options, bound to this session: what the REPL's own commands (`.tables`, completion) open
    /// the store with.
    var boundOptions: StoreOptions {
        var bound = options
        bound.session = self
        return bound
    }

    /// Uses another store or model from the next command on (`.open`, `.model`).
    func change(storePath: String?? = nil, modelPath: String?? = nil, modelVersion: String?? = nil) {
        if let storePath { options.store = storePath }
        if let modelPath { options.model = modelPath }
        if let modelVersion { options.modelVersion = modelVersion }
        close()
    }

    /// Closes the shared store; the next command opens it again (after `migrate`, which rewrites it).
    func close() {
        lock.withLock {
            shared = nil
            sharedFile = nil
            running = nil
        }
    }

    /// Called before each command.
    func commandStarts() {
        lock.withLock {
            running = nil
            createdByRunningCommand = false
        }
    }

    /// Interrupts the SQL statement of the running command, if any (Ctrl-C).
    func interruptRunningCommand() {
        lock.withLock { running }?.interrupt()
    }

    /// Notes a store a command opened itself (another path than the session's), so that Ctrl-C reaches it too.
    func track(_ store: CDStore) {
        lock.withLock { running = store }
    }

    /// Whether `store` is the shared store and an earlier command opened (or created) it, so that a failing
    /// command must not remove it as a store it created.
    func predates(_ store: CDStore) -> Bool {
        lock.withLock { store === shared && !createdByRunningCommand }
    }

    /// Forgets `store` if it is the shared one (a command that created it failed and removed its files).
    func forget(_ store: CDStore) {
        lock.withLock {
            if store === shared { shared = nil; sharedFile = nil }
        }
    }

    /// The shared store for a command with `command`'s options, or nil when the command names another store or
    /// model, asks for a read-only or immutable open or for no migration, or only reads a store whose model
    /// version differs (it then opens the store itself, read-only, and reads it without migrating it).
    func store(for command: StoreOptions, create: Bool, readsOnly: Bool) throws -> (store: CDStore, isNew: Bool)? {
        guard sameStore(as: command), let path = options.storePath else { return nil }
        let current = FileIdentity(path)
        if let shared = lock.withLock({ sharedFile == current ? shared : nil }) {
            track(shared)
            return (shared, false)
        }
        close()
        var (storeOptions, configuration) = options.libraryOptions(create: create, readOnly: options.readOnly)
        if readsOnly { storeOptions.remove(.migrate) }
        let store: CDStore
        do {
            store = try CDStore(path: path, model: try options.loadModel().map { .file($0) }, options: storeOptions,
                                configuration: configuration)
        } catch let error as CDStoreError where readsOnly && error.code == .modelMismatch {
            return nil
        }
        for warning in store.warnings { Console.warn(warning) }
        lock.withLock {
            shared = store
            sharedFile = FileIdentity(path)
            createdByRunningCommand = store.wasCreated
        }
        track(store)
        return (store, store.wasCreated)
    }

    private func sameStore(as command: StoreOptions) -> Bool {
        guard !command.readOnly, !command.immutable, !command.noMigrate else { return false }
        return Self.samePath(command.storePath, options.storePath)
            && Self.samePath(command.modelPath, options.modelPath) && command.modelVersion == options.modelVersion
            && command.schema == options.schema
    }

    private static func samePath(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }
}

/// A file's device and inode: the same path may name another file after a command replaced or removed it.
private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
