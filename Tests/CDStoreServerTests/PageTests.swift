import CDStore
import CDStoreServer
import CDStoreTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The pages and their JSON, answered in-process through Hummingbird's router test framework.
@Suite struct PageTests {
    @Test func homeListsTheStoreAndEveryEntityWithItsCount() async throws {
        let fixture = try ServerFixture()
        let reply = try await fixture.get("/")
        #expect(reply.status == 200)
        #expect(reply.contentType == "text/html; charset=utf-8")
        #expect(reply.body.contains("<a href=\"/Person\">Person</a></td><td></td><td class=\"num\">3</td>"))
        #expect(reply.body.contains("<a href=\"/Department\">Department</a></td><td></td><td class=\"num\">1</td>"))
        #expect(reply.body.contains("<dt>journal mode</dt><dd>wal</dd>"))
        #expect(reply.body.contains("<dt>opened</dt><dd>read-only</dd>"))
        let json = try await fixture.get("/index.json").json()
        #expect(json["journalMode"] as? String == "wal")
        #expect(json["readOnly"] as? Bool == true)
        let entities = try #require(json["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["Badge", "Department", "Person"])
        #expect(entities.map { $0["objects"] as? Int } == [1, 1, 3])
        let accepted = try await fixture.get("/", accept: "application/json")
        #expect(accepted.contentType == "application/json; charset=utf-8")
        #expect(try accepted.json()["uuid"] as? String == fixture.store.storeUUID)
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        let fixture = try ServerFixture()
        for uri in ["/", "/Person", "/nope", "/Person/p1", "/_static/style.css"] {
            let reply = try await fixture.get(uri)
            #expect(reply.headers[.init("Content-Security-Policy")!]
                    == "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
            #expect(reply.headers[.init("X-Content-Type-Options")!] == "nosniff")
        }
    }

    @Test func storedMarkupIsEscapedEverywhere() async throws {
        let fixture = try ServerFixture()
        for uri in ["/Person", "/Person/p1", "/Department", "/Department/p1", "/Person?where=name%20BEGINSWITH%20%22%3C%22"] {
            let body = try await fixture.get(uri).body
            #expect(!body.contains("<script"), "\(uri)")
            #expect(!body.contains("<img"), "\(uri)")
            #expect(!body.contains("<b>"), "\(uri)")
        }
        let people = try await fixture.get("/Person").body
        #expect(people.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let department = try await fixture.get("/Department/p1").body
        #expect(department.contains("&quot;&gt;&lt;b&gt;bold&lt;/b&gt;"))
    }

    @Test func entityPageShowsColumnsLinksAndCounts() async throws {
        let fixture = try ServerFixture()
        let body = try await fixture.get("/Person").body
        #expect(body.contains("<p id=\"count\">3 objects</p>"))
        #expect(body.contains("<th data-key=\"name\"><a href=\"/Person?sort=name\">name</a></th>"))
        // To-one relationships link to their object, read as its label; a to-many shows its count linking to the
        // object's list.
        #expect(body.contains("<a href=\"/Department/p1\" class=\"label\" title=\"Department/p1\">&quot;&gt;&lt;b&gt;bold&lt;/b&gt;</a>"))
        let departments = try await fixture.get("/Department").body
        #expect(departments.contains("<a href=\"/Department/p1#rel-people\">2</a>"))
        #expect(departments.contains("<td>4 bytes</td>"))
        // Long text is cut in tables and whole on the object's page.
        #expect(body.contains("<span class=\"trunc\">… (528 characters)</span>"))
        let object = try await fixture.get("/Person/p1").body
        #expect(object.contains(String(repeating: "x", count: 500)))
    }

    @Test func sortingAndKeysetPagingWalkEveryObjectOnce() async throws {
        let fixture = try ServerFixture(people: 12)
        var seen: [String] = []
        var uri: String? = "/Person.json?sort=-age&limit=5"
        var pages = 0
        while let next = uri {
            let json = try await fixture.get(next).json()
            let objects = try #require(json["objects"] as? [[String: Any]])
            seen += objects.compactMap { $0["name"] as? String }
            uri = json["next"] as? String
            pages += 1
        }
        #expect(pages == 3)
        #expect(seen == (2...12).reversed().map { "person \($0)" } + [ServerFixture.script])
        let first = try await fixture.get("/Person?sort=-age&limit=5").body
        #expect(first.contains("<a href=\"/Person?sort=-age&amp;after=8&amp;limit=5\">next »</a>"))
        #expect(first.contains("<a href=\"/Person?sort=age&amp;limit=5\">age ▼</a>"))
    }

    @Test func predicateBoxFiltersAndKeepsTheQueryInTheURL() async throws {
        let fixture = try ServerFixture(people: 6)
        let reply = try await fixture.get("/Person?where=age%20%3E%3D%2024&sort=name")
        #expect(reply.status == 200)
        #expect(reply.body.contains("<p id=\"count\">3 objects match</p>"))
        #expect(reply.body.contains("name=\"where\""))
        #expect(reply.body.contains("value=\"age &gt;= 24\""))
        #expect(reply.body.contains("href=\"/_export/Person?format=csv&amp;where=age%20%3E%3D%2024&amp;sort=name\""))
    }

    @Test func aWrongPredicateIsA400ShowingItsPosition() async throws {
        let fixture = try ServerFixture()
        let reply = try await fixture.get("/Person?where=age%20%3E%3E%203")
        #expect(reply.status == 400)
        #expect(reply.body.contains("id=\"predicate-error\""))
        #expect(reply.body.contains("^ column"))
        let json = try await fixture.get("/Person.json?where=nosuch%20%3D%3D%201")
        #expect(json.status == 400)
        #expect((try json.json()["error"] as? String)?.contains("nosuch") == true)
        // The message appears once, without the library's "predicate: " prefix doubled.
        #expect(!reply.body.contains("predicate: predicate:"))
        let unknown = try await fixture.get("/Person?where=nosuch%20%3D%3D%201")
        #expect(unknown.status == 400 && unknown.body.contains("id=\"predicate-error\""))
    }

    @Test func objectPageListsRelationshipsInversesAndPointers() async throws {
        let fixture = try ServerFixture()
        let body = try await fixture.get("/Person/p1").body
        #expect(body.contains("<td>people</td>"))
        #expect(body.contains("<a href=\"/Department/p1\" class=\"label\" title=\"Department/p1\">"))
        // Badge.holder has no inverse: the person's page shows it as a filtered Badge list.
        #expect(body.contains("Badge.holder"))
        let department = try await fixture.get("/Department/p1").body
        #expect(department.contains("2 objects: <a href=\"/Person/p1\" class=\"label\" title=\"Person/p1\">&lt;script&gt;alert(1)&lt;/script&gt;</a>, "
                                    + "<a href=\"/Person/p2\" class=\"label\" title=\"Person/p2\">person 2</a>"))
        #expect(department.contains("<a href=\"/Department/p1/logo\">download</a>"))
        let logo = try await fixture.get("/Department/p1/logo")
        #expect(logo.status == 200 && logo.contentType == "application/octet-stream")
        #expect(Array(logo.body.utf8) == [1, 2, 3, 4])
        let json = try await fixture.get("/Department/p1.json").json()
        #expect((json["logo"] as? [String: Any])?["bytes"] as? Int == 4)
        let people = try #require(json["people"] as? [[String: Any]])
        #expect(people.map { $0["_id"] as? String } == ["x-coredata://\(fixture.store.storeUUID)/Person/p1",
                                                         "x-coredata://\(fixture.store.storeUUID)/Person/p2"])
        #expect(people.map { $0["_label"] as? String } == [ServerFixture.script, "person 2"])
        #expect(people.map { $0["_href"] as? String } == ["/Person/p1", "/Person/p2"])
    }

    @Test func objectIDURIsRedirectToTheObjectPage() async throws {
        let fixture = try ServerFixture()
        let reply = try await fixture.get("/x-coredata://\(fixture.store.storeUUID)/Person/p2")
        #expect(reply.status == 303)
        #expect(reply.headers[.location] == "/Person/p2")
        let other = try await fixture.get("/x-coredata://00000000-0000-0000-0000-000000000000/Person/p2")
        #expect(other.status == 404)
        let query = try await fixture.get("/_object?id=x-coredata%3A%2F%2F\(fixture.store.storeUUID)%2FPerson%2Fp1")
        #expect(query.headers[.location] == "/Person/p1")
    }

    @Test func modelPageListsRulesAndTheDiagram() async throws {
        let fixture = try ServerFixture()
        let body = try await fixture.get("/_model").body
        #expect(body.contains("<img class=\"diagram\" src=\"/_model.svg\""))
        #expect(body.contains("<td>age</td><td>Integer 32</td><td>optional</td>"))
        #expect(body.contains("<td>holder</td><td>to-one Person</td><td>inverse none, delete Nullify, optional</td>"))
        let svg = try await fixture.get("/_model.svg")
        #expect(svg.status == 200 && svg.contentType == "image/svg+xml" && svg.body.contains("<svg"))
        #expect(svg.body.contains("bytes of DOT"))
    }

    /// A server given no drawing (a program without Graphviz) answers the picture with 404, and the page still works.
    @Test func aServerWithoutADrawingSaysSo() async throws {
        let fixture = try ServerFixture()
        let app = Application(responder: BrowseServer(store: fixture.store).responder())
        try await app.test(.router) { client in
            try await client.execute(uri: "/_model.svg", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/_model", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func exportsStreamEveryMatchingObject() async throws {
        let fixture = try ServerFixture(people: 4)
        let ndjson = try await fixture.get("/_export/Person?format=ndjson&where=age%20%3E%2022")
        #expect(ndjson.status == 200 && ndjson.contentType == "application/x-ndjson; charset=utf-8")
        #expect(ndjson.body.split(separator: "\n").count == 2)
        let csv = try await fixture.get("/_export/Person?format=csv&sort=-age")
        #expect(csv.body.split(separator: "\n").first == "_id,age,name,notes,department")
        #expect(csv.body.split(separator: "\n").count == 5)
        let json = try await fixture.get("/_export/Person?format=json")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [[String: Any]])
        #expect(array.count == 4 && array[0]["name"] as? String == ServerFixture.script)
        let bad = try await fixture.get("/_export/Person?format=xml")
        #expect(bad.status == 400)
    }

    @Test func historyIsA404WithoutPersistentHistory() async throws {
        let fixture = try ServerFixture()
        let reply = try await fixture.get("/_history")
        #expect(reply.status == 404)
        #expect(reply.body.contains("keeps no persistent history"))
    }

    @Test func historyPageListsTransactions() async throws {
        let folder = try temporaryDirectory()
        let modelPath = try HistoryFixture.writeModel(in: folder)
        let path = folder.appendingPathComponent("history.sqlite").path
        _ = try CDStore(path: path, model: .path(modelPath), options: [.create])
        try HistoryFixture.execute(HistoryFixture.tables + HistoryFixture.rows, on: path)
        let store = try CDStore(path: path, model: .path(modelPath), options: [.readOnly])
        let fixture = HistoryServer(store: store)
        let reply = try await fixture.get("/_history.json")
        #expect(reply.status == 200)
        let transactions = try #require(try reply.json()["transactions"] as? [[String: Any]])
        #expect(!transactions.isEmpty)
        let html = try await fixture.get("/_history")
        #expect(html.status == 200 && html.body.contains("<table id=\"history\">"))
    }
}

/// A server of any store, for stores the fixture does not make.
struct HistoryServer {
    let store: CDStore
    func get(_ uri: String) async throws -> ServerFixture.Reply {
        let app = Application(responder: BrowseServer(store: store).responder())
        return try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                ServerFixture.Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
            }
        }
    }
}
