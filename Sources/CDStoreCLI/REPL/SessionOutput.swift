import Foundation

/// Where a REPL session's command output goes (`.output FILE` or standard output) and how long commands take
/// (`.timer on`).
///
/// A redirection replaces file descriptor 1 only while a command runs, so that everything the command writes —
/// through `print` or straight to the descriptor — lands in the file, while prompts stay on the terminal.
final class SessionOutput {
    /// The file output goes to; nil for standard output.
    private(set) var path: String?
    private var descriptor: Int32?
    /// Whether `.timer on` is in effect.
    var timer = false
    /// How tables print (`.mode`): as tables, expanded, or expanded when too wide for the terminal.
    var tableMode = TableWriter.Expansion.auto

    deinit { close() }

    /// Sends output to `path` (created or emptied) from the next command on; nil sends it to standard output.
    func redirect(to path: String?) throws {
        guard let path else {
            close()
            return
        }
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else {
            throw CLIError.input("cannot write to \(path): \(String(cString: strerror(errno)))")
        }
        close()
        self.path = path
        descriptor = opened
    }

    /// Runs `body` with its output where it should go, then says how long it took when the timer is on.
    func run(timed: Bool, _ body: () -> Void) {
        let start = Date(), startUsage = Self.usage()
        fflush(nil)
        var saved: Int32 = -1
        if let descriptor {
            saved = dup(STDOUT_FILENO)
            dup2(descriptor, STDOUT_FILENO)
        }
        TableWriter.expansion = tableMode
        body()
        TableWriter.expansion = .table
        fflush(nil)
        if saved >= 0 {
            dup2(saved, STDOUT_FILENO)
            Foundation.close(saved)
        }
        guard timer && timed else { return }
        let usage = Self.usage()
        // sqlite3's `.timer on` line, so that tools reading one read the other.
        Console.write(String(format: "Run Time: real %.3f user %.3f sys %.3f", Date().timeIntervalSince(start),
                             usage.user - startUsage.user, usage.system - startUsage.system))
    }

    private func close() {
        if let descriptor { Foundation.close(descriptor) }
        descriptor = nil
        path = nil
    }

    /// CPU seconds this process has used, in user and system mode.
    private static func usage() -> (user: Double, system: Double) {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }
}
