import CDStore
@testable import CDStoreServer
import CDStoreTestSupport
import Foundation
import Testing

/// No query runs past the time limit: the library's per-call limit, the first page's bounded count with its
/// link to count exactly, and a sort that stops at the limit with a page naming the index that would help.
@Suite struct TimeLimitTests {
    @Test func aTimeLimitStopsTheQueryAndTheTransactionGoesOn() throws {
        let fixture = try ViewFixture(extraCompanies: 3000)
        try fixture.store.read { ctx throws in
            let error = #expect(throws: CDStoreError.self) {
                try ctx.withTimeLimit(.zero) { try ctx.count("Company", matching: Criteria.all.sorted(by: ["revenue"])) }
            }
            #expect(error?.code == .interrupted)
            #expect(error?.message == "stopped at the time limit of 0 ms")
            // The same snapshot reads on, without the limit once the call is over.
            #expect(try ctx.count("Company") == 3001)
            #expect(try ctx.withTimeLimit(.seconds(30)) { try ctx.count("Company") } == 3001)
            // A nested call keeps the nearer deadline.
            #expect(throws: CDStoreError.self) {
                try ctx.withTimeLimit(.zero) { try ctx.withTimeLimit(.seconds(30)) { try ctx.fetch("Company").count } }
            }
        }
    }

    @Test func theFirstPageCountsUpToTheCapThenCountsExactlyWhenAsked() async throws {
        let fixture = try ViewFixture(extraCompanies: ObjectCount.cap + 5)
        let page = try await fixture.get("/Company").body
        #expect(page.contains("<p id=\"count\">more than 10,000 objects · <a href=\"/Company?count=exact\">count exactly</a></p>"), "\(page.prefix(2000))")
        let json = try await fixture.get("/Company.json").json()
        #expect(json["count"] as? Int == 10_000 && json["countComplete"] as? Bool == false)
        let exact = try await fixture.get("/Company?count=exact").body
        #expect(exact.contains("<p id=\"count\">10,006 objects</p>"))
        // The home page's count is the exact one.
        #expect(try await fixture.get("/").body.contains("<a href=\"/Company\">Company</a></td><td></td><td class=\"num\">10,006</td>"))
    }

    @Test func aSortStoppedAtTheLimitNamesTheIndexThatWouldHelp() async throws {
        let fixture = try ViewFixture(settings: BrowseSettings(timeLimit: .zero), extraCompanies: 3000)
        let reply = try await fixture.get("/Company?sort=-revenue")
        #expect(reply.status == 200)
        #expect(reply.body.contains("<div class=\"warning\" id=\"stopped\">Sorting by -revenue stopped at the 0 ms time limit: "
                                    + "Company has no index on revenue, so SQLite reads every object to find the first page. "
                                    + "An index on Company (revenue) — a fetch index in the model — would let it read the page in order.</div>"),
                "\(reply.body.prefix(3000))")
        #expect(!reply.body.contains("<table id=\"objects\""))
        #expect(reply.body.contains("<p id=\"count\">Not counted: counting stopped at the 0 ms time limit.</p>"))
        let json = try await fixture.get("/Company.json?sort=-revenue")
        #expect(json.status == 503)
        #expect(try json.json()["stoppedAtTimeLimit"] as? Bool == true)
    }

    @Test func theHomePageCountsWithinTheLimitAndSaysWhatItDidNotCount() async throws {
        let fixture = try ViewFixture(settings: BrowseSettings(timeLimit: .zero), extraCompanies: 3000)
        let home = try await fixture.get("/").body
        #expect(home.contains("<a href=\"/Company\">Company</a></td><td></td><td class=\"num\"><span class=\"null\">not counted in time</span> "
                              + "<a href=\"/Company?count=exact\">count exactly</a></td>"), "\(home.prefix(3000))")
        let entities = try #require(try await fixture.get("/index.json").json()["entities"] as? [[String: Any]])
        let company = try #require(entities.first { $0["name"] as? String == "Company" })
        #expect(company["objects"] is NSNull && company["countStoppedAtTimeLimit"] as? Bool == true)
    }

    @Test func aCountStoppedAtTheLimitSaysHowManyThePageShows() throws {
        let fixture = try ViewFixture(extraCompanies: 3000)
        let view = try EntityView(entity: try #require(fixture.store.model.entity(named: "Company")), model: fixture.store.model,
                                  request: BrowseRequest(target: "/Company?count=exact", accept: nil))
        let count = try fixture.store.read { ctx in
            let page = try ctx.page("Company", where: nil, sort: [], limit: 50)
            return try ObjectCount.count(view, page: page, timeLimit: .zero, model: fixture.store.model, in: ctx)
        }
        #expect(count.objects == 50 && !count.isComplete && count.stoppedAtTimeLimit)
        #expect(count.words == "more than 50 objects")
    }
}
