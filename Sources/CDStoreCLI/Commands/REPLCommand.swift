import ArgumentParser
import Foundation

/// `cdstore repl`: an interactive session on one store.
struct REPLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Explore a store interactively: line editing, history and tab completion.",
        discussion: """
        Each line is a cdstore command without "cdstore" (fetch, count, insert, project, …); the session's \
        --store, --model and --model-version are added to every command. Dot-commands: .help, .entities, \
        .schema [ENTITY], .quit. Tab completes commands, options and the model's entity and property names; \
        history is kept in ~/.cdstore_history. Lines can also be piped in: echo 'count Employee' | cdstore repl …

        Example:
          cdstore repl --store Company.sqlite --model Schemas/Company.json
        """)

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let session = REPLSession(storePath: storeOptions.storePath, modelPath: storeOptions.modelPath,
                                  modelVersion: storeOptions.modelVersion)
        let reader = LineReader(session: session)
        reader.prepareHistory()
        let interactive = isatty(STDIN_FILENO) != 0
        if interactive {
            print("cdstore \(CDStoreCommand.configuration.version) — .help for help, .quit to leave")
        }
        while let line = reader.next(prompt: "cdstore> ") {
            guard session.execute(line, output: { print($0) }) else { break }
            fflush(nil)
        }
    }
}
