import ArgumentParser
import CDStore
import CDStoreMCP
import Foundation

/// `cdstore mcp`: a store, or the stores a scan finds, for AI assistants, as a Model Context Protocol server on
/// standard input and output.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve a store, or the stores a scan finds, to AI assistants over the Model Context Protocol (stdio).",
        discussion: """
        Speaks MCP (protocol version 2025-06-18) on standard input and output: newline-delimited JSON-RPC 2.0, as \
        assistants start local servers. Tools: describe_store, describe_model, fetch, count, project, get_object, \
        history; with --allow-writes also insert, update and delete (each one transaction, validated, dry runs \
        unless the call sets dry_run false). Resources: cdstore://model and cdstore://entity/NAME.

        Without --allow-writes the store is opened read-only and no tool can write. Results are bounded (50 objects \
        by default, 500 at most, 256 KiB) with a cursor to go on. Diagnostics go to standard error.

        --scan ROOT… serves the stores a scan of those folders finds (as cdstore scan finds them: simulators, app \
        containers, app groups), read-only: a list_stores tool lists them, and every other tool takes a store \
        argument, a path list_stores gives or an app's id (@com.example.app, or @com.example.app/File.sqlite). No \
        other file can be named. Each store is read as scan reads it (immutable, or a private copy when its -wal \
        holds data), changing no byte under the roots, with the model it keeps; --allow-writes, --model and \
        --store do not combine with it.

        Examples:
          cdstore mcp --store App.sqlite
          cdstore mcp --store App.sqlite --model App.xcdatamodeld --allow-writes
          cdstore mcp --scan ~/Library/Developer/CoreSimulator/Devices
          cdstore mcp --scan ~/Library/Containers "$HOME/Library/Group Containers"
          claude mcp add app-data -- cdstore mcp --store /path/to/App.sqlite
          claude mcp add sims -- cdstore mcp --scan ~/Library/Developer/CoreSimulator
        """)

    @Option(name: .long, help: ArgumentHelp("The SQLite store to serve. Default: $CDSTORE_STORE.", valueName: "path"),
            completion: .file())
    var store: String?

    @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
        "Serve, read-only, every store a scan of these folders, backups or files finds, instead of one store.",
        valueName: "root"), completion: .directory)
    var scan: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "The model (.xcdatamodeld, .xcdatamodel, .momd, .mom or cdstore JSON). Default: $CDSTORE_MODEL, else the "
        + "model the store keeps.", valueName: "path"), completion: .file())
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp(
        "The version of an .xcdatamodeld to use instead of its current version.", valueName: "name"))
    var modelVersion: String?

    @Flag(name: .customLong("allow-writes"), help: ArgumentHelp(
        "Offer insert, update and delete, and open the store for writing."))
    var allowWrites = false

    @Flag(name: .customLong("read-only"), help: ArgumentHelp("Accepted for symmetry: the default without --allow-writes."))
    var readOnly = false

    @Flag(name: .long, help: ArgumentHelp(
        "Read without changing a byte of the store, its -wal or its -shm (SQLite's immutable mode)."))
    var immutable = false

    func validate() throws {
        if allowWrites && (readOnly || immutable) {
            throw ValidationError("--allow-writes cannot be combined with --read-only or --immutable")
        }
        guard !scan.isEmpty else { return }
        if store != nil { throw ValidationError("--scan serves the stores it finds: give --scan or --store, not both") }
        if allowWrites {
            throw ValidationError("--scan serves the stores it finds read-only (they belong to apps that may be "
                                  + "running); to write, serve one store: --store PATH --allow-writes")
        }
        if model != nil || modelVersion != nil {
            throw ValidationError("--scan reads each store with the model it keeps: --model does not combine with it")
        }
    }

    func run() throws {
        if !scan.isEmpty {
            for root in scan where !FileManager.default.fileExists(atPath: (root as NSString).expandingTildeInPath) {
                throw CLIError.usage("--scan: no such file or folder: \(root)")
            }
            MCPServer(scanning: scan).run()
            return
        }
        let environment = ProcessInfo.processInfo.environment
        guard let named = store ?? environment["CDSTORE_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CLIError.usage("no store: give --store PATH or set CDSTORE_STORE")
        }
        let path = try StoreOptions.appStorePath(named)
        let modelPath = model ?? environment["CDSTORE_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        let options: CDStore.Options = allowWrites ? [] : immutable ? [.readOnly, .immutable] : [.readOnly]
        let opened = try CDStore(path: path, model: modelPath.map { .path($0, version: modelVersion) }, options: options)
        for warning in opened.warnings { Console.warn(warning) }
        MCPServer(store: opened, allowWrites: allowWrites).run()
    }
}
