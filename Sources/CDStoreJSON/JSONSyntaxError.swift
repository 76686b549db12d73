/// Malformed JSON, with the 1-based line and (byte) column of the problem.
///
/// `description` is the form cdstore prints: `malformed JSON at line 2, column 9: expected ':' after key "i16"`.
package struct JSONSyntaxError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What is wrong, without the place (`expected ',' or '}'`).
    package var message: String
    package var line: Int
    /// The byte column within the line, 1-based.
    package var column: Int

    package init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String { "malformed JSON at line \(line), column \(column): \(message)" }
}

/// Where a JSON value starts: 1-based line and byte column.
package struct JSONLocation: Equatable, Sendable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// How a scan of the bytes at hand ended without a value: the bytes ran out before the value did (read more and
/// scan again from the value's start), or the input is malformed.
enum ScanFailure: Error {
    case needMore
    case syntax(JSONSyntaxError)
}
