import CReadline
import CReadlineSupport
import Foundation

/// Reads the REPL's lines: GNU readline on a terminal (editing, history, Ctrl-R search, tab completion, Ctrl-C
/// abandoning the line), plain lines otherwise, so that scripts can pipe statements in.
final class LineReader {
    /// What a read gave.
    enum Input: Equatable {
        case line(String)
        /// Ctrl-C at the prompt.
        case interrupted
        case end
    }

    /// Whether lines come from a terminal.
    let isInteractive: Bool
    /// The history file, when history is kept.
    let historyFile: String?
    private let interrupts: InterruptHandler?

    /// The history file: `$CDSTORE_HISTORY`, else `~/.cdstore_history`.
    static var defaultHistoryFile: String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CDSTORE_HISTORY"], !path.isEmpty { return path }
        return environment["HOME"].map { $0 + "/.cdstore_history" }
    }

    /// A reader of standard input; on a terminal, with `completion` for Tab (given the word and the statement's
    /// text before it) and history in `historyFile`.
    init(interactive: Bool, historyFile: String?, interrupts: InterruptHandler?,
         completion: @escaping (String, String) -> REPLCompletion.Result) {
        isInteractive = interactive
        self.historyFile = interactive ? historyFile : nil
        self.interrupts = interrupts
        guard interactive else { return }
        LineReader.completion = completion
        cdstore_readline_configure({ text, start, _ in
            guard let text else { return nil }
            let line = Array(String(cString: cdstore_readline_buffer()).utf8)
            let before = String(decoding: line.prefix(Int(start)), as: UTF8.self)
            let result = LineReader.completion?(String(cString: text), LineReader.pending + before) ?? .words([])
            guard case .words(let words) = result else { return nil }
            cdstore_readline_words_only()
            LineReader.matches = words
            LineReader.nextMatch = 0
            return rl_completion_matches(text) { _, _ in
                guard LineReader.nextMatch < LineReader.matches.count else { return nil }
                defer { LineReader.nextMatch += 1 }
                return strdup(LineReader.matches[LineReader.nextMatch])
            }
        }, isatty(STDOUT_FILENO) == 0 ? 1 : 0)
        if let historyFile {
            if !FileManager.default.fileExists(atPath: historyFile) {
                // What was typed may include values worth keeping private.
                _ = FileManager.default.createFile(atPath: historyFile, contents: nil,
                                                   attributes: [.posixPermissions: 0o600])
            }
            cdstore_history_multiline_entries(Self.hasTimestamps(historyFile) ? 1 : 0)
            read_history(historyFile)
        }
    }

    /// Whether the history file is empty or was written with a timestamp line before each entry.
    private static func hasTimestamps(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let start = Array(handle.readData(ofLength: 2))
        return start.isEmpty || start.count == 2 && start[0] == UInt8(ascii: "#") && (0x30...0x39).contains(start[1])
    }

    // readline calls back through C function pointers, which cannot capture context.
    nonisolated(unsafe) private static var completion: ((String, String) -> REPLCompletion.Result)?
    nonisolated(unsafe) private static var matches: [String] = []
    nonisolated(unsafe) private static var nextMatch = 0
    /// The earlier lines of the statement being typed, each followed by a line break.
    nonisolated(unsafe) private static var pending = ""

    /// The next line; `pending` holds the statement's earlier lines, for completion.
    func next(prompt: String, pending: String) -> Input {
        guard isInteractive else { return readLine(strippingNewline: true).map(Input.line) ?? .end }
        LineReader.pending = pending.isEmpty ? "" : pending + "\n"
        var raw: UnsafeMutablePointer<CChar>?
        switch cdstore_read_line(prompt, interrupts?.promptDescriptor ?? -1, &raw) {
        case 1:
            guard let raw else { return .end }
            defer { free(raw) }
            return .line(String(cString: raw))
        case -1:
            return .interrupted
        default:
            return .end
        }
    }

    /// Adds a statement (all its lines, as one entry) to the history and its file.
    func remember(_ statement: String) {
        guard isInteractive, !statement.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        add_history(statement)
        if let historyFile { append_history(1, historyFile) }
    }

    /// Keeps the history file to its last 2,000 entries, as shells cap theirs.
    func finish() {
        if let historyFile { history_truncate_file(historyFile, 2000) }
    }
}
