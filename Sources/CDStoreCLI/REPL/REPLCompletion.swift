import CDStore

/// What Tab offers in the REPL, from the words before the cursor: commands and dot-commands first; then the
/// command's options, its ENTITY argument, the values of options with a fixed set (`--format`), file names after
/// options and dot-commands that take a path, and key paths of the command's entity — following relationships,
/// to-one and to-many (`department.na` → `department.name`, as ``ShellCompletion`` does for shells) — inside
/// `--where`, `--having`, `--sort`, `--properties`, `--group-by`, `--set`, `--include` and insert's `KEY=VALUE`
/// arguments.
struct REPLCompletion {
    /// What to offer.
    enum Result: Equatable {
        /// These words.
        case words([String])
        /// File names (readline's own completion).
        case files
    }

    /// The session's model; without one, entities and key paths do not complete.
    var model: ManagedObjectModel?
    var catalog = CommandCatalog.shared

    static let dotCommands = [".entities", ".exit", ".format", ".headers", ".help", ".mode", ".model", ".open", ".output",
                              ".quit", ".read", ".schema", ".timer"]
    /// Options whose value is a key path, a list of them or a predicate over them.
    static let keyPathOptions: Set<String> = ["--where", "--having", "--sort", "--properties", "--group-by", "--set",
                                              "--include"]
    /// Words of the predicate language, offered in `--where` and `--having` beside key paths.
    static let predicateWords = ["ALL", "AND", "ANY", "BEGINSWITH", "BETWEEN", "CONTAINS", "ENDSWITH", "FALSE", "IN",
                                 "LIKE", "MATCHES", "NO", "NONE", "NOT", "OR", "SOME", "SUBQUERY", "TRUE", "YES", "nil"]

    /// Completions for `word`, the word before the cursor (readline ends words at white space, quotes, operators,
    /// `,`, `:` and `=`, not at `.`); `before` is the statement's text before `word`, earlier lines included.
    func complete(_ word: String, after before: String) -> Result {
        let (words, current, inArgument) = CommandLineSplitter.partial(before)
        guard var command = words.first.map({ $0 == "cdstore" && words.count > 1 ? words[1] : $0 }) else {
            if inArgument { return .words([]) }
            return .words(matching(word, catalog.commands.keys.sorted() + Self.dotCommands))
        }
        var arguments = Array(words.drop { $0 != command }.dropFirst())
        if command.hasPrefix(".") { return dotCommandArgument(command, word, position: arguments.count) }
        if command == "help" { return .words(matching(word, catalog.commands.keys.sorted())) }
        guard var definition = catalog.commands[command] else { return .words([]) }
        if !definition.subcommands.isEmpty {
            guard let sub = arguments.first.flatMap({ definition.subcommands[$0] }) else {
                let names = definition.subcommands.keys.sorted()
                return .words(inArgument || !arguments.isEmpty ? [] : matching(word, names))
            }
            command = sub.name
            definition = sub
            arguments.removeFirst()
        }
        let entity = Self.positionals(arguments, of: definition).first
        // The value of `--option=…`, or of an option given as the previous word.
        var option: String?
        if inArgument, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            option = String(current[..<equals])
        } else if let last = arguments.last, definition.options[last]?.takesValue == true {
            option = last
        }
        if let option, let details = definition.options[option] {
            return optionValue(option, details, word, entity: entity)
        }
        if word.hasPrefix("-") && !inArgument {
            return .words(matching(word, definition.visibleOptions))
        }
        let position = Self.positionals(arguments, of: definition).count
        let positionals = definition.positionals
        switch position < positionals.count ? positionals[position] : positionals.last {
        case "entity", "entities": return .words(matching(word, model?.entities.map(\.name) ?? []))
        case "key=value": return .words(inArgument && current.contains("=") ? [] : keyPaths(word, entity: entity))
        case "file", "data": return .files
        default: return .words([])
        }
    }

    private func dotCommandArgument(_ command: String, _ word: String, position: Int) -> Result {
        switch command {
        case ".schema": return .words(matching(word, model?.entities.map(\.name) ?? []))
        case ".format": return .words(position == 0 ? matching(word, OutputFormat.allCases.map(\.rawValue)) : [])
        case ".mode": return .words(position == 0 ? matching(word, TableWriter.Expansion.allCases.map(\.rawValue)) : [])
        case ".timer", ".headers": return .words(position == 0 ? matching(word, ["off", "on"]) : [])
        case ".open", ".read", ".output", ".model": return .files
        default: return .words([])
        }
    }

    private func optionValue(_ option: String, _ details: CommandCatalog.Option, _ word: String,
                             entity: String?) -> Result {
        if !details.values.isEmpty { return .words(matching(word, details.values)) }
        if details.valueName == "path" { return .files }
        guard Self.keyPathOptions.contains(option) else { return .words([]) }
        var words = keyPaths(word, entity: entity)
        if option == "--where" || option == "--having", !word.contains(".") {
            words += matching(word, Self.predicateWords)
        }
        return .words(words)
    }

    /// Key paths of `entity` that start with `word`, following the relationships `word` names before its last `.`.
    func keyPaths(_ word: String, entity: String?) -> [String] {
        guard let model, let start = entity.flatMap(model.entity(named:)) else { return [] }
        return ShellCompletion.keyPathCompletions(word, entity: start, model: model)
    }

    /// The positional arguments among `arguments` (options and their values left out).
    private static func positionals(_ arguments: [String], of command: CommandCatalog.Command) -> [String] {
        var result: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument.hasPrefix("--") {
                skipNext = !argument.contains("=") && command.options[argument]?.takesValue == true
            } else {
                result.append(argument)
            }
        }
        return result
    }

    private func matching(_ word: String, _ candidates: [String]) -> [String] {
        Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
    }
}
