import ArgumentParser
import CDStore
import Foundation

/// `--model`, `--model-version`, `--schema` and `--store` as the `model` subcommands take them: where the model comes from.
/// A model file (the argument, `--model`) or the model cached in a store (`--store`), never both; with neither,
/// `$CDSTORE_MODEL`, then the model cached in `$CDSTORE_STORE`.
struct ModelSourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The model: an .xcdatamodeld, .xcdatamodel, contents file, .momd, .mom or cdstore JSON model "
        + "(e.g. --model App.xcdatamodeld). Default: $CDSTORE_MODEL.",
        valueName: "path"), completion: .file())
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp(
        "The version of an .xcdatamodeld or .momd to use instead of its current version (e.g. --model-version \"App 3\").",
        valueName: "name"))
    var modelVersion: String?

    @Option(name: .long, help: ArgumentHelp(
        "SwiftData sources with several schemas: the one to use, named by the declaration holding its Schema([…]) "
        + "or ModelContainer(for: …), or a VersionedSchema (e.g. --schema widgetContainer).",
        valueName: "name"))
    var schema: String?

    @Option(name: .long, help: ArgumentHelp(
        "Use the model cached in this store instead of a model file: the one cdstore keeps, or Core Data's "
        + "Z_MODELCACHE (e.g. --store App.sqlite). The store is only read.",
        valueName: "path"), completion: .file())
    var store: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Read the --store without changing a byte of it, its -wal or its -shm (SQLite's immutable mode), e.g. "
        + "for an evidence copy: --store Evidence.sqlite --immutable."))
    var immutable = false

    // Accepted because every command takes it (`cdstore --read-only model show` moves it here); a store is only
    // ever read by these commands.
    @Flag(name: .customLong("read-only"), help: ArgumentHelp("The store is always read-only here.", visibility: .hidden))
    var readOnly = false

    @Option(name: .customLong("busy-timeout"), help: ArgumentHelp(
        "How long to wait, in milliseconds, for another process that is writing the store (default 5000).",
        valueName: "ms", visibility: .hidden))
    var busyTimeout: Int = 5000

    /// Where a model is read from.
    enum Source: Equatable {
        /// A model file or folder.
        case file(String)
        /// The model cached in a store.
        case store(String)
    }

    /// Where the model comes from, given the subcommand's model argument.
    func source(argument: String?) throws -> Source {
        let named = argument ?? model
        if let named, let store {
            throw CLIError.usage("give a model (\(named)) or --store \(store), not both")
        }
        if let named { return .file(named) }
        if let store { return .store(store) }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CDSTORE_MODEL"], !path.isEmpty { return .file(path) }
        if let path = environment["CDSTORE_STORE"], !path.isEmpty { return .store(path) }
        throw CLIError.usage("no model: give it as an argument, with --model or --store, or in CDSTORE_MODEL or "
                             + "CDSTORE_STORE")
    }

    /// Loads the model from `source`, printing its warnings; `version` picks a version of a model file.
    func load(_ source: Source, version: String?) throws -> ModelFile {
        let file: ModelFile
        switch source {
        case .file(let path):
            file = try ModelFile(contentsOf: path, version: version, schema: schema, readers: Program.current.modelReaders)
        case .store(let path):
            file = try ModelFile(cachedInStoreAt: try StoreOptions.appStorePath(path),
                                 busyTimeout: Double(max(0, busyTimeout)) / 1000, immutable: immutable)
        }
        for warning in file.warnings { Console.warn(warning) }
        return file
    }

    /// Loads every version of the model from `source` (a store's cache is one version), printing their warnings.
    func loadVersions(_ source: Source) throws -> [ModelFile] {
        guard case .file(let path) = source else { return [try load(source, version: nil)] }
        let versions = try ModelFile.versions(at: path, current: modelVersion, schema: schema,
                                              readers: Program.current.modelReaders)
        for warning in versions.flatMap(\.warnings) { Console.warn(warning) }
        return versions
    }
}
