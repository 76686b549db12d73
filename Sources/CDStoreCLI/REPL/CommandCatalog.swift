import ArgumentParser
import Foundation

/// cdstore's commands with their options and arguments, as completion needs them. Read from the commands' own
/// definitions (ArgumentParser's help dump), so that a new option completes without being listed here.
struct CommandCatalog: Sendable {
    /// A command or subcommand.
    struct Command: Sendable {
        var name: String
        /// Long options (`--where`) by name.
        var options: [String: Option] = [:]
        /// The value names of the positional arguments, in order (`entity`, `key=value`).
        var positionals: [String] = []
        /// Subcommands (`model show`) by name.
        var subcommands: [String: Command] = [:]

        /// The options shown in help, for completion.
        var visibleOptions: [String] { options.filter { $0.value.isVisible }.keys.sorted() }
    }

    /// An option.
    struct Option: Sendable {
        var takesValue: Bool
        /// What its help calls the value: `path`, `predicate`, `key`, …
        var valueName: String?
        /// The values it accepts, for options with a fixed set (`--format`).
        var values: [String]
        var isVisible: Bool
    }

    /// The root command's subcommands by name.
    var commands: [String: Command]

    /// The catalog of this build of cdstore.
    static let shared = CommandCatalog(dump: CDStoreCommand._dumpHelp())

    init(dump: String) {
        let root = (try? JSONSerialization.jsonObject(with: Data(dump.utf8))) as? [String: Any]
        let command = root?["command"] as? [String: Any] ?? [:]
        commands = Self.subcommands(of: command)
    }

    private static func subcommands(of command: [String: Any]) -> [String: Command] {
        var result: [String: Command] = [:]
        for sub in command["subcommands"] as? [[String: Any]] ?? [] {
            guard let name = sub["commandName"] as? String else { continue }
            var entry = Command(name: name, subcommands: subcommands(of: sub))
            for argument in sub["arguments"] as? [[String: Any]] ?? [] {
                let kind = argument["kind"] as? String
                let valueName = argument["valueName"] as? String
                if kind == "positional" {
                    entry.positionals.append(valueName ?? "")
                    continue
                }
                let option = Option(takesValue: kind == "option", valueName: valueName,
                                    values: argument["allValues"] as? [String] ?? [],
                                    isVisible: argument["shouldDisplay"] as? Bool ?? true)
                for names in argument["names"] as? [[String: Any]] ?? [] where names["kind"] as? String == "long" {
                    if let long = names["name"] as? String { entry.options["--" + long] = option }
                }
            }
            result[name] = entry
        }
        return result
    }
}
