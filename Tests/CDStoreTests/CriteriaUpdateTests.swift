import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// `update(_:matching:assignments:dryRun:)`: what `cdstore update` calls, expressions and a dry run included.
@Suite struct CriteriaUpdateTests {
    @Test func expressionsUpdateTheObjectsTheCriteriaFilter() throws {
        let fixture = try CompanyFixture()
        let raise = [try UpdateAssignment(parsing: "salary:=salary + 1000")]
        let changed = try fixture.store.write { ctx in
            try ctx.update("Employee", matching: .eq("department.name", "R&D"), assignments: raise)
        }
        #expect(changed == 3)
        let salaries = try fixture.store.read { ctx in
            try ctx.fetch("Employee", matching: Criteria.all.sorted(by: "employeeNumber")).map { $0.get("salary", as: Double.self) }
        }
        #expect(salaries == [73_000, 66_000, 99_000, 64_000])
    }

    @Test func aDryRunCountsAndValidatesInAReadAndWritesNothing() throws {
        let fixture = try CompanyFixture()
        let raise = [try UpdateAssignment(parsing: "salary:=salary * 2")]
        let would = try fixture.store.read { ctx in
            try ctx.update("Employee", matching: .ge("age", 40), assignments: raise, dryRun: true)
        }
        #expect(would == 2)
        let total = try fixture.store.read { ctx in
            try ctx.fetch("Employee", matching: .all).compactMap { $0.get("salary", as: Double.self) }.reduce(0, +)
        }
        #expect(total == 299_000)
        // Without a dry run, a read transaction refuses.
        let error = #expect(throws: CDStoreError.self) {
            try fixture.store.read { ctx in try ctx.update("Employee", matching: .all, assignments: raise) }
        }
        #expect(error?.code == .readOnly)
        // A bad value is found by the dry run too, and is about the assignments.
        let bad = #expect(throws: CDStoreError.self) {
            try fixture.store.read { ctx in
                try ctx.update("Employee", matching: .all, assignments: [UpdateAssignment(parsing: "salry=1")], dryRun: true)
            }
        }
        #expect(bad?.code == .unknownName && bad?.input == .assignments)
    }
}
