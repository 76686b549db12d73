/// An error of the command line itself, with the exit status it ends the program with.
public struct CLIError: Error, CustomStringConvertible {
    /// The exit status.
    public var status: ExitStatus
    /// The message, without the `error:` prefix.
    public var message: String

    public var description: String { message }

    /// Bad input or data (exit status 1).
    public static func input(_ message: String) -> CLIError { CLIError(status: .badInput, message: message) }
    /// Wrong use of the command line (exit status 2).
    public static func usage(_ message: String) -> CLIError { CLIError(status: .usage, message: message) }
}

/// The exit statuses scripts can rely on.
public enum ExitStatus: Int32, Sendable {
    /// Success.
    case success = 0
    /// Bad input or data: unknown entity or attribute, a value that does not fit, malformed JSON/CSV, a failed
    /// validation, a model with problems. Nothing was written.
    case badInput = 1
    /// Wrong use of the command line: unknown option, missing argument, conflicting options.
    case usage = 2
    /// The store does not match the model (it was saved with another model version, Core Data error 134100),
    /// or has no model cdstore can use (134130), or a write was asked of a store read with a model inferred from
    /// its tables.
    case modelMismatch = 3
    /// The store or model file cannot be opened or read (missing, not a Core Data store, permissions), or another
    /// process held the store's lock for longer than the busy timeout.
    case cannotOpen = 4
}
