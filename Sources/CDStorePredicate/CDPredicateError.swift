/// The one error type of the predicate layer: parse errors, argument binding errors and evaluation errors.
///
/// Columns are 1-based and count Unicode scalars from the start of the predicate text (for ASCII text this is
/// the character and byte offset). A predicate that spans several lines is treated as one line.
package struct CDPredicateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem this is, for callers that branch on it.
    package enum Code: String, Equatable, Sendable {
        /// A token that cannot appear here, e.g. the second `>` in `age >> 3`.
        case unexpectedToken
        /// The text ended where something else was required.
        case unexpectedEnd
        /// A quoted string without its closing quote.
        case unterminatedString
        /// A malformed number, escape or character.
        case invalidLiteral
        /// A letter other than `c`, `d`, `n`, `l` inside `[…]` after an operator.
        case unknownOption
        /// An operator without its operand.
        case missingOperand
        /// A `(` without `)` or the reverse.
        case unbalancedParentheses
        /// `x NOT IN y`, which Foundation does not accept.
        case notIn
        /// A `%` specifier that is not known.
        case unknownFormatSpecifier
        /// More specifiers than arguments.
        case tooFewArguments
        /// More arguments than specifiers.
        case tooManyArguments
        /// An argument of the wrong kind for its specifier.
        case argumentMismatch
        /// `?`, which Foundation does not accept.
        case questionMark
        /// Nesting deeper than the parser's limit.
        case tooDeep
        /// A `$VARIABLE` that was not given a value.
        case unboundVariable
        /// An expression was used where a predicate is needed, or the reverse.
        case invalidStructure
        /// A regular expression in `MATCHES` that does not compile.
        case invalidRegularExpression
        /// A problem while evaluating in memory.
        case evaluation
        /// A construct the evaluator does not run (`FUNCTION`, `FETCH`, UTI operators, …).
        case unsupported
    }

    /// The kind of problem.
    package var code: Code
    /// The message without position, e.g. `unexpected '>'`.
    package var message: String
    /// The 1-based column in the predicate text, in Unicode scalars; nil for errors with no position
    /// (evaluation errors, and argument-count errors that concern the whole text).
    package var column: Int?

    /// Creates an error.
    package init(_ code: Code, _ message: String, column: Int? = nil) {
        self.code = code
        self.message = message
        self.column = column
    }

    /// `unexpected '>' at column 6`, or just the message when there is no column.
    package var description: String {
        guard let column else { return message }
        return "\(message) at column \(column)"
    }

    /// The message with the predicate and a caret under the column, for a terminal:
    ///
    ///     error: predicate: unexpected '>' at column 6
    ///       age >> 3
    ///            ^
    package func rendered(in text: String) -> String {
        var out = "error: predicate: \(description)"
        guard let column else { return out }
        // Control characters would break the caret alignment, so they are shown as spaces.
        var scalars = text.unicodeScalars.map { $0.value < 0x20 ? " " : $0 }
        var caret = max(0, column - 1)
        // A long predicate is shown as the 60 characters each side of the column, so the line fits a terminal.
        let window = 60
        if scalars.count > 2 * window + 1 {
            let start = max(0, min(caret - window, scalars.count - 2 * window - 1))
            let end = min(scalars.count, start + 2 * window + 1)
            scalars = (start > 0 ? Array("…".unicodeScalars) : []) + Array(scalars[start..<end])
                + (end < text.unicodeScalars.count ? Array("…".unicodeScalars) : [])
            caret = caret - start + (start > 0 ? 1 : 0)
        }
        out += "\n  " + String(String.UnicodeScalarView(scalars))
        out += "\n  " + String(repeating: " ", count: caret) + "^"
        return out
    }
}
