/// A JSON-RPC 2.0 error response's code and message: what the protocol layer answers a message it cannot run.
///
/// Errors of a tool itself (a wrong predicate, a validation failure) are not these: they are a tool result with
/// `isError: true`, which the assistant reads and can act on (``ToolError``).
public struct RPCError: Error, Sendable, Equatable {
    /// The JSON-RPC error code.
    public var code: Int
    /// One sentence saying what was wrong, quoting the input.
    public var message: String

    /// Creates an error.
    public init(code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message is not JSON.
    public static func parse(_ message: String) -> RPCError { RPCError(code: -32700, message) }
    /// The JSON is not a request or notification of JSON-RPC 2.0.
    public static func invalidRequest(_ message: String) -> RPCError { RPCError(code: -32600, message) }
    /// No such method.
    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: -32601, "method not found: '\(method)'")
    }
    /// The method's parameters are wrong (an unknown tool among them, as MCP says).
    public static func invalidParams(_ message: String) -> RPCError { RPCError(code: -32602, message) }
    /// A resource that does not exist (MCP's code).
    public static func resourceNotFound(_ uri: String) -> RPCError { RPCError(code: -32002, "no resource '\(uri)'") }
}

/// A tool call that failed on its input or on the store: answered as a tool result with `isError: true`, whose
/// text names the argument at fault and, for a predicate, quotes it with a caret under the column.
public struct ToolError: Error, Sendable, Equatable {
    /// The argument at fault (`where`, `sort`, `values`), when one is.
    public var argument: String?
    /// What went wrong; several lines when it quotes the input.
    public var message: String

    /// Creates an error about `argument`.
    public init(_ argument: String?, _ message: String) {
        self.argument = argument
        self.message = message
    }

    /// The text the assistant reads: `where: unexpected '>' at column 6` and the quoted input.
    public var text: String { argument.map { "\($0): \(message)" } ?? message }
}
