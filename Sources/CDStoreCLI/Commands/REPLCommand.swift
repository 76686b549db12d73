import ArgumentParser
import Foundation

/// `cdstore repl`: an interactive session on one store, or a script of statements piped in.
struct REPLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Explore a store interactively, or run a script of commands on it.",
        discussion: """
        Each statement is a cdstore command without "cdstore" (fetch, count, insert, project, …); the session's \
        --store, --model and --model-version are added to it, and all statements share one open store (no \
        transaction stays open between them: other processes can write meanwhile, and the next statement sees \
        what they wrote). A statement goes on over several lines, with the prompt "   ...>", while a quote — or \
        a ( [ { outside quotes — is open; text inside ( ) [ ] { } is taken as it is.

        Dot-commands: .help, .entities (with object counts), .schema [ENTITY], .format table|line|json|ndjson|csv \
        (for fetch and project without --format), .mode table|line|auto (tables as tables, each record \
        expanded, or — the default — expanded when the table is wider than the terminal), .headers on|off, .timer on|off, .output FILE|stdout, \
        .open STORE, .model PATH, .read FILE, .quit (or Ctrl-D).

        At a terminal: line editing, Ctrl-R history search, Tab completion of commands, options, entities, key \
        paths (department.na → department.name) and file names. Ctrl-C abandons the line being typed, or \
        interrupts the running command (a write is rolled back) without ending the session. History is kept \
        in $CDSTORE_HISTORY, else ~/.cdstore_history (--no-history keeps none).

        Piped in: no prompt or banner; output comes in statement order; errors name their line \
        ("error: line 3: …", and "error: line 2: setup.txt:5: …" for a file run by .read). The exit status is \
        1 if any statement failed, else 0; --bail stops at the first failure.

        Examples:
          cdstore repl --store Company.sqlite --model Schemas/Company.json
          cdstore repl --store Company.sqlite --bail < setup.txt
          printf '.format csv\\nfetch Employee\\n' | cdstore repl --store Company.sqlite
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Flag(name: .long, help: "Stop at the first statement that fails (exit status 1), as sqlite3's -bail.")
    var bail = false

    @Flag(name: .customLong("no-history"), help: "Neither read nor write the history file.")
    var noHistory = false

    func run() throws {
        let interactive = isatty(STDIN_FILENO) != 0
        let session = REPLSession(options: storeOptions, interactive: interactive, bail: bail)
        if interactive { session.interrupts = InterruptHandler(stores: session.stores) }
        let reader = LineReader(interactive: interactive, historyFile: noHistory ? nil : LineReader.defaultHistoryFile,
                                interrupts: session.interrupts) { word, before in
            session.completions(for: word, after: before)
        }
        if interactive {
            prompt("cdstore \(BuildVersion.version) — .help for help, .quit to leave\n")
        }
        session.run(reader)
        reader.finish()
        if session.failed { throw ExitCode(ExitStatus.badInput.rawValue) }
    }

    /// Writes to where readline shows its prompt: the terminal, even when standard output goes elsewhere.
    private func prompt(_ text: String) {
        let handle = isatty(STDOUT_FILENO) != 0 ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data(text.utf8))
    }
}
