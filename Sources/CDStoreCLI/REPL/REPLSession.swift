import CDStoreModel
import CDStoreSQLite
import Foundation

/// The state of an interactive session: the store and model every command uses unless it names others, and
/// what completion offers. Lines are cdstore commands without the `cdstore` (`fetch Employee --limit 5`) or
/// dot-commands (`.help`, `.entities`, `.schema Employee`, `.quit`).
final class REPLSession {
    let storePath: String?
    let modelPath: String?
    let modelVersion: String?
    /// Entity, attribute and relationship names of the model, for completion.
    private(set) var names: [String] = []

    static let commands = ["insert", "fetch", "count", "delete", "update", "project", "export", "import", "info",
                           "verify", "history", "migrate", "model", "seed"]
    static let dotCommands = [".help", ".entities", ".schema", ".quit", ".exit"]
    static let options = ["--where", "--sort", "--limit", "--offset", "--format", "--arg", "--var", "--include", "--counts",
                          "--exact-entity", "--json", "--file", "--csv", "--nl", "--all", "--dry-run", "--upsert",
                          "--output", "--properties", "--group-by", "--having", "--distinct", "--set", "--changes", "--since",
                          "--author", "--entity"]

    init(storePath: String?, modelPath: String?, modelVersion: String?) {
        self.storePath = storePath
        self.modelPath = modelPath
        self.modelVersion = modelVersion
        refreshNames()
    }

    /// Reads the model's names for completion (from the model file, else from the store).
    func refreshNames() {
        var model: ManagedObjectModel?
        if let modelPath { model = try? ModelLoader.load(modelPath, version: modelVersion).model }
        if model == nil, let storePath, FileManager.default.fileExists(atPath: storePath) {
            model = try? Store.open(at: storePath, loaded: nil, options: .init(readOnly: true)).model
        }
        guard let model else { return }
        var all: Set<String> = []
        for entity in model.entities {
            all.insert(entity.name)
            for attribute in entity.attributes { all.insert(attribute.name) }
            for relationship in entity.relationships { all.insert(relationship.name) }
        }
        names = all.sorted()
    }

    /// Completions for `word`, the word being typed; `isFirst` when it is the line's first word.
    func completions(for word: String, isFirst: Bool) -> [String] {
        let candidates: [String]
        if isFirst {
            candidates = Self.commands + Self.dotCommands
        } else if word.hasPrefix("-") {
            candidates = Self.options
        } else {
            candidates = names + Self.commands.filter { $0 == "show" } + ["show", "validate", "compile", "hashes", "diff"]
        }
        return candidates.filter { $0.hasPrefix(word) }
    }

    /// Runs one line; returns false when the session should end.
    func execute(_ line: String, output: (String) -> Void) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return true }
        if trimmed.hasPrefix(".") { return dotCommand(trimmed, output: output) }
        let arguments: [String]
        do {
            arguments = try CommandLineSplitter.split(trimmed)
        } catch {
            Console.error("\(error)")
            return true
        }
        var full = arguments.first == "cdstore" ? Array(arguments.dropFirst()) : arguments
        guard let command = full.first, Self.commands.contains(command) || command == "help" || command.hasPrefix("-") else {
            Console.error("unknown command '\(full.first ?? "")'; try .help")
            return true
        }
        // `help COMMAND`, `--help` and `--version` take none of the session's options.
        let takesSessionOptions = command != "help" && !command.hasPrefix("-")
        if takesSessionOptions {
            if let storePath, !full.contains("--store"), full.first != "model" { full += ["--store", storePath] }
            // `model … --store S` reads the store's model; the session's model would conflict with it.
            let readsStoreModel = full.first == "model" && full.contains("--store")
            if let modelPath, !full.contains("--model"), !readsStoreModel { full += ["--model", modelPath] }
            if let modelVersion, !full.contains("--model-version") { full += ["--model-version", modelVersion] }
        }
        _ = CommandLineRunner.run(full)
        fflush(nil)
        return true
    }

    private func dotCommand(_ line: String, output: (String) -> Void) -> Bool {
        let words = line.split(separator: " ").map(String.init)
        switch words[0] {
        case ".quit", ".exit":
            return false
        case ".help":
            output("""
                Type cdstore commands without "cdstore"; the session's --store and --model are added for you.
                  fetch Employee --where "age > 30" --sort -age --limit 5
                  count Employee
                  insert Employee firstName=Ann lastName=Lee employeeNumber=7
                  project Employee --properties "department.name,average:salary" --group-by department.name
                  help fetch            every option of a command, with examples
                .entities               the model's entities
                .schema ENTITY          an entity's attributes and relationships
                .quit                   leave (or Ctrl-D)
                Tab completes commands, options and the model's names; history is kept in ~/.cdstore_history.
                """)
        case ".entities":
            guard let model = currentModel() else { return true }
            output(model.entities.map { $0.name + ($0.parentName.map { " : \($0)" } ?? "") + ($0.isAbstract ? " (abstract)" : "") }
                .joined(separator: "\n"))
        case ".schema":
            guard let model = currentModel() else { return true }
            let wanted = words.dropFirst()
            let selected = wanted.isEmpty ? model : ManagedObjectModel(entities: model.entities.filter { wanted.contains($0.name) })
            guard !selected.entities.isEmpty else {
                Console.error("no entity \(wanted.joined(separator: ", "))")
                return true
            }
            let text = TextOutput.standardOutput()
            ModelDescription.text(selected, output: text)
            text.flush()
        default:
            Console.error("unknown command \(words[0]); try .help")
        }
        return true
    }

    private func currentModel() -> ManagedObjectModel? {
        do {
            if let modelPath { return try ModelLoader.load(modelPath, version: modelVersion).model }
            if let storePath { return try Store.open(at: storePath, loaded: nil, options: .init(readOnly: true)).model }
        } catch {
            // Say why, rather than printing nothing.
            Console.error("\(error)")
            return nil
        }
        Console.error("no model: start the session with --model or --store")
        return nil
    }
}
