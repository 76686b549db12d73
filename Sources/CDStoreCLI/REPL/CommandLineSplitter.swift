/// Splits a REPL line into arguments the way a POSIX shell would for simple input: white space separates,
/// single quotes keep everything literally, double quotes keep spaces and allow `\"` and `\\`, and a
/// backslash outside quotes escapes the next character. So predicates can be typed as on the command line:
/// `fetch Employee --where "name BEGINSWITH[c] 'a'"`.
enum CommandLineSplitter {
    /// A quote that was opened and never closed.
    struct UnterminatedQuote: Error, CustomStringConvertible {
        var quote: Character
        var description: String { "unterminated \(quote) quote" }
    }

    static func split(_ line: String) throws -> [String] {
        var arguments: [String] = []
        var current = ""
        var inArgument = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                inArgument = true
            case "\\":
                escaped = true
                inArgument = true
            case " ", "\t":
                if inArgument { arguments.append(current) }
                current = ""
                inArgument = false
            default:
                current.append(character)
                inArgument = true
            }
        }
        if let quote { throw UnterminatedQuote(quote: quote) }
        if escaped { current.append("\\") }
        if inArgument { arguments.append(current) }
        return arguments
    }
}
