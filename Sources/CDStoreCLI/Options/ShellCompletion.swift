import CDStore
import Foundation

/// Completions the shell asks cdstore for while a command line is typed (`cdstore --generate-completion-script
/// bash|zsh|fish` wires them in): entity names for ENTITY arguments, and attribute and relationship key paths
/// for `--where`, `--sort`, `--properties`, `--group-by` and `--set`, read from the model or store named on the
/// same command line (`--model`, `--store`, else `$CDSTORE_MODEL`, `$CDSTORE_STORE`).
///
/// Completion must never change anything or be slow: stores are opened immutable, and any failure completes
/// nothing.
enum ShellCompletion {
    /// Entity names starting with `prefix`.
    @Sendable static func entities(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let model = model(in: words) else { return [] }
        return model.entities.map(\.name).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Key paths of the command's entity completing the last key path in `prefix`: in `name,depa` the
    /// completions of `depa`, in `department.na` those of `na` on the destination of `department`. Each comes
    /// back as the whole word, so the shell replaces what was typed.
    @Sendable static func keyPaths(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let model = model(in: words), let entity = entity(in: words, model: model) else { return [] }
        return keyPathCompletions(prefix, entity: entity, model: model)
    }

    /// See ``keyPaths(_:_:_:)``; separate so that tests and the REPL can call it with a model.
    static func keyPathCompletions(_ word: String, entity: Entity, model: ManagedObjectModel) -> [String] {
        // The key path being typed starts after the last separator of a list, a predicate or a sort order.
        let separators: Set<Character> = [",", " ", "(", "=", "!", "<", ">", "-", "+", "*", "/", "'", "\""]
        let start = word.lastIndex { separators.contains($0) }.map { word.index(after: $0) } ?? word.startIndex
        let head = String(word[..<start])
        let components = word[start...].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current = entity
        for name in components.dropLast() {
            guard let relationship = model.relationships(of: current).first(where: { $0.name == name }),
                  let destination = model.entity(named: relationship.destination) else { return [] }
            current = destination
        }
        let last = components.last ?? ""
        let path = components.dropLast().map { $0 + "." }.joined()
        let names = model.attributes(of: current).map(\.name) + model.relationships(of: current).map(\.name)
        return names.filter { $0.hasPrefix(last) }.sorted().map { head + path + $0 }
    }

    /// The model named on the command line: `--model` (with `--model-version`), else the store's own.
    static func model(in words: [String]) -> ManagedObjectModel? {
        let environment = ProcessInfo.processInfo.environment
        if let path = value(of: "--model", in: words) ?? environment["CDSTORE_MODEL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            // SwiftData sources: the lean program asks cdstore-full, which prints the same completions.
            if !Program.current.modelReaders.readsSwiftData && FullProgram.namesSwiftSources(path) {
                try? FullProgram.replaceProcess(arguments: Array(CommandLine.arguments.dropFirst()),
                                                why: "completing names from SwiftData sources")
                return nil
            }
            return try? ModelFile(contentsOf: path, version: value(of: "--model-version", in: words),
                                  readers: Program.current.modelReaders).model
        }
        guard let path = value(of: "--store", in: words) ?? environment["CDSTORE_STORE"].flatMap({ $0.isEmpty ? nil : $0 }),
              FileManager.default.fileExists(atPath: path) else { return nil }
        return try? ModelFile(cachedInStoreAt: path, immutable: true).model
    }

    /// The command's entity: the first word after the subcommand that names one.
    static func entity(in words: [String], model: ManagedObjectModel) -> Entity? {
        for word in words.dropFirst(2) {
            if let entity = model.entity(named: word) { return entity }
        }
        return nil
    }

    /// The value of `option` (`--option VALUE` or `--option=VALUE`), the last one when repeated.
    static func value(of option: String, in words: [String]) -> String? {
        var found: String?
        for (i, word) in words.enumerated() {
            if word == option, i + 1 < words.count { found = words[i + 1] }
            if word.hasPrefix(option + "=") { found = String(word.dropFirst(option.count + 1)) }
        }
        return found.map { ($0 as NSString).expandingTildeInPath }
    }
}
