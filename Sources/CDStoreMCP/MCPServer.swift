import CDStore
import Foundation

/// `cdstore mcp`: a Core Data store, or the stores a scan of folders finds, for AI assistants over the Model Context
/// Protocol (protocol version 2025-06-18), on standard input and output: newline-delimited JSON-RPC 2.0 messages.
///
/// Messages are answered one at a time, in order. Every request gets exactly one response; a message that is not
/// JSON, not a JSON-RPC 2.0 request, names no known method or carries wrong parameters gets an error response
/// (-32700, -32600, -32601, -32602), and a tool that fails on its input returns a result with `isError: true`
/// whose text names the argument and quotes it. Notifications get no response.
///
/// ```swift
/// let store = try CDStore(path: "App.sqlite", options: [.readOnly])
/// MCPServer(store: store).run()
/// MCPServer(scanning: ["~/Library/Developer/CoreSimulator/Devices"]).run()
/// ```
public final class MCPServer {
    /// What the server serves.
    enum Serving {
        /// One store, opened by the caller.
        case one(CDStore)
        /// The stores a scan finds, each named by a tool's `store` argument.
        case scan(StoreCatalog)
    }

    /// The protocol version answered when the client asks for one the server does not know.
    public static let protocolVersion = "2025-06-18"
    /// The versions the server speaks (they differ in nothing it uses).
    public static let supportedVersions = ["2025-06-18", "2025-03-26", "2024-11-05"]
    /// The longest message read, in bytes; a longer line is answered with -32600 and skipped.
    public static let maximumMessageBytes = 4 * 1024 * 1024

    let serving: Serving
    /// Whether the writing tools are offered (the store must then be open for writing).
    public let allowWrites: Bool
    let version: String

    /// A server on `store`; `allowWrites` offers insert, update and delete.
    public init(store: CDStore, allowWrites: Bool = false, version: String = "1.0") {
        serving = .one(store)
        self.allowWrites = allowWrites && !store.isReadOnly
        self.version = version
    }

    /// A read-only server on the Core Data and SwiftData stores under `roots` (folders, backups or files, as
    /// ``StoreScanner`` scans them): a `list_stores` tool, and a `store` argument (a path `list_stores` gives, or
    /// an `@app` id) on every reading tool. No store outside the scan can be named; stores are read without
    /// changing a byte under the roots, each with the model it keeps, and at most `maximumOpenStores` are kept open.
    /// The scan runs when a tool first needs it, on a task the calling thread waits for: serve from a thread of
    /// its own (the main thread, as `cdstore mcp` does), not from a task of Swift's cooperative pool.
    public init(scanning roots: [String], maximumOpenStores: Int = 8, version: String = "1.0") {
        serving = .scan(StoreCatalog(roots: roots, maximumOpen: maximumOpenStores))
        allowWrites = false
        self.version = version
    }

    /// The scanned stores open now (0 for a server of one store).
    var openStoreCount: Int {
        if case .scan(let catalog) = serving { return catalog.openCount }
        return 0
    }

    /// Whether the server serves scanned stores.
    var scanning: Bool {
        if case .scan = serving { return true }
        return false
    }

    /// Serves until standard input ends: reads lines, writes one response line per request to standard output.
    public func run(input: FileHandle = .standardInput, output: FileHandle = .standardOutput) {
        var reader = LineReader(handle: input, maximum: Self.maximumMessageBytes)
        while let line = reader.next() {
            let reply: String?
            switch line {
            case .line(let data): reply = respond(to: data)
            case .tooLong(let size):
                reply = Self.errorResponse(id: .null, .invalidRequest("the message is longer than \(Self.maximumMessageBytes) bytes (\(size) read)"))
            }
            if let reply { output.write(Data((reply + "\n").utf8)) }
        }
    }

    /// The response line to one message, or nil for a notification or a response.
    public func respond(to data: Data) -> String? {
        let trimmed = data.filter { $0 != UInt8(ascii: "\r") }
        if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        let message: JSONValue
        do {
            message = try JSONValue.parse(trimmed)
        } catch {
            return Self.errorResponse(id: .null, .parse("the message is not JSON: \(Self.excerpt(trimmed))"))
        }
        guard case .object = message else {
            if case .array = message {
                return Self.errorResponse(id: .null, .invalidRequest("batches are not part of MCP 2025-06-18: send one message per line"))
            }
            return Self.errorResponse(id: .null, .invalidRequest("a message is a JSON object, not \(message.typeName) \(ToolArguments.quote(message))"))
        }
        let id = message["id"]
        let validID: JSONValue?
        switch id {
        case nil: validID = nil
        case .string?, .integer?: validID = id
        case let other?:
            return Self.errorResponse(id: .null, .invalidRequest("an id is a string or an integer, not \(other.typeName) \(ToolArguments.quote(other))"))
        }
        guard message["jsonrpc"] == .string("2.0") else {
            return Self.errorResponse(id: validID ?? .null, .invalidRequest("\"jsonrpc\" must be \"2.0\""))
        }
        guard let methodValue = message["method"] else {
            // A response to a request of ours (the server sends none) or a malformed message.
            if validID != nil, message["result"] != nil || message["error"] != nil { return nil }
            return Self.errorResponse(id: validID ?? .null, .invalidRequest("the message has no \"method\""))
        }
        guard case .string(let method) = methodValue else {
            return Self.errorResponse(id: validID ?? .null, .invalidRequest("\"method\" must be a string, not \(methodValue.typeName)"))
        }
        let params = message["params"]
        if let params, params != .null {
            guard case .object = params else {
                guard let validID else { return nil }
                return Self.errorResponse(id: validID, .invalidParams("\"params\" must be an object, not \(params.typeName)"))
            }
        }
        guard let validID else { return nil } // a notification: nothing to answer
        do {
            let result = try handle(method, params: params == .null ? nil : params)
            return JSONValue.object([("jsonrpc", "2.0"), ("id", validID), ("result", result)]).text
        } catch let error as RPCError {
            return Self.errorResponse(id: validID, error)
        } catch {
            return Self.errorResponse(id: validID, RPCError(code: -32603, "internal error: \(error)"))
        }
    }

    /// Runs one request's method.
    func handle(_ method: String, params: JSONValue?) throws -> JSONValue {
        switch method {
        case "initialize":
            guard case .string(let asked)? = params?["protocolVersion"] else {
                throw RPCError.invalidParams("initialize needs \"protocolVersion\" (a string)")
            }
            let version = Self.supportedVersions.contains(asked) ? asked : Self.protocolVersion
            return [
                "protocolVersion": .string(version),
                "capabilities": ["tools": ["listChanged": false], "resources": ["listChanged": false, "subscribe": false]],
                "serverInfo": ["name": "cdstore", "title": "cdstore: a Core Data store", "version": .string(self.version)],
                "instructions": .string(instructions),
            ]
        case "ping":
            return [:]
        case "tools/list":
            return ["tools": .array(ToolCatalog.tools(allowWrites: allowWrites, scanning: scanning).map(\.listing))]
        case "tools/call":
            guard case .string(let name)? = params?["name"] else {
                throw RPCError.invalidParams("tools/call needs \"name\" (a string)")
            }
            guard let tool = ToolCatalog.tool(named: name, allowWrites: allowWrites, scanning: scanning) else {
                if scanning && ToolCatalog.all.contains(where: { $0.name == name }) {
                    throw RPCError.invalidParams("unknown tool '\(name)': a server of scanned stores is read-only "
                                                 + "(serve one store with --store PATH --allow-writes to write)")
                }
                if ToolCatalog.all.contains(where: { $0.name == name }) {
                    throw RPCError.invalidParams("unknown tool '\(name)': this server is read-only (start it with --allow-writes to write)")
                }
                throw RPCError.invalidParams("unknown tool '\(name.prefix(120))'")
            }
            return callTool(tool, arguments: params?["arguments"])
        case "resources/list":
            switch serving {
            case .one(let store): return ["resources": .array(Resources(store: store).listing())]
            case .scan(let catalog): return ["resources": .array(ScannedStoreTools(catalog: catalog).resourceListing())]
            }
        case "resources/templates/list":
            return ["resourceTemplates": .array(scanning ? ScannedStoreTools.templates : Resources.templates)]
        case "resources/read":
            guard case .string(let uri)? = params?["uri"] else {
                throw RPCError.invalidParams("resources/read needs \"uri\" (a string)")
            }
            switch serving {
            case .one(let store): return ["contents": [try Resources(store: store).read(uri)]]
            case .scan(let catalog): return ["contents": [try ScannedStoreTools(catalog: catalog).read(uri)]]
            }
        default:
            throw RPCError.methodNotFound(String(method.prefix(120)))
        }
    }

    /// A tool's result: its JSON as text and as structured content, or its error as a result with `isError`.
    func callTool(_ tool: ToolCatalog.Tool, arguments value: JSONValue?) -> JSONValue {
        do {
            let arguments = try ToolArguments(value, accepted: tool.argumentNames)
            let result: JSONValue
            switch serving {
            case .one(let store):
                result = try ToolRunner(store: store).run(tool, arguments: arguments)
            case .scan(let catalog) where tool.name == ToolCatalog.listStores.name:
                result = try ScannedStoreTools(catalog: catalog).listStores(arguments)
            case .scan(let catalog):
                let store = try catalog.store(named: try arguments.string("store", required: true)!)
                result = try ToolRunner(store: store).run(tool, arguments: arguments)
            }
            return ["content": [["type": "text", "text": .string(result.text)]], "structuredContent": result, "isError": false]
        } catch {
            let text: String = switch error {
            case let error as ToolError: error.text
            case let error as CDStoreError: Failure.toolError(error).text
            default: "\(error)"
            }
            return ["content": [["type": "text", "text": .string(text)]], "isError": true]
        }
    }

    /// What the assistant is told at initialization.
    var instructions: String {
        switch serving {
        case .one(let store):
            "A Core Data store (\(store.path)), in the app's own terms: entities and properties by the model's names, "
                + "NSPredicate filters, typed values. Start with describe_store and describe_model. "
                + (allowWrites ? "Writes are allowed: insert, update and delete are dry runs unless dry_run is false."
                               : "The server is read-only: it cannot change the store.")
        case .scan(let catalog):
            "The Core Data and SwiftData stores found under \(catalog.roots.joined(separator: ", ")), in the apps' own "
                + "terms: entities and properties by the models' names, NSPredicate filters, typed values. Start with "
                + "list_stores; every other tool takes `store`: a path from it, or an app's id (\"@com.example.app\"). "
                + "Then describe_store and describe_model. The server is read-only: it cannot change a store."
        }
    }

    static func errorResponse(id: JSONValue, _ error: RPCError) -> String {
        JSONValue.object([("jsonrpc", "2.0"), ("id", id),
                          ("error", .object([("code", .integer(Int64(error.code))), ("message", .string(error.message))]))]).text
    }

    /// The start of a message, for an error about it.
    static func excerpt(_ data: Data) -> String {
        let text = String(decoding: data.prefix(60), as: UTF8.self)
        return "'" + text + (data.count > 60 ? "…'" : "'")
    }
}
