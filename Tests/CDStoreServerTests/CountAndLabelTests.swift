import CDStore
@testable import CDStoreServer
import CDStoreTestSupport
import Foundation
import Testing

/// The home page and the entity page count alike (sub-entities included, split by concrete entity), and links to
/// objects read as their labels, in HTML and in JSON.
@Suite struct CountAndLabelTests {
    @Test func homeAndEntityPageCountTheSameObjects() async throws {
        let fixture = try ViewFixture()
        let home = try await fixture.get("/").body
        #expect(home.contains("<a href=\"/Employee\">Employee</a></td><td></td><td class=\"num\">31</td><td class=\"split\">"
                              + "<a href=\"/Employee\">Employee</a> 30, <a href=\"/Manager\">Manager</a> 1</td>"), "\(home)")
        #expect(home.contains("<a href=\"/Manager\">Manager</a></td><td><a href=\"/Employee\">Employee</a></td><td class=\"num\">1</td><td class=\"split\"></td>"))
        let page = try await fixture.get("/Employee").body
        #expect(page.contains("<p id=\"count\">31 objects: <a href=\"/Employee\">Employee</a> 30, <a href=\"/Manager\">Manager</a> 1</p>"),
                "\(page)")
        let filtered = try await fixture.get("/Employee?where=isActive%20%3D%3D%20YES").body
        #expect(filtered.contains("<p id=\"count\">21 objects match: <a href=\"/Employee?where=isActive%20%3D%3D%20YES\">Employee</a> 20, "
                                  + "<a href=\"/Manager?where=isActive%20%3D%3D%20YES\">Manager</a> 1</p>"))
        let json = try await fixture.get("/index.json").json()
        let employee = try #require((json["entities"] as? [[String: Any]])?.first { $0["name"] as? String == "Employee" })
        #expect(employee["objects"] as? Int == 31 && employee["own"] as? Int == 30)
        #expect(employee["byEntity"] as? [String: Int] == ["Employee": 30, "Manager": 1])
        let page1 = try await fixture.get("/Employee.json").json()
        #expect(page1["count"] as? Int == 31 && page1["countComplete"] as? Bool == true)
        #expect(page1["countStoppedAtTimeLimit"] as? Bool == false)
        #expect(page1["countByEntity"] as? [String: Int] == ["Employee": 30, "Manager": 1])
        #expect(try fixture.store.read { ctx in try ctx.count("Employee") } == 31)
    }

    @Test func labelsFollowConstraintsNamesAndOverrides() throws {
        let model = try CDStore(path: try ViewFixture().path, options: [.readOnly]).model
        let rules = LabelRules(model: model)
        // Uniqueness constraints first (Department's is company+name: its attribute is name), inherited by Manager.
        #expect(rules.properties["Employee"] == "employeeNumber")
        #expect(rules.properties["Manager"] == "employeeNumber")
        #expect(rules.properties["Department"] == "name")
        #expect(rules.properties["Badge"] == "code")
        let overridden = LabelRules(model: model, overrides: ["Employee": "lastName"])
        #expect(overridden.properties["Employee"] == "lastName" && overridden.properties["Manager"] == "lastName")
        #expect(LabelRules.text(.integer(7), entity: "Employee") == "Employee 7")
        #expect(LabelRules.text(.string(String(repeating: "a", count: 80)), entity: "X")?.count == LabelRules.maximumLength)
        #expect(LabelRules.text(.null, entity: "X") == nil && LabelRules.text(.string("  "), entity: "X") == nil)
        // Without a constraint: a name-like String attribute, else the first String one.
        let plain = try ServerFixture().store.model
        let plainRules = LabelRules(model: plain)
        #expect(plainRules.properties["Person"] == "name" && plainRules.properties["Badge"] == "label")
    }

    @Test func linksReadAsLabelsInTablesObjectPagesAndJSON() async throws {
        let fixture = try ViewFixture()
        let table = try await fixture.get("/Employee").body
        #expect(table.contains("<a href=\"/Department/p1\" class=\"label\" title=\"Department/p1\">R&amp;D</a>"), "\(table)")
        #expect(table.contains("title=\"Department/p2\">Sales &quot;East&quot;</a>"))
        let department = try await fixture.get("/Department/p1").body
        #expect(department.contains("<h1>Department p1 — R&amp;D</h1>"))
        #expect(department.contains("<a href=\"/Employee/p1\" class=\"label\" title=\"Employee/p1\">Employee 1</a>"))
        #expect(department.contains("title=\"Manager/p31\">Manager 99</a>"))
        let json = try await fixture.get("/Employee.json?limit=2").json()
        let first = try #require((json["objects"] as? [[String: Any]])?.first)
        #expect(first["_label"] as? String == "Employee 1")
        let reference = try #require(first["department"] as? [String: Any])
        #expect(reference["_label"] as? String == "R&D" && reference["_href"] as? String == "/Department/p1")
        let object = try await fixture.get("/Department/p1.json").json()
        #expect(object["_label"] as? String == "R&D")
        let employees = try #require(object["employees"] as? [[String: Any]])
        #expect(employees.count == 21 && employees.first?["_label"] as? String == "Employee 1")

        let renamed = try ViewFixture(settings: BrowseSettings(labels: ["Employee": "lastName"]))
        let byName = try await renamed.get("/Department/p1").body
        #expect(byName.contains("title=\"Employee/p1\">Last1</a>") && byName.contains("title=\"Manager/p31\">Boss</a>"))
    }
}
