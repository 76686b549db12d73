import CDStore
import CDStoreServer
import CDStoreTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A small store with hostile strings, opened read-only, and a way to send it requests in-process.
struct ServerFixture {
    static let model = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [
          {"name": "Department", "attributes": [
             {"name": "name", "type": "String"},
             {"name": "budget", "type": "Double", "optional": true},
             {"name": "logo", "type": "Binary", "optional": true}],
           "relationships": [{"name": "people", "destination": "Person", "inverse": "department", "toMany": true,
                              "optional": true}]},
          {"name": "Person", "attributes": [
             {"name": "name", "type": "String"},
             {"name": "age", "type": "Integer 32", "optional": true},
             {"name": "notes", "type": "String", "optional": true}],
           "relationships": [{"name": "department", "destination": "Department", "inverse": "people", "optional": true}]},
          {"name": "Badge", "attributes": [{"name": "label", "type": "String"}],
           "relationships": [{"name": "holder", "destination": "Person", "optional": true}]}]}
        """
    static let script = "<script>alert(1)</script>"
    static let image = "<img src=x onerror=alert(2)>"
    static let quoteBreak = "\"><b>bold</b>"

    let folder: URL
    let path: String
    let store: CDStore

    /// The store with `people` Person objects (names `person 1`…), the first one called ``script``.
    init(people: Int = 3) throws {
        folder = try temporaryDirectory()
        let modelPath = folder.appendingPathComponent("Browse.json").path
        try Data(Self.model.utf8).write(to: URL(fileURLWithPath: modelPath))
        path = folder.appendingPathComponent("browse.sqlite").path
        do {
            let writer = try CDStore(path: path, model: .path(modelPath), options: [.create])
            try writer.write { ctx in
                let department = try ctx.insert("Department", ["name": Self.quoteBreak, "budget": 1.5,
                                                               "logo": Data([1, 2, 3, 4])])
                var first: ObjectID?
                for i in 1...people {
                    let id = try ctx.insert("Person", ["name": i == 1 ? Self.script : "person \(i)", "age": 20 + i,
                                                       "notes": i == 1 ? Self.image + String(repeating: "x", count: 500) : nil,
                                                       "department": i <= 2 ? department : nil])
                    if first == nil { first = id }
                }
                try ctx.insert("Badge", ["label": "badge", "holder": first])
            }
        }
        store = try CDStore(path: path, options: [.readOnly])
    }

    /// A store of `model` (cdstore's JSON model text) filled by `fill`, opened read-only with that model.
    init(model: String, fill: (CDStore.Context) throws -> Void) throws {
        folder = try temporaryDirectory()
        let modelPath = folder.appendingPathComponent("Model.json").path
        try Data(model.utf8).write(to: URL(fileURLWithPath: modelPath))
        path = folder.appendingPathComponent("store.sqlite").path
        try CDStore(path: path, model: .path(modelPath), options: [.create]).write(fill)
        store = try CDStore(path: path, model: .path(modelPath), options: [.readOnly])
    }

    /// The server, drawing the model page's picture the way `cdstore serve` passes it in (the server starts no
    /// program: here the drawing is the model's DOT text inside an SVG comment, so that the test sees it served).
    var server: BrowseServer {
        let model = store.model
        return BrowseServer(store: store, host: "127.0.0.1", port: 0, modelDiagram: {
            Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><!-- \(try model.diagram().dot().count) bytes of DOT --></svg>".utf8)
        })
    }

    /// Sends one request in-process and returns status, headers and body text.
    func get(_ uri: String, method: HTTPRequest.Method = .get, accept: String? = nil) async throws -> Reply {
        let app = Application(responder: server.responder())
        return try await app.test(.router) { client in
            var headers = HTTPFields()
            if let accept { headers[.accept] = accept }
            return try await client.execute(uri: uri, method: method, headers: headers) { response in
                Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
            }
        }
    }

    /// Sends many requests through one application.
    func getAll(_ uris: [String]) async throws -> [Reply] {
        let app = Application(responder: server.responder())
        return try await app.test(.router) { client in
            var replies: [Reply] = []
            for uri in uris {
                replies.append(try await client.execute(uri: uri, method: .get) { response in
                    Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
                })
            }
            return replies
        }
    }

    struct Reply: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: String
        var contentType: String { headers[.contentType] ?? "" }
        func json() throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        }
    }
}
