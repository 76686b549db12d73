import CDStore
import Testing

/// Dictionary results keyed as Core Data keys them.
@Suite struct ProjectRowsTests {
    @Test func groupedAggregatesWithAliasesAndHaving() throws {
        let fixture = try CompanyFixture()
        let rows = try fixture.store.read { ctx throws in
            try ctx.project("Employee", ["department.name", "sum:salary AS total", "count:employeeNumber"],
                            matching: try Criteria("age >= %@", 20).sorted(by: ["-total"]), groupBy: ["department.name"],
                            having: try Criteria("sum:(salary) > %@", 100_000))
        }
        #expect(rows.count == 1)
        #expect(rows.first?.resultKeys == ["department.name", "total", "count:employeeNumber"])
        #expect(rows.first?.string("department.name") == "R&D")
        #expect(rows.first?.double("total") == 235_000)
        #expect(rows.first?.int("count:employeeNumber") == 3)
        #expect(rows.first?.dictionary["department.name"] == ObjectValue.string("R&D"))
    }

    /// Values, rows and objects print as data, never with the layers' type names (`CDStoreEngine.ObjectValue…`).
    @Test func valuesRowsAndObjectsPrintReadably() throws {
        let fixture = try CompanyFixture()
        let (rows, object) = try fixture.store.read { ctx throws in
            (try ctx.project("Department", ["name"], matching: Criteria.all.sorted(by: ["name"]).limit(1)),
             try ctx.fetchOne("Department", matching: Criteria.all.sorted(by: ["name"])))
        }
        let row = try #require(rows.first)
        let name = try #require(row.string("name"))
        #expect(row.description == "{name: \"\(name)\"}")
        #expect(String(describing: row.dictionary) == "[\"name\": \"\(name)\"]")
        #expect(ObjectValue.integer(42).description == "42")
        #expect(ObjectValue.null.description == "null")
        #expect(ObjectValue.date(0).description == "\"2001-01-01T00:00:00.000Z\"")
        let department = try #require(object)
        #expect(department.description.hasPrefix(department.objectID.description + " {name: \"\(name)\""))
        #expect(!department.description.contains("CDStoreEngine"))
    }

}
