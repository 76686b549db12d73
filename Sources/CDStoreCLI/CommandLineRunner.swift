import ArgumentParser
import CDStore
import Foundation

/// Runs the command line: parses, runs, prints errors as `error: …` on standard error, and returns the exit
/// status (see ``ExitStatus``).
public enum CommandLineRunner {
    /// Options every subcommand accepts, with whether they take a value.
    static let globalOptions: [String: Bool] = ["--model": true, "--model-version": true, "--store": true, "--read-only": false]

    /// Runs `arguments` (without the program name) in `program` and returns the exit status.
    ///
    /// `program` says what the running program links beyond the lean command line (``Program``). A command that
    /// needs more than that — `serve`, the REPL, a model read from SwiftData sources — is handed over whole to
    /// `cdstore-full` before it runs (``FullProgram``).
    public static func run(_ arguments: [String], program: Program = .lean) -> Int32 {
        Program.$current.withValue(program) { run(arguments, session: nil) }
    }

    /// Runs `arguments` in a REPL `session`, whose open store the command uses when it names the same store. The
    /// REPL runs in `cdstore-full` only, so nothing is handed over from a session.
    static func run(_ arguments: [String], session: SessionStores?) -> Int32 {
        let normalized = moveGlobalOptions(arguments)
        do {
            var command = try CDStoreCommand.parseAsRoot(normalized)
            if var storeCommand = command as? any StoreCommand, storeCommand.storeOptions.namesAppStore {
                try storeCommand.storeOptions.resolveAppStore()
                command = storeCommand
            }
            if let session, var storeCommand = command as? any StoreCommand {
                storeCommand.storeOptions.session = session
                command = storeCommand
            }
            if session == nil, !Program.current.isFull, let purpose = FullProgram.needs(command, arguments: arguments) {
                try FullProgram.replaceProcess(arguments: arguments, why: purpose)
            }
            if session != nil && command is MCPCommand {
                throw CLIError.usage("mcp answers its client on standard input until it ends, so it is not a REPL "
                                     + "statement: run `cdstore mcp` in a shell")
            }
            // In a REPL session `serve` runs as a statement, which says that it is not one.
            if session == nil, let serve = command as? ServeCommand, let server = Program.current.server {
                try serve.serve(with: server)
            } else {
                try command.run()
            }
            return ExitStatus.success.rawValue
        } catch {
            return report(error)
        }
    }

    /// Moves global options written before the subcommand name to after it, where the subcommand parses them:
    /// `cdstore --store s.sqlite fetch Person` runs as `cdstore fetch Person --store s.sqlite`.
    static func moveGlobalOptions(_ arguments: [String]) -> [String] {
        var moved: [String] = []
        var rest: [String] = []
        var index = 0
        var seenCommand = false
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { rest.append(contentsOf: arguments[index...]); break }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if !seenCommand, let takesValue = globalOptions[name] {
                moved.append(argument)
                if takesValue && !argument.contains("="), index + 1 < arguments.count {
                    moved.append(arguments[index + 1])
                    index += 1
                }
            } else {
                if !argument.hasPrefix("-") { seenCommand = true }
                rest.append(argument)
            }
            index += 1
        }
        guard !moved.isEmpty else { return arguments }
        if let dashes = rest.firstIndex(of: "--") { rest.insert(contentsOf: moved, at: dashes) } else { rest += moved }
        return rest
    }

    /// Prints `error` and returns its exit status (``ExitStatus/init(for:)`` decides it).
    static func report(_ error: Error) -> Int32 {
        if let trouble = error as? ComparisonTrouble {
            guard let status = ExitStatus(for: trouble) else { return report(trouble.error) }
            Console.error(InputFlags.message(of: trouble.error, modelFlag: trouble.modelFlag) ?? message(of: trouble.error)
                          ?? "\(trouble.error)")
            return status.rawValue
        }
        if let error = error as? ExitCode { return error.rawValue }
        if let status = ExitStatus(for: error) {
            Console.error(message(of: error) ?? "\(error)")
            if let hint = InputFlags.hint(for: error) { Console.write("hint: " + hint) }
            return status.rawValue
        }
        let code = CDStoreCommand.exitCode(for: error)
        let message = CDStoreCommand.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            return 0
        }
        if code.rawValue == ExitCode.validationFailure.rawValue {
            if message.hasPrefix("Error: ") { Console.error(String(message.dropFirst(7))) } else { Console.write(message) }
            return ExitStatus.usage.rawValue
        }
        Console.error(message.isEmpty ? String(describing: error) : message)
        return ExitStatus.badInput.rawValue
    }

    /// What `error:` says for an error of the project's own: the library's name the option at fault
    /// (``InputFlags``).
    private static func message(of error: Error) -> String? {
        if let message = InputFlags.message(of: error) { return message }
        return switch error {
        case let error as CLIError: error.message
        case let error as CustomStringConvertible: error.description
        default: nil
        }
    }
}

/// An error that stopped `diff` from comparing: it reports bad input as a usage error (exit status 2), because
/// its exit status 1 means "the stores differ" (``ExitStatus/init(for:)``).
struct ComparisonTrouble: Error {
    var error: Error
    /// The option that gave the model of the side that failed (`--model-a`, `--model-b`), when it was not `--model`.
    var modelFlag: String?
}

extension ExitStatus {
    /// The one table from errors to exit statuses; nil for errors of the argument parser, which has its own.
    init?(for error: Error) {
        switch error {
        case let trouble as ComparisonTrouble:
            guard let status = ExitStatus(for: trouble.error) else { return nil }
            self = status == .badInput ? .usage : status
        case let error as CLIError: self = error.status
        default:
            // The library's errors and its layers', by the library's code.
            guard let error = error as? CDStoreError else { return nil }
            self = ExitStatus(error.code)
        }
    }

    /// The exit status of a library error, by its code.
    init(_ code: CDStoreError.Code) {
        switch code {
        case .modelMismatch, .noModel: self = .modelMismatch
        case .cannotOpen, .busy, .diskFull: self = .cannotOpen
        default: self = .badInput
        }
    }
}
