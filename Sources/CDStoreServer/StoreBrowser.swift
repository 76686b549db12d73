import CDStore
import Foundation

/// The answer to one request, before it becomes an HTTP response.
struct BrowseReply: Sendable {
    /// How the body is made.
    enum Body: Sendable {
        case bytes([UInt8])
        /// Streamed from the store as it is encoded: the objects of `entity` matching `predicate`, in `sort`.
        case export(entity: String, predicate: String?, sort: [String], format: ExportFormat)
        /// Server-Sent Events, as long as the page listens.
        case events(AsyncStream<String>)
    }
    var status: Int
    var contentType: String
    var body: Body
    var headers: [(String, String)] = []

    static func html(_ text: String, status: Int = 200) -> BrowseReply {
        BrowseReply(status: status, contentType: "text/html; charset=utf-8", body: .bytes(Array(text.utf8)))
    }

    static func json(_ text: String, status: Int = 200) -> BrowseReply {
        BrowseReply(status: status, contentType: "application/json; charset=utf-8", body: .bytes(Array((text + "\n").utf8)))
    }

    static func redirect(_ location: String) -> BrowseReply {
        BrowseReply(status: 303, contentType: "text/plain; charset=utf-8", body: .bytes(Array("see \(location)\n".utf8)),
                    headers: [("Location", location)])
    }
}

/// The read-only web face of one open store: turns a request (method, target, `Accept`) into a reply, reading
/// the store only through the CDStore library's public API.
///
/// Pages: `/` (the store), `/<Entity>` (its objects, paged by key), `/<Entity>/p<PK>` (one object),
/// `/<Entity>/p<PK>/<attribute>` (a Binary value), `/x-coredata://…` (an object ID, redirected), `/_model`,
/// `/_model.svg`, `/_history`, `/_export/<Entity>?format=ndjson|json|csv`. A `.json` suffix or
/// `Accept: application/json` gives the same data as JSON.
public final class StoreBrowser: Sendable {
    /// The store browsed.
    public let store: CDStore

    /// Draws the model as SVG, when the program that serves can (``BrowseServer/init(store:host:port:modelDiagram:settings:)``).
    let drawModel: (@Sendable () throws -> [UInt8])?
    /// The time limit, labels and watching.
    let settings: BrowseSettings
    /// Which property labels each entity's objects.
    let labelRules: LabelRules
    /// With `--watch`, the changes committed to the store, for `/_events`.
    let live: LiveChanges?
    /// Why watching could not start, when it could not.
    let liveProblem: String?

    /// A browser of `store` (which should be open read-only: the browser never writes, but says so only then);
    /// `modelDiagram` draws the model page's picture.
    public init(store: CDStore, modelDiagram: (@Sendable () throws -> [UInt8])? = nil, settings: BrowseSettings = .init()) {
        self.store = store
        self.drawModel = modelDiagram
        self.settings = settings
        labelRules = LabelRules(model: store.model, overrides: settings.labels)
        var problem: String?
        if settings.watch {
            do {
                live = try LiveChanges(store: store, rules: labelRules, timeLimit: settings.timeLimit)
            } catch {
                live = nil
                problem = "cannot watch \(store.path): \(error)"
            }
        } else {
            live = nil
        }
        liveProblem = problem
    }

    /// The reply to a request; every failure is a 4xx reply with a message, never a thrown error.
    func reply(method: String, target: String, accept: String?) -> BrowseReply {
        var wantsJSON = false
        do {
            guard method == "GET" || method == "HEAD" else {
                var reply = errorReply(BrowseError(.methodNotAllowed, "\(method.prefix(20)) is not allowed: the server is read-only "
                                                   + "and answers GET and HEAD only"), json: false)
                reply.headers.append(("Allow", "GET, HEAD"))
                return reply
            }
            let request = try BrowseRequest(target: target, accept: accept)
            wantsJSON = request.wantsJSON
            return try route(request)
        } catch let error as BrowseError {
            return errorReply(error, json: wantsJSON)
        } catch let error as CDStoreError {
            return errorReply(Self.browseError(error, predicate: nil), json: wantsJSON)
        } catch {
            return errorReply(BrowseError(.badRequest, "\(error)"), json: wantsJSON)
        }
    }

    private func route(_ request: BrowseRequest) throws -> BrowseReply {
        let segments = request.segments
        if request.rawPath.hasPrefix("/x-coredata:") { return try objectIDRedirect(request.rawPath) }
        guard let first = segments.first else { return try home(request) }
        switch (first, segments.count) {
        case ("_static", 2) where segments[1] == "style.css":
            return BrowseReply(status: 200, contentType: "text/css; charset=utf-8", body: .bytes(Array(HTML.stylesheet.utf8)))
        case ("_static", 2) where segments[1] == "live.js" && live != nil:
            return BrowseReply(status: 200, contentType: "text/javascript; charset=utf-8", body: .bytes(Array(LiveScript.text.utf8)))
        case ("_events", 1) where live != nil: return try events(request)
        case ("index", 1) where request.wantsJSON: return try home(request)
        case ("_model", 1): return try modelPage(request)
        case ("_model.svg", 1): return try modelDiagram()
        case ("_history", 1): return try historyPage(request)
        case ("_export", 2): return try export(segments[1], request)
        case ("_object", 1):
            guard let id = request.query["id"] else { throw BrowseError(.badRequest, "/_object needs ?id=x-coredata://…") }
            return try objectIDRedirect("/" + id)
        case (_, 1): return try entityPage(first, request)
        case (_, 2), (_, 3):
            let key = segments[1]
            guard key.first == "p", key.count <= 20, let pk = Int64(key.dropFirst()), pk >= 0 else {
                throw BrowseError(.notFound, "'\(key.prefix(40))' is not an object key: object pages are /\(first)/p<number>")
            }
            if segments.count == 3 { return try binaryValue(first, pk, attribute: segments[2]) }
            return try objectPage(first, pk, request)
        default:
            throw BrowseError(.notFound, "no page at \(request.rawPath.prefix(200))")
        }
    }

    /// `/x-coredata://<uuid>/<Entity>/p<PK>` → `/<Entity>/p<PK>`, for object IDs pasted from exports and logs.
    private func objectIDRedirect(_ rawPath: String) throws -> BrowseReply {
        guard let decoded = BrowseRequest.percentDecoded(String(rawPath.dropFirst()), plusIsSpace: false),
              let id = ObjectID(uri: decoded) else {
            throw BrowseError(.badRequest, "not an object ID: object IDs look like x-coredata://<store UUID>/<Entity>/p<number>")
        }
        guard id.storeUUID == store.storeUUID else {
            throw BrowseError(.notFound, "\(id) belongs to another store (this store's UUID is \(store.storeUUID))")
        }
        try requireEntity(id.entity)
        return .redirect("/" + HTML.percentEncoded(id.entity) + "/p\(id.primaryKey)")
    }

    /// The entity called `name`, or a 404 that suggests the nearest name.
    @discardableResult
    func requireEntity(_ name: String) throws -> Entity {
        guard let entity = store.model.entity(named: name) else {
            let names = store.model.entities.map(\.name)
            let near = names.min { Self.distance($0, name) < Self.distance($1, name) }
            throw BrowseError(.notFound, "no entity '\(name.prefix(100))' in the model"
                              + (near.map { Self.distance($0, name) <= 3 ? " (did you mean '\($0)'?)" : "" } ?? ""))
        }
        return entity
    }

    /// Reads the store on a thread of its own: store reads block, and the server's threads must not wait for them.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }

    /// A library error as the 4xx it is: an unknown name is 404, everything else the request's fault (400), and
    /// a store that stays busy 503.
    static func browseError(_ error: CDStoreError, predicate: String?) -> BrowseError {
        switch error.code {
        case .unknownName: BrowseError(.notFound, error.description)
        case .busy: BrowseError(.unavailable, error.description)
        case .invalidPredicate: BrowseError(.badRequest, "predicate: " + error.message, column: error.column, predicate: predicate)
        default: BrowseError(.badRequest, error.description, predicate: predicate)
        }
    }

    private func errorReply(_ error: BrowseError, json: Bool) -> BrowseReply {
        let status = error.status.rawValue
        if json {
            var fields: [(String, ObjectValue)] = [("status", .integer(Int64(status))), ("error", .string(error.message))]
            if let column = error.column { fields.append(("column", .integer(Int64(column)))) }
            return .json(jsonText(.dictionary(fields)), status: status)
        }
        var body = HTML()
        body.element("h1", "\(status) \(Self.reason(status))")
        body.raw("<div class=\"error\">")
        body.text(error.message)
        body.raw("</div><p><a href=\"/\">Back to the store</a></p>")
        return .html(HTML.page(title: "\(status)", crumbs: [("store", "/")], body: body), status: status)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 414: "URI Too Long"
        case 503: "Service Unavailable"
        default: ""
        }
    }

    /// Levenshtein distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased().prefix(64)), b = Array(b.lowercased().prefix(64))
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
