import CDStore
import Testing

/// Dictionary results keyed as Core Data keys them.
@Suite struct ProjectRowsTests {
    @Test func groupedAggregatesWithAliasesAndHaving() throws {
        let fixture = try CompanyFixture()
        let rows = try fixture.store.read { ctx throws in
            try ctx.project("Employee", ["department.name", "sum:salary AS total", "count:employeeNumber"],
                            where: "age >= %@", 20, groupBy: ["department.name"], having: "sum:(salary) > %@", 100_000,
                            sort: ["-total"])
        }
        #expect(rows.count == 1)
        #expect(rows.first?.resultKeys == ["department.name", "total", "count:employeeNumber"])
        #expect(rows.first?.string("department.name") == "R&D")
        #expect(rows.first?.double("total") == 235_000)
        #expect(rows.first?.int("count:employeeNumber") == 3)
        #expect(rows.first?.dictionary["department.name"] == ObjectValue.string("R&D"))
    }

}
