import CReadline
import Foundation

/// Reads lines for the REPL: GNU readline (editing, history, tab completion) on a terminal, plain lines
/// otherwise, so scripts can pipe commands in.
final class LineReader {
    private let interactive: Bool
    private let historyFile: String?

    init(session: REPLSession) {
        interactive = isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0
        historyFile = interactive ? ProcessInfo.processInfo.environment["HOME"].map { $0 + "/.cdstore_history" } : nil
        guard interactive else { return }
        LineReader.session = session
        cdstore_readline_configure { text, start, _ in
            guard let text else { return nil }
            LineReader.matches = LineReader.session?.completions(for: String(cString: text), isFirst: start == 0) ?? []
            LineReader.nextMatch = 0
            cdstore_readline_no_filename_completion()
            return rl_completion_matches(text) { _, _ in
                guard LineReader.nextMatch < LineReader.matches.count else { return nil }
                defer { LineReader.nextMatch += 1 }
                return strdup(LineReader.matches[LineReader.nextMatch])
            }
        }
        if let historyFile { read_history(historyFile) }
    }

    // readline calls back through C function pointers, which cannot capture context.
    nonisolated(unsafe) private static var session: REPLSession?
    nonisolated(unsafe) private static var matches: [String] = []
    nonisolated(unsafe) private static var nextMatch = 0

    /// The next line, or nil at end of input.
    func next(prompt: String) -> String? {
        guard interactive else { return readLine(strippingNewline: true) }
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(raw)
            if let historyFile { append_history(1, historyFile) }
        }
        return line
    }

    /// Makes sure the history file exists so that appending to it works.
    func prepareHistory() {
        guard let historyFile, !FileManager.default.fileExists(atPath: historyFile) else { return }
        FileManager.default.createFile(atPath: historyFile, contents: nil)
    }
}
