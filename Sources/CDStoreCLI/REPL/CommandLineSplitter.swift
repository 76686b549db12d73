/// Splits a REPL statement into arguments the way a POSIX shell would for simple input: white space (line breaks
/// too) separates, single quotes keep everything literally, double quotes keep spaces and allow `\"` and `\\`, and
/// a backslash outside quotes escapes the next character. So predicates can be typed as on the command line:
/// `fetch Employee --where "name BEGINSWITH[c] 'a'"`.
///
/// Unlike a shell, text from an opening `(`, `[` or `{` outside quotes to its matching closer is kept as it is,
/// spaces, quotes and line breaks included, so a predicate or JSON value can be typed without quoting it:
/// `count Person --where (age > 50 AND active == YES)`.
enum CommandLineSplitter {
    /// A quote that was opened and never closed.
    struct UnterminatedQuote: Error, CustomStringConvertible {
        var quote: Character
        var description: String { "unterminated \(quote) quote" }
    }

    /// A parenthesis, bracket or brace that was opened outside quotes and never closed.
    struct UnclosedGroup: Error, CustomStringConvertible {
        var opener: Character
        var description: String { "unclosed \(opener)" }
    }

    /// The arguments of `line`; throws when a quote or group is left open.
    static func split(_ line: String) throws -> [String] {
        let scan = Scan(line)
        if let quote = scan.openQuote { throw UnterminatedQuote(quote: quote) }
        if let opener = scan.openGroups.first { throw UnclosedGroup(opener: opener) }
        return scan.arguments + (scan.inArgument ? [scan.current] : [])
    }

    /// Whether `text` leaves a quote or group open, so that the statement goes on on the next line.
    static func isOpen(_ text: String) -> Bool {
        let scan = Scan(text)
        return scan.openQuote != nil || !scan.openGroups.isEmpty
    }

    /// The arguments of `text` that are complete (white space follows them) and the one still being typed, for
    /// completion, which looks at the words before the cursor.
    static func partial(_ text: String) -> (complete: [String], current: String, inArgument: Bool) {
        let scan = Scan(text)
        return (scan.arguments, scan.current, scan.inArgument)
    }

    /// One pass over a text: the arguments found, and the state at its end.
    private struct Scan {
        var arguments: [String] = []
        var current = ""
        var inArgument = false
        var openQuote: Character?
        /// The openers of the groups open at the end, outermost first.
        var openGroups: [Character] = []

        init(_ text: String) {
            var escaped = false
            // Inside a group: a quote that keeps brackets from counting, and whether the last character escaped.
            var groupQuote: Character?
            var groupEscaped = false
            for character in text {
                if !openGroups.isEmpty {
                    current.append(character)
                    if groupEscaped {
                        groupEscaped = false
                    } else if character == "\\" {
                        groupEscaped = true
                    } else if let quote = groupQuote {
                        if character == quote { groupQuote = nil }
                    } else if character == "'" || character == "\"" {
                        groupQuote = character
                    } else if let opener = Self.opener(closedBy: character), opener == openGroups.last {
                        openGroups.removeLast()
                    } else if Self.closers[character] != nil {
                        openGroups.append(character)
                    }
                    continue
                }
                if escaped {
                    current.append(character)
                    escaped = false
                    continue
                }
                if let open = openQuote {
                    if character == open {
                        openQuote = nil
                    } else if character == "\\" && open == "\"" {
                        escaped = true
                    } else {
                        current.append(character)
                    }
                    continue
                }
                switch character {
                case "'", "\"":
                    openQuote = character
                    inArgument = true
                case "\\":
                    escaped = true
                    inArgument = true
                case " ", "\t", "\n", "\r\n":
                    if inArgument { arguments.append(current) }
                    current = ""
                    inArgument = false
                case "(", "[", "{":
                    openGroups = [character]
                    current.append(character)
                    inArgument = true
                default:
                    current.append(character)
                    inArgument = true
                }
            }
            if escaped { current.append("\\") }
        }

        static let closers: [Character: Character] = ["(": ")", "[": "]", "{": "}"]

        static func opener(closedBy character: Character) -> Character? {
            closers.first { $0.value == character }?.key
        }
    }
}
