import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// `update(_:matching:set:assignments:dryRun:)`: what `cdstore update` calls, values and expressions in one statement, and a dry run.
@Suite struct CriteriaUpdateTests {
    @Test func expressionsUpdateTheObjectsTheCriteriaFilter() throws {
        let fixture = try CompanyFixture()
        let raise = [try UpdateAssignment(parsing: "salary:=salary + 1000")]
        let changed = try fixture.store.write { ctx in
            try ctx.update("Employee", matching: .equal("department.name", "R&D"), assignments: raise)
        }
        #expect(changed == 3)
        let salaries = try fixture.store.read { ctx in
            try ctx.fetch("Employee", matching: Criteria.all.sorted(by: ["employeeNumber"])).map { $0.get("salary", as: Double.self) }
        }
        #expect(salaries == [73_000, 66_000, 99_000, 64_000])
    }

    @Test func aDryRunCountsAndValidatesInAReadAndWritesNothing() throws {
        let fixture = try CompanyFixture()
        let raise = [try UpdateAssignment(parsing: "salary:=salary * 2")]
        let would = try fixture.store.read { ctx in
            try ctx.update("Employee", matching: .greaterThanOrEqual("age", 40), assignments: raise, dryRun: true)
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

extension CriteriaUpdateTests {
    @Test func valuesAndExpressionsChangeTheSameObjectsInOneCall() throws {
        let fixture = try CompanyFixture()
        let changed = try fixture.store.write { ctx in
            try ctx.update("Employee", matching: .equal("department.name", "R&D"), set: ["age": 50],
                           assignments: [try UpdateAssignment(parsing: "salary:=salary + 1000")])
        }
        #expect(changed == 3)
        let rows = try fixture.store.read { ctx in
            try ctx.fetch("Employee", matching: Criteria.equal("department.name", "R&D").sorted(by: ["employeeNumber"]))
                .map { "\($0.get("age", as: Int.self) ?? -1) \($0.get("salary", as: Double.self) ?? -1)" }
        }
        #expect(rows == ["50 73000.0", "50 66000.0", "50 99000.0"])
    }

    @Test func anAttributeSetBothAsAValueAndByAnAssignmentIsRefusedAndNothingChanges() throws {
        let fixture = try CompanyFixture()
        let before = try fixture.store.read { ctx in try ctx.fetch("Employee", matching: .all).map { $0.get("salary", as: Double.self) } }
        let error = #expect(throws: CDStoreError.self) {
            try fixture.store.write { ctx in
                try ctx.update("Employee", matching: .all, set: ["salary": 1],
                               assignments: [try UpdateAssignment(parsing: "salary:=salary * 2")])
            }
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.property == "salary")
        #expect(error?.message == "'salary' is set twice")
        let after = try fixture.store.read { ctx in try ctx.fetch("Employee", matching: .all).map { $0.get("salary", as: Double.self) } }
        #expect(after == before)
        #expect(before.count == 4)
    }
}

/// `delete(_:matching:dryRun:)`: what `cdstore delete` calls.
@Suite struct CriteriaDeleteTests {
    /// Deleting with `excludingSubentities()` left the sub-entities' objects alone only in `count`: the delete
    /// built its request from the predicate alone and removed a Manager too.
    @Test func excludingSubentitiesLeavesTheirObjects() throws {
        let fixture = try CompanyFixture()
        try fixture.store.write { ctx in
            _ = try ctx.insert("Manager", ["firstName": "Max", "lastName": "Roe", "employeeNumber": 9, "department": fixture.sales])
        }
        let would = try fixture.store.read { ctx in
            try ctx.delete("Employee", matching: Criteria.all.excludingSubentities(), dryRun: true)
        }
        #expect(would.total == 4 && would.byEntity.map(\.0) == ["Employee"])
        #expect(try fixture.store.read { ctx in try ctx.count("Employee", matching: .all) } == 5)
        let deleted = try fixture.store.write { ctx in try ctx.delete("Employee", matching: Criteria.all.excludingSubentities()) }
        #expect(deleted.total == 4)
        #expect(try fixture.store.read { ctx in try ctx.fetch("Employee", matching: .all).map(\.entity) } == ["Manager"])
    }
}
