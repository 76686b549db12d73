import CDStore
import Foundation
import Hummingbird
import Logging

/// `cdstore serve`: a read-only web face on one store, on Hummingbird.
///
/// ```swift
/// let store = try CDStore(path: "App.sqlite", options: [.readOnly])
/// let server = BrowseServer(store: store, host: "127.0.0.1", port: 0)
/// try await server.run { url in print(url) }   // until SIGINT or SIGTERM
/// ```
public struct BrowseServer: Sendable {
    /// The pages and their data.
    public let browser: StoreBrowser
    /// The address to listen on.
    public let host: String
    /// The port; 0 picks a free one.
    public let port: Int

    /// The headers every answer carries: no script may run (with `--watch`, only the server's own script, which
    /// may listen to the server's events), nothing is loaded from elsewhere, the page cannot be framed, and types
    /// are not sniffed.
    static func securityHeaders(watching: Bool) -> [(String, String)] { [
        ("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; "
            + (watching ? "script-src 'self'; connect-src 'self'; " : "") + "form-action 'self'; "
            + "base-uri 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cache-Control", "no-store"),
    ] }

    /// A server for `store` on `host`:`port` with `settings`; `modelDiagram` draws the model page's SVG (the server starts no
    /// program itself: the command line passes Graphviz's drawing), nil to leave the picture out.
    public init(store: CDStore, host: String = "127.0.0.1", port: Int = 8080,
                modelDiagram: (@Sendable () throws -> [UInt8])? = nil, settings: BrowseSettings = .init()) {
        browser = StoreBrowser(store: store, modelDiagram: modelDiagram, settings: settings)
        self.host = host
        self.port = port
    }

    /// Whether `host` is a loopback address (the only kind served without a warning).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The Hummingbird application; `onRunning` gets the URL once the port is bound.
    public func application(logLevel: Logger.Level = .warning,
                            onRunning: @escaping @Sendable (String) async -> Void = { _ in }) -> some ApplicationProtocol {
        var logger = Logger(label: "cdstore-serve")
        logger.logLevel = logLevel
        let host = self.host
        return Application(
            responder: responder(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                await onRunning("http://\(shown):\(bound)/")
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then returns; with ``BrowseSettings/watch``, watches the store meanwhile.
    public func run(logLevel: Logger.Level = .warning, onRunning: @escaping @Sendable (String) async -> Void) async throws {
        if let problem = browser.liveProblem { throw BrowseError(.unavailable, problem) }
        guard let live = browser.live else {
            try await application(logLevel: logLevel, onRunning: onRunning).runService()
            return
        }
        // Open event streams would keep the server's graceful shutdown waiting: the signal that starts it ends them.
        let signals = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { live.stop() }
            source.resume()
            return source
        }
        defer { for source in signals { source.cancel() } }
        let watching = Task { await live.run() }
        defer { watching.cancel() }
        try await application(logLevel: logLevel, onRunning: onRunning).runService()
    }

    /// The responder alone, for tests and for embedding.
    public func responder() -> CallbackResponder<BasicRequestContext> {
        let browser = self.browser
        return CallbackResponder { request, _ in
            let method = request.method.rawValue
            let target = request.head.path ?? "/"
            let accept = request.headers[.accept]
            let reply = await StoreBrowser.blocking { browser.reply(method: method, target: target, accept: accept) }
            var response = Self.response(reply, store: browser.store, watching: browser.live != nil)
            if request.method == .head { response = response.createHeadResponse() }
            return response
        }
    }

    static func response(_ reply: BrowseReply, store: CDStore, watching: Bool) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = reply.contentType
        for (name, value) in securityHeaders(watching: watching) + reply.headers {
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        let status = HTTPResponse.Status(code: reply.status)
        switch reply.body {
        case .bytes(let bytes):
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .export(let entity, let predicate, let sort, let format):
            return Response(status: status, headers: headers, body: ResponseBody { writer in
                try await ExportStream.write(store: store, entity: entity, predicate: predicate, sort: sort, format: format,
                                             to: &writer)
                try await writer.finish(nil)
            })
        case .events(let stream):
            return Response(status: status, headers: headers, body: ResponseBody { writer in
                for await text in stream { try await writer.write(ByteBuffer(string: text)) }
                try await writer.finish(nil)
            })
        }
    }
}

/// Moves an export's blocks from the thread the store encodes them on to the connection, one block in flight:
/// the encoder waits while the client reads, so memory stays flat, and stops when the client goes away.
enum ExportStream {
    struct Cancelled: Error {}

    final class Handoff: @unchecked Sendable {
        let consumed = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var cancelledFlag = false
        var cancelled: Bool {
            get { lock.withLock { cancelledFlag } }
            set { lock.withLock { cancelledFlag = newValue } }
        }
    }

    static func write(store: CDStore, entity: String, predicate: String?, sort: [String], format: ExportFormat,
                      to writer: inout any ResponseBodyWriter) async throws {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        let handoff = Handoff()
        DispatchQueue.global().async {
            do {
                _ = try store.read { ctx in
                    try ctx.export(entity, matching: try Criteria(parsing: predicate).sorted(by: sort), format: format) { bytes in
                        if handoff.cancelled { throw Cancelled() }
                        continuation.yield(ByteBuffer(bytes: bytes))
                        handoff.consumed.wait()
                        if handoff.cancelled { throw Cancelled() }
                    }
                }
            } catch {
                // The status is sent: a failure now can only end the body early (the predicate was checked first).
            }
            continuation.finish()
        }
        // However the loop ends (done, a write failing, the task cancelled), the encoder must not wait on.
        defer {
            handoff.cancelled = true
            handoff.consumed.signal()
        }
        for await buffer in stream {
            try await writer.write(buffer)
            handoff.consumed.signal()
        }
    }
}
