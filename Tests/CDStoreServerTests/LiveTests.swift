import CDStore
@testable import CDStoreServer
import CDStoreTestSupport
import Foundation
import Testing

/// `--watch`: committed changes reach the pages that listen, as Server-Sent Events; the script is served only
/// then, and the Content-Security-Policy allows the server's own script only then.
@Suite struct LiveTests {
    @Test func aCommittedInsertReachesTheEntityStream() async throws {
        let fixture = try ViewFixture(settings: BrowseSettings(watch: true))
        let live = try #require(StoreBrowser(store: fixture.store, settings: fixture.settings).live)
        let stream = live.listen(.entity("Employee"))
        let other = live.listen(.entity("Badge"))
        let watching = Task { await live.run() }
        defer { watching.cancel() }
        let writer = try CDStore(path: fixture.path, model: .path(ViewFixture.model))
        // The watcher takes its starting point when made: wait for the first heartbeat-free poll before writing.
        try await Task.sleep(for: .milliseconds(200))
        try writer.write { ctx in
            let research = try #require(try ctx.fetchOne("Department", matching: .equal("name", "R&D"))).objectID
            try ctx.insert("Manager", ["employeeNumber": 77, "firstName": "New <b>one</b>", "lastName": "Hire", "salary": 1,
                                       "department": research])
        }
        var received: [String] = []
        for await text in stream {
            received.append(text)
            if text.hasPrefix("event: change") { break }
        }
        #expect(received.first == "retry: 2000\n: listening\n\n")
        let event = try #require(received.last)
        let data = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        let change = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        #expect(change["kind"] as? String == "inserted" && change["entity"] as? String == "Manager")
        #expect(change["href"] as? String == "/Manager/p32" && change["label"] as? String == "Manager 77")
        #expect((change["values"] as? [String: String])?["firstName"] == "New <b>one</b>")
        // A to-one reads as its object's label, with the object's address beside it.
        #expect((change["values"] as? [String: String])?["department"] == "R&D")
        #expect((change["links"] as? [String: String])?["department"] == "/Department/p1")
        live.stop()
        // The Badge page heard nothing but its greeting (and the comments that keep an idle stream open, when the
        // test ran long enough for one), and every stream ends when the server stops.
        var badges: [String] = []
        for await text in other where text != ": still here\n\n" { badges.append(text) }
        #expect(badges == ["retry: 2000\n: listening\n\n"])
    }

    @Test func theScriptAndItsPolicyComeWithWatchingOnly() async throws {
        let watching = try ViewFixture(settings: BrowseSettings(watch: true))
        let page = try await watching.get("/Employee")
        #expect(page.body.contains("<script src=\"/_static/live.js\" defer></script></head><body data-events=\"/_events?entity=Employee\">"))
        #expect(page.headers[.init("Content-Security-Policy")!] == "default-src 'none'; style-src 'self'; img-src 'self' data:; "
                + "script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
        let object = try await watching.get("/Employee/p1").body
        #expect(object.contains("data-events=\"/_events?object=%2FEmployee%2Fp1\""))
        let script = try await watching.get("/_static/live.js")
        #expect(script.status == 200 && script.contentType == "text/javascript; charset=utf-8")
        #expect(script.body.contains("textContent") && !script.body.contains("innerHTML"))

        let still = try ViewFixture()
        let plain = try await still.get("/Employee")
        #expect(!plain.body.contains("<script") && plain.body.contains("</head><body>"))
        #expect(!(plain.headers[.init("Content-Security-Policy")!] ?? "").contains("script-src"))
        #expect(try await still.get("/_static/live.js").status == 404)
        #expect(try await still.get("/_events?entity=Employee").status == 404)
    }
}
