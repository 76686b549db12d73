import CDStore
import Foundation

/// The REPL's dot-commands: the session's settings and a look at its model, as sqlite3's shell has them.
extension REPLSession {
    static let helpText = """
        Type cdstore commands without "cdstore"; the session's --store, --model and --model-version are added:
          fetch Employee --where "age > 30" --sort -age --limit 5
          count Employee --where "department.name == 'R&D'"
          insert Employee firstName=Ann lastName=Lee employeeNumber=7
          project Employee --properties "department.name,average:salary" --group-by department.name
          help fetch                every option of a command, with examples
        A statement goes on over several lines (prompt "   ...>") while a quote, or a ( [ { outside quotes, is open;
        text in ( ) [ ] { } is taken as it is: count Employee --where (age > 50 AND isActive == YES)

        .entities                 the model's entities, with how many objects each has (sub-entities included)
        .schema [ENTITY…]         the attributes and relationships of the model, or of these entities
        .format [FORMAT]          the format of fetch and project without --format: table, line, json, ndjson or csv
        .mode [table|line|auto]   how tables print: as tables, each record expanded (one "key  value" line per
                                  attribute), or auto (default): expanded when the table is wider than the terminal
        .headers on|off           header rows in table and csv output (default on)
        .timer on|off             each command's run time on stderr ("Run Time: real 0.012 user … sys …")
        .output [FILE|stdout]     send command output to FILE (emptied first), or back to standard output
        .open [STORE]             use another store from the next command on (created by the first write)
        .model [PATH [VERSION]]   use another model (.model none: the store's own); without PATH, show it
        .read FILE                run the statements in FILE; their errors say FILE:LINE
        .watch [ENTITY…] [--where PREDICATE]
                                  print the changes other processes commit to the store until Ctrl-C
        .help                     this text
        .quit, .exit              leave (or Ctrl-D)

        Tab completes commands, options, entities, key paths (department.na → department.name) and file names.
        Ctrl-C abandons the line being typed, or interrupts the running command (its changes are rolled back).
        History: $CDSTORE_HISTORY, else ~/.cdstore_history (--no-history keeps none).
        Piped in (cdstore repl < script.txt), errors say their line (error: line 3: …), the exit status is 1 if
        any statement failed, and --bail stops at the first failure.
        """

    /// Runs a dot-command line; returns whether it succeeded.
    func runDotCommand(_ line: String) -> Bool {
        do {
            let words = try CommandLineSplitter.split(line)
            let arguments = Array(words.dropFirst())
            switch words.first ?? "" {
            case ".quit", ".exit": stop()
            case ".help": print(Self.helpText)
            case ".entities": try printEntities()
            case ".schema": try printSchema(arguments)
            case ".format": try setFormat(arguments)
            case ".mode": try setMode(arguments)
            case ".headers": headers = try onOrOff(arguments, usage: ".headers on|off")
            case ".timer": output.timer = try onOrOff(arguments, usage: ".timer on|off")
            case ".output":
                guard arguments.count <= 1 else { throw CLIError.usage("usage: .output [FILE|stdout]") }
                try output.redirect(to: arguments.first.flatMap { $0 == "stdout" ? nil : $0 })
            case ".open": try open(arguments)
            case ".model": try useModel(arguments)
            case ".watch": try watch(arguments)
            case ".read":
                guard arguments.count == 1 else { throw CLIError.usage("usage: .read FILE") }
                try runFile(arguments[0])
            case let name:
                throw CLIError.usage("unknown command \(name); try .help")
            }
            return true
        } catch {
            _ = CommandLineRunner.report(error)
            return false
        }
    }

    private func printEntities() throws {
        let options = stores.boundOptions
        var rows: [(String, Int)] = []
        func label(_ entity: Entity) -> String {
            entity.name + (entity.parentName.map { " : \($0)" } ?? "") + (entity.isAbstract ? " (abstract)" : "")
        }
        if let path = options.storePath, FileManager.default.fileExists(atPath: path) {
            try options.withStore(create: false, readsOnly: true) { store in
                try store.read { ctx in
                    for entity in store.model.entities { rows.append((label(entity), try ctx.count(entity.name))) }
                }
            }
        } else {
            // No store yet: it has no objects.
            rows = try loadModel().entities.map { (label($0), 0) }
        }
        let width = rows.map(\.0.count).max() ?? 0
        for (name, count) in rows {
            print(name + String(repeating: " ", count: width - name.count + 2) + String(count))
        }
    }

    private func printSchema(_ names: [String]) throws {
        let model = try loadModel()
        for name in names where model.entity(named: name) == nil {
            throw CLIError.input("no entity '\(name)' in the model")
        }
        let selected = names.isEmpty
            ? model : ManagedObjectModel(entities: model.entities.filter { names.contains($0.name) })
        let text = TextOutput.standardOutput()
        ModelDescription.text(selected, output: text)
        text.flush()
    }

    private func setFormat(_ arguments: [String]) throws {
        guard let name = arguments.first else {
            print(format?.rawValue ?? "default (table at a terminal, ndjson otherwise)")
            return
        }
        guard arguments.count == 1, let chosen = OutputFormat(rawValue: name) else {
            throw CLIError.usage("usage: .format table|line|json|ndjson|csv")
        }
        format = chosen
    }

    private func setMode(_ arguments: [String]) throws {
        guard let name = arguments.first else {
            print(output.tableMode.rawValue)
            return
        }
        guard arguments.count == 1, let chosen = TableWriter.Expansion(rawValue: name) else {
            throw CLIError.usage("usage: .mode table|line|auto")
        }
        output.tableMode = chosen
    }

    private func onOrOff(_ arguments: [String], usage: String) throws -> Bool {
        switch arguments {
        case ["on"]: return true
        case ["off"]: return false
        default: throw CLIError.usage("usage: " + usage)
        }
    }

    private func open(_ arguments: [String]) throws {
        guard let path = arguments.first else {
            print(stores.options.storePath ?? "no store")
            return
        }
        guard arguments.count == 1 else { throw CLIError.usage("usage: .open [STORE]") }
        stores.change(storePath: .some(path))
        modelChanged()
    }

    private func useModel(_ arguments: [String]) throws {
        guard let path = arguments.first else {
            let options = stores.options
            let version = options.modelVersion.map { " (\($0))" } ?? ""
            print(options.modelPath.map { $0 + version } ?? "the store's own model")
            return
        }
        guard arguments.count <= 2 else { throw CLIError.usage("usage: .model [PATH [VERSION]]") }
        let version = arguments.count > 1 ? arguments[1] : nil
        if path == "none" {
            stores.change(modelPath: .some(nil), modelVersion: .some(nil))
        } else {
            // Refused now rather than by every command that follows.
            let file = try ModelFile(contentsOf: path, version: version, readers: Program.current.modelReaders)
            for warning in file.warnings { Console.warn(warning) }
            stores.change(modelPath: .some(path), modelVersion: .some(version))
        }
        modelChanged()
    }
}
