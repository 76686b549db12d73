import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore repl` at a terminal (a tmux pane), typed into as a person would: output, continuation lines, history
/// across sessions, Tab completion, Ctrl-C. Each test waits for the screen it expects, polling with a deadline.
@Suite("The REPL at a terminal",
       .enabled(if: TerminalSession.isAvailable, "tmux is not installed: no terminal to test in"))
struct REPLTerminalTests {
    let banner = TerminalSession.banner

    @Test func aCommandAndItsOutput() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=7"])
        let terminal = try TerminalSession(["--store", box.store, "--model", box.model, "--no-history"])
        defer { terminal.close() }
        terminal.type("count Item", "Enter")
        try terminal.expectScreen([banner, "cdstore> count Item", "1", "cdstore>"])
        terminal.type(".quit", "Enter")
        try terminal.expectScreen([banner, "cdstore> count Item", "1", "cdstore> .quit", "[exit status 0]"])
    }

    /// In a 60-column terminal a table of 14 columns does not fit: `.mode auto` (the default) prints the record
    /// expanded, a table that fits stays a table, and `.mode line` expands that too. (Readline sets `COLUMNS` to the
    /// terminal's width, so the pane itself is narrow.)
    @Test func wideRecordsPrintExpanded() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=7", "str=a"])
        let terminal = try TerminalSession(["--store", box.store, "--model", box.model, "--no-history"], width: 60)
        defer { terminal.close() }
        terminal.type("fetch Item --no-relationships", "Enter")
        let expanded = [banner, "cdstore> fetch Item --no-relationships", "_id   Item/p1", "blob", "dec   0", "dbl", "flag",
                        "flt", "i16   7", "i32", "i64", "link", "str   a", "uid", "when", "xf"]
        try terminal.expectScreen(expanded + ["cdstore>"])
        terminal.type("project Item --properties i16,str", "Enter")
        let table = ["cdstore> project Item --properties i16,str", "i16  str", "---  ---", "  7  a"]
        try terminal.expectScreen(expanded + table + ["cdstore>"])
        terminal.type(".mode line", "Enter")
        terminal.type("project Item --properties i16,str", "Enter")
        try terminal.expectScreen(expanded + table + ["cdstore> .mode line", "cdstore> project Item --properties i16,str",
                                                      "i16  7", "str  a", "cdstore>"])
    }

    @Test func aStatementGoesOnOverLines() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=7", "str=a"])
        let terminal = try TerminalSession(["--store", box.store, "--model", box.model, "--no-history"])
        defer { terminal.close() }
        terminal.type(#"count Item --where "(i16 > 5"#, "Enter")
        try terminal.expectScreen([banner, #"cdstore> count Item --where "(i16 > 5"#, "   ...>"])
        terminal.type(#"AND str == 'a')""#, "Enter")
        try terminal.expectScreen([banner, #"cdstore> count Item --where "(i16 > 5"#, #"   ...> AND str == 'a')""#, "1",
                                   "cdstore>"])
    }

    /// The Up arrow in a second session shows the statements of the first, from `$CDSTORE_HISTORY`, a statement
    /// over two lines as one entry; Ctrl-R finds one.
    @Test func historyIsKeptAcrossSessions() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=2"])
        let history = ["CDSTORE_HISTORY": box.path("history")]
        let first = try TerminalSession(["--store", box.store, "--model", box.model], environment: history)
        defer { first.close() }
        first.type(#"count Item --where "i16 =="#, "Enter")
        try first.expectScreen([banner, #"cdstore> count Item --where "i16 =="#, "   ...>"])
        first.type(#"1""#, "Enter")
        let firstLines = [banner, #"cdstore> count Item --where "i16 =="#, #"   ...> 1""#, "0"]
        try first.expectScreen(firstLines + ["cdstore>"])
        first.type("count Item --where 'i16 == 2'", "Enter")
        try first.expectScreen(firstLines + ["cdstore> count Item --where 'i16 == 2'", "1", "cdstore>"])
        first.type("C-d")
        try first.expectScreen(firstLines + ["cdstore> count Item --where 'i16 == 2'", "1", "cdstore>", "[exit status 0]"])

        let second = try TerminalSession(["--store", box.store, "--model", box.model], environment: history)
        defer { second.close() }
        second.type("Up")
        try second.expectScreen([banner, "cdstore> count Item --where 'i16 == 2'"])
        second.type("Up")
        try second.expectScreen([banner, #"cdstore> count Item --where "i16 =="#, #"1""#])
        second.type("Enter")
        let secondLines = [banner, #"cdstore> count Item --where "i16 =="#, #"1""#, "0"]
        try second.expectScreen(secondLines + ["cdstore>"])
        second.type("C-r", "== 2")
        try second.expectScreen(secondLines + ["(reverse-i-search)`== 2': count Item --where 'i16 == 2'"])
        second.type("Enter")
        try second.expectScreen(secondLines + ["cdstore> count Item --where 'i16 == 2'", "1", "cdstore>"])
    }

    /// A history file written without timestamp lines (by an older cdstore) keeps one entry per line.
    @Test func anOlderHistoryFileKeepsOneEntryPerLine() throws {
        let box = try Sandbox()
        let file = try box.write("history", "count Item\n.entities\n")
        let terminal = try TerminalSession(["--store", box.store, "--model", box.model],
                                           environment: ["CDSTORE_HISTORY": file])
        defer { terminal.close() }
        terminal.type("Up")
        try terminal.expectScreen([banner, "cdstore> .entities"])
        terminal.type("Up")
        try terminal.expectScreen([banner, "cdstore> count Item"])
    }

    /// Tab completes an entity, a key path through a to-one and through a to-many relationship, and a file name.
    @Test func tabCompletes() throws {
        let box = try Sandbox(model: Corpus.packageRoot.appendingPathComponent("Schemas/Company.json").path)
        try box.write("setup-script.txt", "count Employee\n")
        let terminal = try TerminalSession(["--store", box.store, "--model", box.model, "--no-history"])
        defer { terminal.close() }
        terminal.type("fetch Emp", "Tab")
        try terminal.expectScreen([banner, "cdstore> fetch Employee"])
        terminal.type(#"--where "department.na"#, "Tab")
        try terminal.expectScreen([banner, #"cdstore> fetch Employee --where "department.name"#])
        terminal.type("C-c")
        try terminal.expectScreen([banner, #"cdstore> fetch Employee --where "department.name ^C"#, "cdstore>"])
        terminal.type(#"count Department --where "ANY employees.first"#, "Tab")
        try terminal.expectScreen([banner, #"cdstore> fetch Employee --where "department.name ^C"#,
                                   #"cdstore> count Department --where "ANY employees.firstName"#])
        terminal.type("C-c")
        try terminal.expectScreen([banner, #"cdstore> fetch Employee --where "department.name ^C"#,
                                   #"cdstore> count Department --where "ANY employees.firstName ^C"#, "cdstore>"])
        terminal.type(".read \(box.path("setup-s"))", "Tab")
        try terminal.expectScreen([banner, #"cdstore> fetch Employee --where "department.name ^C"#,
                                   #"cdstore> count Department --where "ANY employees.firstName ^C"#,
                                   "cdstore> .read \(box.path("setup-script.txt"))"])
    }

    @Test func ctrlCAtThePromptAbandonsTheLineOnly() throws {
        let box = try Sandbox()
        let terminal = try TerminalSession(["--store", box.store, "--model", box.model, "--no-history"])
        defer { terminal.close() }
        // Ctrl-C also empties the terminal's queue of keys not read yet: as a person does, wait for them to show.
        terminal.type("count It")
        try terminal.expectScreen([banner, "cdstore> count It"])
        terminal.type("C-c")
        try terminal.expectScreen([banner, "cdstore> count It^C", "cdstore>"])
        terminal.type(#"count Item --where "i16 >"#, "Enter")
        try terminal.expectScreen([banner, "cdstore> count It^C", #"cdstore> count Item --where "i16 >"#, "   ...>"])
        terminal.type("C-c")
        try terminal.expectScreen([banner, "cdstore> count It^C", #"cdstore> count Item --where "i16 >"#, "   ...> ^C",
                                   "cdstore>"])
        terminal.type("count Item", "Enter")
        try terminal.expectScreen([banner, "cdstore> count It^C", #"cdstore> count Item --where "i16 >"#, "   ...> ^C",
                                   "cdstore> count Item", "note: created a new store at \(box.store)", "0", "cdstore>"])
    }

    /// Ctrl-C while a slow update runs interrupts it: the session goes on, and nothing was written.
    @Test func ctrlCInterruptsALongCommand() throws {
        let box = try Sandbox(model: "")
        let model = try box.write("Teams.json", """
            {"format": "cdstore-model", "formatVersion": 1, "entities": [
              {"name": "Team", "attributes": [{"name": "name", "type": "String"}], "relationships": [
                {"name": "members", "destination": "Member", "inverse": "team", "toMany": true, "optional": true}]},
              {"name": "Member", "attributes": [{"name": "number", "type": "Integer 64"}], "relationships": [
                {"name": "team", "destination": "Team", "inverse": "members", "optional": true}]}]}
            """)
        let members = (0..<1500).map { #"{"number": \#($0), "team": {"_ref": {"name": "A"}}}"# }.joined(separator: "\n")
        let data = try box.write("members.ndjson", members + "\n")
        for arguments in [["insert", "Team", "name=A"], ["insert", "Member", "--nl", "--file", data]] {
            let result = try CLIRunner.run(arguments + ["--store", box.store, "--model", model])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let before = storeBytes(box.store)
        // For each member, every member of its team, and for each of those every member of theirs: 1500³ steps.
        let slow = "SUBQUERY(team.members, $m, SUBQUERY($m.team.members, $n, $n.number == -1).@count > 0).@count == 0"
        let update = "update Member --set number=-5 --where '\(slow)'"
        let terminal = try TerminalSession(["--store", box.store, "--model", model, "--no-history"])
        defer { terminal.close() }
        terminal.type(update, "Enter")
        try terminal.expectScreen([banner, "cdstore> " + update])
        try terminal.waitUntilBusy()
        terminal.type("C-c")
        try terminal.expectScreen([banner, "cdstore> " + update, "^C", "error: interrupted; nothing was written",
                                   "cdstore>"])
        terminal.type("count Member --where 'number < 0'", "Enter")
        try terminal.expectScreen([banner, "cdstore> " + update, "^C", "error: interrupted; nothing was written",
                                   "cdstore> count Member --where 'number < 0'", "0", "cdstore>"])
        terminal.type("C-d")
        try terminal.expectScreen([banner, "cdstore> " + update, "^C", "error: interrupted; nothing was written",
                                   "cdstore> count Member --where 'number < 0'", "0", "cdstore>", "[exit status 0]"])
        #expect(storeBytes(box.store) == before)
    }
}

/// `cdstore repl` running in a tmux pane of its own (a private tmux server), typed into with `send-keys` and read
/// with `capture-pane`.
final class TerminalSession {
    /// Whether tmux can be run.
    static let isAvailable = (try? ProcessRunner.run("tmux", ["-V"]).status) == 0

    private let server = "cdstore-test-\(UUID().uuidString.prefix(8))"

    /// Starts `cdstore repl arguments…` with `environment` added, in a `width`×50 pane. When it ends, the pane shows
    /// `[exit status N]` and stays.
    init(_ arguments: [String], environment: [String: String] = [:], width: Int = 200) throws {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var variables = ["NO_COLOR=1", "HOME=/nonexistent"]
        variables += environment.sorted { $0.key < $1.key }.map { quoted($0.key + "=" + $0.value) }
        let command = "env -u CDSTORE_MODEL -u CDSTORE_STORE " + variables.joined(separator: " ") + " "
            + ([CLIRunner.binary, "repl"] + arguments).map(quoted).joined(separator: " ")
            + "; echo \"[exit status $?]\"; sleep 60"
        let start = ["tmux", "-L", server, "-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", "50", command]
        guard Self.spawnDetached(start) == 0 else { throw CocoaError(.featureUnsupported) }
        // What is typed before readline reads the terminal is echoed by the terminal itself, as for a person.
        try expectScreen([Self.banner, "cdstore>"])
    }

    static let banner = "cdstore 0.1.0 — .help for help, .quit to leave"

    /// Runs `arguments` and waits for it, with nothing open but /dev/null and no signal blocked. tmux's server
    /// stays in the background holding what it inherited: a pipe of this process (ProcessRunner's, another
    /// test's) would never reach its end, and signals blocked by the test's threads would stay blocked in the REPL.
    static func spawnDetached(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            let flags = descriptor == 0 ? O_RDONLY : O_WRONLY
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", flags, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        // Other descriptors are closed by the shell that runs tmux: it sees all of them, those other threads opened
        // a moment ago included.
        let closeAll = #"for fd in $(ls /proc/$$/fd); do if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; "#
            + #"exec "$@""#
        let argv = (["/bin/bash", "-c", closeAll, "bash"] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, environment) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    /// Types each of `keys`: tmux key names (`Enter`, `Tab`, `Up`, `C-c`, `C-d`) are pressed, other text is typed.
    func type(_ keys: String...) {
        let names: Set<String> = ["Enter", "Tab", "Up", "Down", "C-c", "C-d", "C-r"]
        for key in keys {
            _ = try? tmux(names.contains(key) ? ["send-keys", key] : ["send-keys", "-l", "--", key])
        }
    }

    /// The pane's lines, without the blank ones at the end and trailing blanks.
    func screen() -> [String] {
        let text = (try? tmux(["capture-pane", "-p"]).stdout) ?? ""
        var lines = text.components(separatedBy: "\n").map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Waits (up to 20 s, for a loaded machine) until the pane shows `lines`.
    func expectScreen(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(20)
        var shown: [String] = []
        while Date() < deadline {
            shown = screen()
            if shown == lines { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let expected = lines.joined(separator: "\n")
        Issue.record("the terminal shows\n\(shown.joined(separator: "\n"))\n--- expected\n\(expected)",
                     sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Waits (up to 20 s) until the REPL uses the processor, running a command rather than waiting for a key.
    func waitUntilBusy(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let shell = (try? tmux(["display-message", "-p", "#{pane_pid}"]).stdout)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
            if let repl = children.split(separator: " ").first {
                let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(repl)/task")) ?? []
                let running = tasks.contains { task in
                    let stat = (try? String(contentsOfFile: "/proc/\(repl)/task/\(task)/stat", encoding: .utf8)) ?? ""
                    // The state follows the command name, which ends with ") ".
                    return stat.range(of: ") ").map { stat[$0.upperBound...].hasPrefix("R") } ?? false
                }
                if running { return }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Issue.record("the REPL never ran a command", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// Ends the tmux server and the REPL in it.
    func close() {
        _ = try? tmux(["kill-server"])
    }

    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("tmux", ["-L", server, "-f", "/dev/null"] + arguments)
    }
}
