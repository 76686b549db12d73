import CDStore
@testable import CDStoreServer
import CDStoreTestSupport
import Foundation
import Testing

/// Facets (value counts whose links filter), charts (SVG bars whose links select their range), and the column
/// choice kept in every link.
@Suite struct FacetAndChartTests {
    /// The number of objects a page's `where` selects, read from its JSON.
    static func count(_ fixture: ViewFixture, _ href: String) async throws -> Int {
        let json = href.replacingOccurrences(of: "/Employee?", with: "/Employee.json?")
        return try #require(try await fixture.get(json).json()["count"] as? Int)
    }

    @Test func facetsCountValuesAndTheirLinksFilter() async throws {
        let fixture = try ViewFixture()
        let page = try await fixture.get("/Employee?facet=department.name,isActive").body
        #expect(page.contains("<section class=\"facet\" data-facet=\"department.name\"><h2>department.name"))
        let rd = ViewFixture.links(page, text: "R&D").filter { $0.hasPrefix("/Employee?") }
        #expect(rd == ["/Employee?where=department.name%20%3D%3D%20%22R%26D%22&facet=department.name%2CisActive"], "\(rd)")
        #expect(page.contains(">R&amp;D</a> <span class=\"count\">21</span>"))
        #expect(page.contains(">Sales &quot;East&quot;</a> <span class=\"count\">10</span>"))
        #expect(page.contains(">true</a> <span class=\"count\">21</span>") && page.contains(">false</a> <span class=\"count\">10</span>"))
        #expect(try await Self.count(fixture, rd[0]) == 21)
        let east = try #require(ViewFixture.links(page, text: "Sales \"East\"").first { $0.hasPrefix("/Employee?") })
        #expect(try await Self.count(fixture, east) == 10)
        // Facets count within the current predicate, and their links narrow it further.
        let narrowed = try await fixture.get("/Employee?where=age%20%3E%2040&facet=isActive").body
        let inactive = try #require(ViewFixture.links(narrowed, text: "false").first)
        #expect(inactive.contains("where=%28age%20%3E%2040%29%20AND%20isActive%20%3D%3D%20NO"))
        #expect(try await Self.count(fixture, inactive) == 4)
        // JSON: property → [{value, count}].
        let json = try await fixture.get("/Employee.json?facet=department.name&facet=isActive").json()
        let facets = try #require(json["facets"] as? [String: [[String: Any]]])
        #expect(facets["department.name"]?.map { $0["value"] as? String } == ["R&D", "Sales \"East\""])
        #expect(facets["department.name"]?.map { $0["count"] as? Int } == [21, 10])
        #expect(Set(facets["isActive"]?.compactMap { $0["count"] as? Int } ?? []) == [21, 10])
    }

    @Test func relationshipAndDateFacets() async throws {
        let fixture = try ViewFixture()
        let page = try await fixture.get("/Employee?facet=department,hiredAt").body
        // A to-one relationship facets by object, read as its label; the link names the object.
        let rd = try #require(ViewFixture.links(page, text: "R&D").first { $0.hasPrefix("/Employee?") })
        #expect(try await Self.count(fixture, rd) == 21)
        // Dates by year, with links to months and days, each year a range.
        for (year, expected) in [("2019", 1), ("2020", 9), ("2021", 10), ("2022", 10), ("2023", 1)] {
            #expect(page.contains(">\(year)</a> <span class=\"count\">\(expected)</span>"), "\(year)")
            let href = try #require(ViewFixture.links(page, text: year).first)
            #expect(try await Self.count(fixture, href) == expected, "\(year)")
        }
        #expect(!ViewFixture.links(page, text: "month").isEmpty)
        let months = try await fixture.get("/Employee.json?facet=hiredAt:month&where=employeeNumber%20%3C%3D%205").json()
        let values = try #require((months["facets"] as? [String: [[String: Any]]])?["hiredAt:month"])
        #expect(values.map { $0["value"] as? String } == ["2020-01", "2020-02"])
        #expect(values.map { $0["count"] as? Int } == [4, 1])
    }

    @Test func suggestionsAndRefusedFacets() async throws {
        let fixture = try ViewFixture()
        let page = try await fixture.get("/Employee").body
        #expect(page.contains("<p class=\"suggest\" id=\"suggest\">Facet by: "))
        #expect(ViewFixture.links(page, text: "isActive").contains("/Employee?facet=isActive"))
        #expect(ViewFixture.links(page, text: "department").contains("/Employee?facet=department"))
        #expect(ViewFixture.links(page, text: "salary").contains("/Employee?chart=salary"))
        for (uri, message) in [("/Employee?facet=photo", "Binary values are not counted"), ("/Employee?facet=nosuch", "has no property 'nosuch'"),
                               ("/Department?facet=employees", "to-many"), ("/Employee?facet=salary:month", "only dates are counted by period"),
                               ("/Employee?chart=firstName", "charts draw numbers and dates")] {
            let reply = try await fixture.get(uri)
            #expect(reply.status == 400 && reply.body.contains(HTML.escape(message)), "\(uri): \(reply.body.prefix(400))")
        }
    }

    @Test func chartBarsAreLinksToTheirRanges() async throws {
        let fixture = try ViewFixture()
        let page = try await fixture.get("/Employee?chart=salary&where=salary%20%3C%20100000").body
        #expect(page.contains("<figure class=\"chart\" id=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!page.contains("<script"))
        let json = try await fixture.get("/Employee.json?chart=salary&where=salary%20%3C%20100000").json()
        let bars = try #require((json["chart"] as? [String: Any])?["bars"] as? [[String: Any]])
        #expect(bars.count >= 10 && bars.count <= 21, "\(bars.count)")
        #expect(bars.compactMap { $0["count"] as? Int }.reduce(0, +) == 30)
        let hrefs = page.matches(of: /<a class="bar" href="([^"]+)">/).map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") }
        #expect(hrefs.count == bars.count)
        for (href, bar) in zip(hrefs, bars) {
            #expect(href.contains("where=%28salary%20%3C%20100000%29%20AND%20salary%20%3E%3D%20"))
            #expect(try await Self.count(fixture, href) == bar["count"] as? Int, "\(href)")
        }
        // Dates: objects per period, the bars' counts adding up to every dated object.
        let dates = try await fixture.get("/Employee.json?chart=hiredAt:year").json()
        let years = try #require((dates["chart"] as? [String: Any])?["bars"] as? [[String: Any]])
        #expect(years.map { $0["label"] as? String } == ["2019", "2020", "2021", "2022", "2023"])
        #expect(years.map { $0["count"] as? Int } == [1, 9, 10, 10, 1])
        let datePage = try await fixture.get("/Employee?chart=hiredAt").body
        let first = try #require(datePage.firstMatch(of: /<a class="bar" href="([^"]+)">/).map { String($0.1).replacingOccurrences(of: "&amp;", with: "&") })
        #expect(try await Self.count(fixture, first) >= 1)
    }

    @Test func theColumnChoiceIsKeptInLinks() async throws {
        let fixture = try ViewFixture()
        let page = try await fixture.get("/Employee?columns=lastName,department&facet=isActive").body
        let headers = page.matches(of: /<th data-key="([^"]+)">/).map { String($0.1) }
        #expect(headers == ["_object", "_entity", "lastName", "department"])
        #expect(ViewFixture.links(page, text: "lastName") == ["/Employee?sort=lastName&columns=lastName%2Cdepartment&facet=isActive"])
        #expect(ViewFixture.links(page, text: "true").first?.contains("&columns=lastName%2Cdepartment&facet=isActive") == true)
        #expect(page.contains("<input type=\"hidden\" name=\"columns\" value=\"lastName,department\">"))
        let refused = try await fixture.get("/Employee?columns=nosuch")
        #expect(refused.status == 400 && refused.body.contains(HTML.escape("no column 'nosuch'")))
    }
}
