import CDStore
import CDStoreServer
import CDStoreTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// What the server refuses, and that refusing is always a 4xx with a message: methods, sizes, malformed input,
/// and random requests.
@Suite struct SafetyTests {
    @Test func methodsOtherThanGetAndHeadAre405() async throws {
        let fixture = try ServerFixture()
        for method in [HTTPRequest.Method.post, .put, .delete, .patch, .options] {
            let reply = try await fixture.get("/Person", method: method)
            #expect(reply.status == 405, "\(method)")
            #expect(reply.headers[.allow] == "GET, HEAD")
            #expect(reply.body.contains("read-only"))
        }
        let head = try await fixture.get("/Person", method: .head)
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test func badInputIsA4xxWithAMessage() async throws {
        let fixture = try ServerFixture()
        let cases: [(String, Int, String)] = [
            ("/Nobody", 404, "no entity 'Nobody' in the model"),
            ("/Persn", 404, "did you mean 'Person'?"),
            ("/Person/p999", 404, "no Person object with primary key 999"),
            ("/Person/q1", 404, "is not an object key"),
            ("/Person/p1/nosuch", 404, "Person has no attribute 'nosuch'"),
            ("/Person?limit=0", 400, "limit must be a whole number from 1 to 500"),
            ("/Person?limit=501", 400, "limit must be a whole number from 1 to 500"),
            ("/Person?after=-3", 400, "after must be a whole number of 0 or more"),
            ("/Person?sort=nosuch", 400, "cannot sort by 'nosuch'"),
            ("/Person?sort=department", 400, "cannot sort by 'department'"),
            ("/Person?where=" + String(repeating: "a", count: 2001), 400, "at most 2000 are accepted"),
            ("/Person?where=%ZZ", 400, "not valid percent-encoded UTF-8"),
            ("/%FF", 400, "not valid percent-encoded UTF-8"),
            ("/x-coredata://nonsense", 400, "not an object ID"),
            ("/a/b/c/d", 404, "no page at /a/b/c/d"),
            ("/" + String(repeating: "a", count: 9000), 414, "at most 8192 are accepted"),
            ("/Person?where=name%20%3D%3D%20%25%40", 400, ""),
        ]
        for (uri, status, message) in cases {
            let reply = try await fixture.get(uri)
            #expect(reply.status == status, "\(uri.prefix(60)): \(reply.body.prefix(300))")
            #expect(message.isEmpty || reply.body.contains(HTMLEscaped(message)), "\(uri.prefix(60)): \(reply.body.prefix(600))")
        }
    }

    @Test func browsingChangesNoByteOfTheStore() async throws {
        let fixture = try ServerFixture(people: 30)
        let before = Self.files(fixture.path)
        let replies = try await fixture.getAll([
            "/", "/Person", "/Person?sort=-age&limit=5", "/Person?where=age%20%3E%2030", "/Person/p1", "/Department/p1",
            "/Department/p1/logo", "/_model", "/_export/Person?format=csv", "/Person.json", "/Person?where=%3E%3E",
        ])
        #expect(replies.allSatisfy { $0.status < 500 })
        #expect(Self.files(fixture.path) == before)
    }

    @Test func immutableBrowsingLeavesStoreWalAndShmAlone() async throws {
        let fixture = try ServerFixture()
        let before = Self.files(fixture.path, shm: true)
        let store = try CDStore(path: fixture.path, options: [.readOnly, .immutable])
        let server = HistoryServer(store: store)
        for uri in ["/", "/Person", "/Person/p1", "/_export/Person?format=ndjson"] {
            #expect(try await server.get(uri).status == 200)
        }
        #expect(Self.files(fixture.path, shm: true) == before)
    }

    /// Random paths, query strings, predicates and page keys: never a 5xx, and every 4xx says why.
    @Test func randomRequestsAreAnswered2xx3xxOr4xx() async throws {
        let fixture = try ServerFixture(people: 5)
        var generator = SeededGenerator(state: 28)
        let pieces = ["Person", "Department", "Badge", "p1", "p0", "p-1", "p99999999999999999999", "_model", "_history",
                      "_export", "_static", "style.css", ".json", "x-coredata:", "%00", "%", "%2F", "..", "<script>", "'",
                      "\"", "?", "&", "=", "#", "+", "where", "sort", "after", "limit", "from", "rel", "format", "-age",
                      "name", "age > 3", "ANY", "SUBQUERY(", "@count", "%@", "%K", "$x", "{1,2}", "IN", "MATCHES '(('",
                      "people.@avg.age", "department.name", "CAST(", "FUNCTION(", "\u{0}", "é", "😀", "\\", "[c]", "ndjson"]
        var uris: [String] = []
        for _ in 0..<300 {
            var uri = "/"
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let piece = pieces.randomElement(using: &generator)!
                let separator = ["", "/", "?", "&", "=", "%20", "+"].randomElement(using: &generator)!
                uri += separator + (Bool.random(using: &generator) ? HTMLEscapedURL(piece) : piece)
            }
            uris.append(uri)
        }
        let replies = try await fixture.getAll(uris)
        for (uri, reply) in zip(uris, replies) {
            #expect(reply.status < 500, "\(uri): \(reply.status) \(reply.body.prefix(300))")
            if reply.status >= 400 {
                #expect(reply.body.contains("class=\"error\"") || reply.body.contains("\"error\":"), "\(uri)")
            }
        }
        // Random predicates through the box: a 200 or a 400 that shows the error.
        var predicates: [String] = []
        for _ in 0..<150 {
            let words = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            predicates.append(words.joined(separator: " "))
        }
        let filtered = try await fixture.getAll(predicates.map { "/Person?where=" + HTMLEscapedURL($0) })
        for (predicate, reply) in zip(predicates, filtered) {
            #expect(reply.status == 200 || reply.status == 400, "\(predicate): \(reply.status) \(reply.body.prefix(300))")
        }
    }

    static func files(_ path: String, shm: Bool = false) -> [Data?] {
        (shm ? ["", "-wal", "-shm"] : ["", "-wal"]).map { FileManager.default.contents(atPath: path + $0) }
    }
}

/// `text` as the pages escape it.
func HTMLEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#39;")
}

/// `text` percent-encoded for a query value.
func HTMLEscapedURL(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
}
