import ArgumentParser
import Foundation

extension REPLSession {
    /// `.watch [ENTITY…] [--where PREDICATE] [--format table|ndjson]`: the changes other processes commit to the
    /// session's store, printed as they come (`cdstore watch`), until Ctrl-C, which ends the watch, not the session.
    func watch(_ arguments: [String]) throws {
        let options = stores.options
        guard let path = options.storePath else { throw CLIError.usage("no store: .open STORE first") }
        var command = ["watch", "--store", path]
        if let model = options.modelPath { command += ["--model", model] }
        if let version = options.modelVersion { command += ["--model-version", version] }
        // Words before the first option are entities: `.watch Note Tag --where "pinned == YES"`.
        let entities = arguments.prefix { !$0.hasPrefix("-") }
        command += entities.flatMap { ["--entity", $0] } + arguments.dropFirst(entities.count)
        guard CommandLineRunner.run(command, session: nil) == 0 else { throw ExitCode(ExitStatus.badInput.rawValue) }
    }
}
