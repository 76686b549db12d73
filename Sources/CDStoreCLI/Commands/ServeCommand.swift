import ArgumentParser
import CDStore
import Foundation

/// `cdstore serve`: browse a store in a web browser, read-only.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Browse a store in a web browser: entities, objects, relationships, the model, history. Read-only.",
        discussion: """
        Opens the store read-only (never writes a byte; --immutable also leaves its -wal and -shm untouched), prints \
        the URL as the first line on standard output, and serves until Ctrl-C or SIGTERM. Pages: / (the store and \
        its entities), /ENTITY (objects in a table, sortable, paged by key, filtered by a predicate in cdstore's \
        NSPredicate syntax), /ENTITY/pPK or /x-coredata://… (one object), /_model (the diagram, with Graphviz \
        installed, and every attribute's rules), /_history (persistent history), /_export/ENTITY?format=ndjson|json|csv \
        (streamed). Every page is JSON too: add .json to the path or send Accept: application/json.

        Entity pages take ?facet=PROPERTY (most common values with counts, each a link that filters; key paths \
        through to-one relationships; dates by :year, :month or :day), ?chart=PROPERTY (a histogram of a number, \
        objects per period of a date, each bar a link to its range) and ?columns=A,B. Links to objects read as \
        their labels (--label). Every query stops at --time-limit and the page says so; the first page counts up \
        to 10,000 objects, with a link to count them all. With --watch, pages show committed changes as they come.

        It listens on 127.0.0.1 unless --host says otherwise (then it warns: anyone who can reach the address can \
        read the store). --port 0 picks a free port.

        Examples:
          cdstore serve --store App.sqlite
          cdstore serve --store App.sqlite --model App.xcdatamodeld --port 0
          cdstore serve --store evidence.sqlite --immutable --port 8081
          cdstore serve --store App.sqlite --watch --label Employee=lastName
          curl -s 'http://127.0.0.1:8080/Employee.json?where=age%20%3E%2030'
        """)

    @Option(name: .long, help: ArgumentHelp("The SQLite store to browse. Default: $CDSTORE_STORE.", valueName: "path"),
            completion: .file())
    var store: String?

    @Option(name: .long, help: ArgumentHelp(
        "The model (.xcdatamodeld, .xcdatamodel, .momd, .mom or cdstore JSON). Default: $CDSTORE_MODEL, else the "
        + "model the store keeps (cdstore's, or Core Data's Z_MODELCACHE).", valueName: "path"), completion: .file())
    var model: String?

    @Option(name: .customLong("model-version"), help: ArgumentHelp(
        "The version of an .xcdatamodeld to use instead of its current version.", valueName: "name"))
    var modelVersion: String?

    @Flag(name: .customLong("read-only"), help: ArgumentHelp("Accepted for symmetry: serve always opens read-only."))
    var readOnly = false

    @Flag(name: .long, help: ArgumentHelp(
        "Read without changing a byte of the store, its -wal or its -shm (SQLite's immutable mode), for evidence copies."))
    var immutable = false

    @Option(name: .long, help: ArgumentHelp(
        "The address to listen on. Anything but a loopback address is warned about.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 8080

    @Option(name: .customLong("time-limit"), help: ArgumentHelp(
        "How long one query may run before the page stops it and says so (counts, sorts, facets, charts).",
        valueName: "ms"))
    var timeLimit = 1000

    @Option(name: .long, help: ArgumentHelp(
        "The attribute whose value names an entity's objects in links (repeatable). Default: the entity's uniqueness "
        + "constraint, else a name- or title-like String attribute, else its first String attribute.",
        valueName: "Entity=property"))
    var label: [String] = []

    @Flag(name: .long, help: ArgumentHelp(
        "Show changes other programs commit while a page is open (Server-Sent Events and one script of the server's own)."))
    var watch = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
        guard (1...600_000).contains(timeLimit) else {
            throw ValidationError("--time-limit must be from 1 to 600000 milliseconds, not \(timeLimit)")
        }
        _ = try labels()
        if watch && immutable {
            throw ValidationError("--watch and --immutable exclude each other: an immutable store does not change")
        }
    }

    /// `--label Entity=property` options as a dictionary.
    func labels() throws -> [String: String] {
        var labels: [String: String] = [:]
        for text in label {
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--label takes Entity=property, not '\(text)'")
            }
            labels[parts[0]] = parts[1]
        }
        return labels
    }

    /// Sentences about `--label` entities or attributes the model lacks.
    static func unknownLabels(_ labels: [String: String], in model: ManagedObjectModel) -> [String] {
        labels.sorted { $0.key < $1.key }.compactMap { entityName, property in
            guard let entity = model.entity(named: entityName) else { return "--label: no entity '\(entityName)' in the model" }
            let known = model.subtree(of: entity).contains { model.attribute(property, of: $0) != nil }
            return known ? nil : "--label: \(entityName) has no attribute '\(property)'"
        }
    }

    /// Run by the lean `cdstore` (``CommandLineRunner`` hands the command to `cdstore-full` before this),
    /// and in a REPL session, where a server that runs until Ctrl-C has no place.
    func run() throws {
        throw CLIError.usage("serve runs until Ctrl-C, so it is not a REPL statement: run `cdstore serve` in a shell")
    }

    /// Serves the store with `server` (the web server `cdstore-full` links) until SIGINT or SIGTERM.
    func serve(with server: any StoreServing) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let named = store ?? environment["CDSTORE_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw CLIError.usage("no store: give --store PATH or set CDSTORE_STORE")
        }
        let path = try StoreOptions.appStorePath(named)
        let modelPath = model ?? environment["CDSTORE_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        // Errors go to the one table of exit statuses (``ExitStatus/init(for:)``).
        let model = try modelPath.map {
            try ModelFile(contentsOf: $0, version: modelVersion, readers: Program.current.modelReaders)
        }
        let opened = try CDStore(path: path, model: model.map { .file($0) },
                                 options: immutable ? [.readOnly, .immutable] : [.readOnly])
        for warning in opened.warnings { Console.warn(warning) }
        let labels = try labels()
        if let problem = Self.unknownLabels(labels, in: opened.model).first { throw CLIError.usage(problem) }
        let settings = ServeSettings(timeLimitMilliseconds: timeLimit, labels: labels, watch: watch)
        if !server.isLoopback(host) {
            Console.warn("--host \(host) is not a loopback address: anyone who can reach it can read the whole store")
        }
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let storeModel = opened.model
        let diagram: (@Sendable () throws -> [UInt8])? = Graphviz.executable == nil ? nil : { @Sendable () throws -> [UInt8] in
            Array(try Graphviz.svg(try storeModel.diagram().dot()))
        }
        Task {
            do {
                try await server.serve(opened, host: host, port: port, modelDiagram: diagram, settings: settings) { url in
                    // Unbuffered: a script reads the URL while the server runs.
                    FileHandle.standardOutput.write(Data((url + "\n").utf8))
                }
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = outcome.error {
            throw CLIError(status: .cannotOpen, message: "cannot serve on \(host):\(port): \(error)")
        }
    }
}

/// What the server task ended with, read after it signalled.
private final class ServeOutcome: @unchecked Sendable {
    var error: Error?
}
