/// Collects the lines of one REPL statement: a statement goes on on the next line while a quote, or a parenthesis,
/// bracket or brace outside quotes, is open (see ``CommandLineSplitter``), and the lines are joined with their
/// line breaks, which a quoted value keeps.
///
/// ```
/// cdstore> count Person --where "(age > 50
///    ...> AND active == YES)"
/// ```
struct StatementBuffer {
    /// The prompt for a statement's first line and the one for its continuation lines.
    static let prompt = "cdstore> ", continuationPrompt = "   ...> "

    private var lines: [String] = []
    /// The line number (in its source) of the statement's first line.
    private(set) var firstLine = 0

    /// Whether no line is waiting for its continuation.
    var isEmpty: Bool { lines.isEmpty }

    /// The prompt for the next line.
    var prompt: String { isEmpty ? Self.prompt : Self.continuationPrompt }

    /// The lines so far, joined.
    var text: String { lines.joined(separator: "\n") }

    /// Adds `line` (number `number` in its source); returns the statement when it is complete. Dot-commands,
    /// comments and blank lines are complete on their own line.
    mutating func add(_ line: String, number: Int) -> String? {
        if lines.isEmpty {
            firstLine = number
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix(".") || trimmed.hasPrefix("#") { return line }
        }
        lines.append(line)
        let statement = text
        guard !CommandLineSplitter.isOpen(statement) else { return nil }
        lines = []
        return statement
    }

    /// Drops the lines collected so far (Ctrl-C, or end of input), returning them.
    @discardableResult
    mutating func reset() -> String {
        defer { lines = [] }
        return text
    }
}
