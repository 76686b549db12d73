import ArgumentParser
import CDStore
import Foundation

/// `--model`, `--model-version`, `--schema`, `--store` and `--read-only`: accepted by every command, before or after its name.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The model: an .xcdatamodeld bundle, one .xcdatamodel, its contents file, or a cdstore JSON model. "
        + "Default: $CDSTORE_MODEL; a store cdstore made carries its model, so none is needed to read it.",
        valueName: "path"), completion: .file())
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp(
        "The version of an .xcdatamodeld to use instead of its current version (e.g. \"Model 2\").",
        valueName: "name"))
    var modelVersion: String?

    @Option(name: .long, help: ArgumentHelp(
        "SwiftData sources with several schemas: the one to use, named by the declaration holding its Schema([…]) "
        + "or ModelContainer(for: …), or a VersionedSchema (e.g. --schema widgetContainer).",
        valueName: "name"))
    var schema: String?

    @Option(name: .long, help: ArgumentHelp(
        "The SQLite store file; created (empty, laid out for --model) when missing, except by delete, export, info and verify. "
        + "@APP (or @APP/FILE) names an app's most recently changed store under $CDSTORE_SCAN_PATH (see cdstore scan). "
        + "Default: $CDSTORE_STORE.",
        valueName: "path"), completion: .file())
    var store: String?

    @Flag(name: .customLong("read-only"), help: "Open the store without writing anything.")
    var readOnly = false

    @Flag(name: .long, help: ArgumentHelp(
        "Read without changing a byte of the store, its -wal or its -shm (SQLite's immutable mode; a store whose -wal "
        + "holds data is read from a private copy). For evidence copies and read-only media; implies --read-only."))
    var immutable = false

    @Option(name: .customLong("busy-timeout"), help: ArgumentHelp(
        "How long to wait, in milliseconds, for another process that holds the store's lock (default 5000; 0 fails at once).",
        valueName: "ms"))
    var busyTimeout: Int = 5000

    // Hidden in every command's help (documented by `cdstore --help` and `cdstore migrate --help`).
    @Flag(name: .customLong("no-migrate"), help: ArgumentHelp(
        "Refuse a store saved with another model version (exit status 3, with the differences) instead of migrating it.",
        visibility: .hidden))
    var noMigrate = false

    @Flag(name: .customLong("no-backup"), help: ArgumentHelp(
        "Do not copy the store to STORE.backup-<timestamp> before migrating it.", visibility: .hidden))
    var noBackup = false

    /// The REPL session whose open store commands share (``SessionStores``); nil for a command of its own.
    /// Not an option: ``CommandLineRunner/run(_:session:)`` sets it on the command it parsed.
    var session: SessionStores?

    private enum CodingKeys: String, CodingKey {
        case model, modelVersion, schema, store, readOnly, immutable, busyTimeout, noMigrate, noBackup
    }

    /// The model path given by option or environment.
    var modelPath: String? { model ?? ProcessInfo.processInfo.environment["CDSTORE_MODEL"].flatMap { $0.isEmpty ? nil : $0 } }

    /// The store path given by option or environment.
    var storePath: String? { store ?? ProcessInfo.processInfo.environment["CDSTORE_STORE"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Loads the model named by `--model`/`$CDSTORE_MODEL`, printing its warnings; nil when none is named.
    func loadModel() throws -> ModelFile? {
        guard let path = modelPath else { return nil }
        let file = try ModelFile(contentsOf: path, version: modelVersion, schema: schema,
                                 readers: Program.current.modelReaders)
        for warning in file.warnings { Console.warn(warning) }
        return file
    }

    /// Loads the model, which must be named.
    func requireModel() throws -> ModelFile {
        guard let file = try loadModel() else {
            throw CLIError.usage("no model: give --model PATH or set CDSTORE_MODEL")
        }
        return file
    }

    /// The library's options and configuration for these command-line options.
    func libraryOptions(create: Bool, readOnly: Bool) -> (CDStore.Options, CDStore.Configuration) {
        var options: CDStore.Options = []
        if readOnly || immutable { options.insert(.readOnly) }
        if create && !readOnly && !immutable { options.insert(.create) }
        if !noMigrate { options.insert(.migrate) }
        if immutable { options.insert(.immutable) }
        // One command, one connection: a reader pool would only open more of them.
        let configuration = CDStore.Configuration(busyTimeout: Double(max(0, busyTimeout)) / 1000, maximumReaderCount: 0,
                                                  backupBeforeMigrating: !noBackup)
        return (options, configuration)
    }

    /// Opens the store, creating it when missing unless `create` is false; `announce` says so on stderr (for
    /// commands that only read, where a new empty store may well be a mistyped path). Commands that only read
    /// (`readsOnly`) open an existing store read-only, so they never migrate or otherwise change it: a store
    /// saved with an older model version is read with that version. `strict` makes a missing external-data file
    /// an error instead of a null value.
    ///
    /// In the REPL, the ``session``'s store is used when the command names it.
    func openStore(create: Bool = true, announce: Bool = false, readsOnly: Bool = false,
                   strict: Bool = false) throws -> CDStore {
        guard let path = storePath else {
            throw CLIError.usage("no store: give --store PATH or set CDSTORE_STORE")
        }
        // A strict read opens its own store: the session's reads missing external data as null.
        if !strict, let (store, isNew) = try session?.store(for: self, create: create, readsOnly: readsOnly) {
            if isNew && announce { Console.note("created a new store at \(path)") }
            return store
        }
        let readOnly = self.readOnly || immutable || (readsOnly && FileManager.default.fileExists(atPath: path))
        var (options, configuration) = libraryOptions(create: create, readOnly: readOnly)
        configuration.readsMissingExternalDataAsNull = !strict
        let store = try CDStore(path: path, model: try loadModel().map { .file($0) }, options: options,
                                configuration: configuration)
        for warning in store.warnings { Console.warn(warning) }
        if store.wasCreated && announce { Console.note("created a new store at \(path)") }
        session?.track(store)
        return store
    }

    /// Runs `body` with the opened store. When the store was created for this command and the command fails,
    /// the new files are removed again, so a failed first insert leaves nothing behind.
    func withStore<T>(create: Bool = true, announce: Bool = false, readsOnly: Bool = false, strict: Bool = false,
                      _ body: (CDStore) throws -> T) throws -> T {
        let store = try openStore(create: create, announce: announce, readsOnly: readsOnly, strict: strict)
        let warned = Set(store.warnings.map(\.message))
        do {
            let result = try body(store)
            for warning in store.warnings where warning.code == .missingExternalData && !warned.contains(warning.message) {
                Console.warn(warning.message + " (--strict makes this an error)")
            }
            return result
        } catch {
            if store.wasCreated, session?.predates(store) != true {
                session?.forget(store)
                CDStore.destroyStore(at: store.path)
            }
            throw error
        }
    }
}

/// `--format`, for every command that prints records.
struct FormatOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Output format: table, line (each record expanded, one key and value a line), json, ndjson or csv. "
        + "Default: table on a terminal, ndjson otherwise (one object per line).",
        valueName: "format"))
    var format: OutputFormat?

    @Flag(name: .customLong("no-headers"), help: "Leave out the header row (csv) or the header and its rule (table).")
    var noHeaders = false

    var resolved: OutputFormat { format ?? .default }
}

/// Messages for people, on standard error. Errors of the library name their option through ``InputFlags``.
enum Console {
    /// Where the REPL is in its input (`line 3`, `setup.txt:2`), written before error messages; nil outside
    /// the REPL.
    nonisolated(unsafe) static var location: String?

    static func warn(_ message: String) {
        write("warning: " + message)
    }

    /// A library warning, with the option that gives its input named where the library names one (`--model`).
    static func warn(_ warning: CDStoreWarning) {
        warn(warning.code == .modelInferred ? warning.message + ", writing needs --model" : warning.message)
    }

    static func note(_ message: String) {
        write("note: " + message)
    }

    static func error(_ message: String) {
        write("error: " + (location.map { $0 + ": " } ?? "") + message)
    }

    /// Writes `line` and a line break. What commands printed to standard output before is flushed first, so that
    /// both streams read in order when they go to the same place (a script's `2>&1`).
    static func write(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
