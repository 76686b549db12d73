import CDStore
import Foundation

/// A REPL session: reads statements — cdstore commands without the `cdstore` (`fetch Employee --limit 5`) and
/// dot-commands (`.help`, `.format csv`, …) — and runs each on the session's store and model.
///
/// Commands run through the same command types as on the command line (``CommandLineRunner``), with the
/// session's `--store`, `--model` and `--model-version` added, and share one open store (``SessionStores``).
/// Not at a terminal, errors name the line they come from (`error: line 3: …`, in `.read` files
/// `error: line 2: setup.txt:5: …`), and the session fails (exit status 1) when any statement failed.
final class REPLSession {
    /// The session's store and model, and the store open across commands.
    let stores: SessionStores
    /// Where command output goes, and the timer.
    let output = SessionOutput()
    /// The format of commands that print records and give no `--format` (`.format`); nil for their own default.
    var format: OutputFormat?
    /// Whether CSV and table output have a header row (`.headers`).
    var headers = true
    /// Whether statements come from a terminal: no line numbers in errors, Ctrl-C interrupts.
    let isInteractive: Bool
    /// Stop at the first failing statement (`--bail`).
    let bail: Bool
    /// Ctrl-C handling, at a terminal.
    var interrupts: InterruptHandler?
    /// How many statements failed.
    private(set) var failures = 0

    /// Where the statement being run came from, outermost first (`line 3`, `setup.txt:5`).
    private var locations: [String] = []
    /// Set by `.quit`, and by a failure under `--bail`: no more statements run.
    private var stopped = false
    private var cachedModel: ManagedObjectModel?
    /// The files `.read` is reading, outermost first.
    private var filesBeingRead: [String] = []

    static let maximumReadDepth = 16

    /// A session on the store and model of `options` (the `repl` command's).
    init(options: StoreOptions, interactive: Bool, bail: Bool = false) {
        stores = SessionStores(options: options)
        isInteractive = interactive
        self.bail = bail
    }

    /// Whether the session failed: a statement failed and statements did not come from a terminal.
    var failed: Bool { failures > 0 && !isInteractive }

    // MARK: - Reading statements

    /// Runs the statements `reader` gives until the end of its input or `.quit`.
    func run(_ reader: LineReader) {
        var buffer = StatementBuffer()
        var number = 0
        while !stopped {
            switch reader.next(prompt: buffer.prompt, pending: buffer.text) {
            case .end:
                finish(&buffer, location: isInteractive ? nil : "line \(buffer.firstLine)")
                return
            case .interrupted:
                buffer.reset()
            case .line(let line):
                number += 1
                guard let statement = buffer.add(line, number: number) else { continue }
                reader.remember(statement)
                run(statement, location: isInteractive ? nil : "line \(buffer.firstLine)")
            }
        }
    }

    /// Runs the statements of the file at `path` (`.read`).
    func runFile(_ path: String) throws {
        let file = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        guard !filesBeingRead.contains(file) else {
            throw CLIError.input("\(path) is already being read (a .read loop)")
        }
        guard filesBeingRead.count < Self.maximumReadDepth else {
            throw CLIError.input(".read files nest more than \(Self.maximumReadDepth) deep")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw CLIError.input("cannot read \(path): \(reason)")
        }
        filesBeingRead.append(file)
        defer { filesBeingRead.removeLast() }
        var lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        var buffer = StatementBuffer()
        // Ctrl-C during one of its statements abandons the file (and the files reading it).
        func abandoned() -> Bool { stopped || interrupts?.wasInterrupted == true }
        for (index, line) in lines.enumerated() where !abandoned() {
            let line = line.hasSuffix("\r") ? String(line.dropLast()) : line
            guard let statement = buffer.add(line, number: index + 1) else { continue }
            run(statement, location: "\(path):\(buffer.firstLine)")
        }
        if !abandoned() { finish(&buffer, location: "\(path):\(buffer.firstLine)") }
    }

    /// At the end of input: a statement left open is an error.
    private func finish(_ buffer: inout StatementBuffer, location: String?) {
        guard !buffer.isEmpty else { return }
        let text = buffer.reset()
        inLocation(location) {
            do {
                _ = try CommandLineSplitter.split(text)
            } catch {
                Console.error("\(error) at the end of the input")
            }
        }
        countFailure()
    }

    // MARK: - Running statements

    /// Runs one statement read at `location`.
    func run(_ statement: String, location: String?) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return }
        let isDotCommand = trimmed.hasPrefix(".")
        var succeeded = false
        inLocation(location) {
            output.run(timed: !isDotCommand) {
                stores.commandStarts()
                let body = { succeeded = isDotCommand ? self.runDotCommand(trimmed) : self.runCommand(trimmed) }
                if let interrupts { interrupts.run(body) } else { body() }
            }
        }
        if !succeeded { countFailure() }
    }

    private func countFailure() {
        failures += 1
        if bail { stopped = true }
    }

    /// Ends the session after the statement running (`.quit`).
    func stop() {
        stopped = true
    }

    private func inLocation(_ location: String?, _ body: () -> Void) {
        if let location { locations.append(location) }
        let saved = Console.location
        Console.location = locations.isEmpty ? nil : locations.joined(separator: ": ")
        body()
        Console.location = saved
        if location != nil { locations.removeLast() }
    }

    /// Runs a cdstore command; returns whether it succeeded.
    private func runCommand(_ text: String) -> Bool {
        let arguments: [String]
        do {
            arguments = try CommandLineSplitter.split(text)
        } catch {
            Console.error("\(error)")
            return false
        }
        var full = arguments.first == "cdstore" ? Array(arguments.dropFirst()) : arguments
        guard let command = full.first,
              command != "repl", CommandCatalog.shared.commands[command] != nil || command.hasPrefix("-") else {
            let name = full.first ?? ""
            Console.error(name == "repl" ? "the REPL is already running" : "unknown command '\(name)'; try .help")
            return false
        }
        // `help COMMAND`, `--help` and `--version` take none of the session's options.
        if command != "help" && !command.hasPrefix("-") { full += sessionArguments(for: full) }
        let status = CommandLineRunner.run(full, session: stores)
        // These write the store without the session's connection, which must then read it anew.
        if command == "migrate" || command == "seed" {
            stores.close()
            cachedModel = nil
        }
        return status == 0
    }

    /// The options the session adds to `arguments` (a command with its arguments): its store and model, and
    /// `.format` and `.headers` for commands that print records.
    private func sessionArguments(for arguments: [String]) -> [String] {
        func given(_ option: String) -> Bool { arguments.contains { $0 == option || $0.hasPrefix(option + "=") } }
        var added: [String] = []
        let options = stores.options
        if let path = options.storePath, !given("--store"), arguments.first != "model" { added += ["--store", path] }
        // `model … --store S` reads the store's model; the session's model would conflict with it.
        let readsStoreModel = arguments.first == "model" && given("--store")
        if let path = options.modelPath, !given("--model"), !readsStoreModel { added += ["--model", path] }
        if let version = options.modelVersion, !given("--model-version") { added += ["--model-version", version] }
        if let schema = options.schema, !given("--schema") { added += ["--schema", schema] }
        guard arguments.first == "fetch" || arguments.first == "project" else { return added }
        if let format, !given("--format") { added += ["--format", format.rawValue] }
        if !headers && [.table, .csv].contains(effectiveFormat(arguments)) && !given("--no-headers") {
            added.append("--no-headers")
        }
        return added
    }

    /// The format a command prints records in: its `--format`, else the session's, else the default for where the
    /// output goes.
    private func effectiveFormat(_ arguments: [String]) -> OutputFormat? {
        for (index, argument) in arguments.enumerated() {
            if argument.hasPrefix("--format=") { return OutputFormat(rawValue: String(argument.dropFirst(9))) }
            if argument == "--format", index + 1 < arguments.count {
                return OutputFormat(rawValue: arguments[index + 1])
            }
        }
        // Commands run with standard output already redirected (`.output`), so the default sees where it goes.
        return format ?? .default
    }

    // MARK: - The model

    /// The session's model, for completion; nil when there is none yet (no --model and no store).
    var model: ManagedObjectModel? {
        if cachedModel == nil { cachedModel = quietModel() }
        return cachedModel
    }

    /// The model for completion, read without printing warnings in the middle of the line being typed.
    private func quietModel() -> ManagedObjectModel? {
        let options = stores.options
        if let path = options.modelPath {
            return try? ModelFile(contentsOf: path, version: options.modelVersion, schema: options.schema,
                                  readers: Program.current.modelReaders).model
        }
        guard let path = options.storePath, FileManager.default.fileExists(atPath: path) else { return nil }
        return try? ModelFile(cachedInStoreAt: path).model
    }

    /// Forgets the model read for completion (after `.open` and `.model`).
    func modelChanged() {
        cachedModel = nil
    }

    /// The session's model: the open store's, else the one `--model` names, else the store's own. Throws, saying
    /// why, when there is none.
    func loadModel() throws -> ManagedObjectModel {
        let options = stores.boundOptions
        if let path = options.storePath, FileManager.default.fileExists(atPath: path) {
            return try options.withStore(create: false, readsOnly: true) { $0.model }
        }
        if let path = options.modelPath {
            return try ModelFile(contentsOf: path, version: options.modelVersion, schema: options.schema,
                                 readers: Program.current.modelReaders).model
        }
        if let path = options.storePath { throw CDStoreError(.cannotOpen, "no store at \(path)") }
        throw CLIError.usage("no model: start the session with --model or --store, or use .open or .model")
    }

    /// Completions for `word` after `before` (the statement's text before it).
    func completions(for word: String, after before: String) -> REPLCompletion.Result {
        REPLCompletion(model: model).complete(word, after: before)
    }
}
