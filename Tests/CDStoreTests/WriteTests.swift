import CDStore
import Foundation
import Testing

@Suite struct WriteTests {
    @Test func insertReturnsTheNewObjectIDAndSetsRelationships() throws {
        let fixture = try CompanyFixture()
        let id = try fixture.store.write { ctx throws in
            try ctx.insert("Employee", ["firstName": "Eve", "lastName": "Adams", "employeeNumber": 5, "department": fixture.sales])
        }
        #expect(id.entity == "Employee")
        #expect(id.storeUUID == fixture.store.storeUUID)
        let eve = try #require(try fixture.store.read { try $0.object(id) })
        #expect(eve.string("firstName") == "Eve")
        #expect(eve.related("department") == fixture.sales)
    }

    @Test func throwingBodyRollsEverythingBack() throws {
        struct Stop: Error {}
        let fixture = try CompanyFixture()
        #expect(throws: Stop.self) {
            try fixture.store.write { ctx throws in
                try ctx.insert("Employee", ["firstName": "Eve", "lastName": "Adams", "employeeNumber": 5])
                try ctx.update("Employee", matching: .all, set: ["isActive": false])
                throw Stop()
            }
        }
        try fixture.store.read { ctx throws in
            #expect(try ctx.count("Employee") == 4)
            #expect(try ctx.count("Employee", matching: try Criteria("isActive == NO")) == 0)
        }
    }

    @Test func aCaughtFailureUndoesOnlyItsOwnCall() throws {
        let fixture = try CompanyFixture()
        try fixture.store.write { ctx throws in
            try ctx.insert("Employee", ["firstName": "Eve", "lastName": "Adams", "employeeNumber": 5])
            // Duplicate employee number: refused, and nothing of it stays.
            let error = #expect(throws: CDStoreError.self) {
                try ctx.insert("Employee", ["firstName": "Fay", "lastName": "Bell", "employeeNumber": 5])
            }
            #expect(error?.code == .constraintViolation)
        }
        try fixture.store.read { ctx throws in
            #expect(try ctx.count("Employee") == 5)
            #expect(try ctx.count("Employee", matching: try Criteria("firstName == 'Fay'")) == 0)
        }
    }

    @Test func updateByPredicateAndByID() throws {
        let fixture = try CompanyFixture()
        try fixture.store.write { ctx throws in
            #expect(try ctx.update("Employee", matching: try Criteria("department == %@", fixture.research), set: ["isActive": false]) == 3)
            #expect(try ctx.update(fixture.employees["Dana"]!, set: ["email": nil, "age": 30]))
        }
        try fixture.store.read { ctx throws in
            #expect(try ctx.count("Employee", matching: try Criteria("isActive == NO")) == 3)
            #expect(try ctx.object(fixture.employees["Dana"]!)?.int("age") == 30)
        }
    }

    @Test func relationshipsAreSetByObjectID() throws {
        let fixture = try CompanyFixture()
        let ann = fixture.employees["Ann"]!, dana = fixture.employees["Dana"]!
        try fixture.store.write { ctx throws in
            #expect(try ctx.update(ann, set: ["department": fixture.sales, "age": 35]))
            #expect(try ctx.update(dana, set: ["department": nil]))
        }
        try fixture.store.read { ctx throws in
            #expect(try ctx.object(ann)?.related("department") == fixture.sales)
            #expect(try ctx.object(ann)?.int("age") == 35)
            #expect(try ctx.object(fixture.sales)?.relatedMany("employees") == [ann])
            #expect(try ctx.object(dana)?.related("department") == nil)
        }
        try fixture.store.write { ctx throws in
            #expect(try ctx.update(fixture.research, set: ["employees": [dana, ann]]))
        }
        try fixture.store.read { ctx throws in
            #expect(Set(try ctx.object(fixture.research)?.relatedMany("employees") ?? []) == [dana, ann])
            #expect(try ctx.object(fixture.employees["Bo"]!)?.related("department") == nil)
        }
        // Department.company is required: clearing it is refused and changes nothing.
        do {
            try fixture.store.write { ctx in try ctx.update(fixture.sales, set: ["company": nil]) }
            Issue.record("cleared a required relationship")
        } catch let error as CDStoreError {
            #expect(error.code == .missingValue)
            #expect(error.property == "company")
        }
    }

    @Test func upsertMergesIntoTheObjectAConstraintMatches() throws {
        let fixture = try CompanyFixture()
        let merged = try fixture.store.write { ctx throws in
            try ctx.insert("Employee", ["employeeNumber": 1, "firstName": "Ann", "lastName": "Moreau-Li"], upsert: true)
        }
        #expect(merged == fixture.employees["Ann"])
        try fixture.store.read { ctx throws in
            #expect(try ctx.count("Employee") == 4)
            #expect(try ctx.object(merged)?.string("lastName") == "Moreau-Li")
        }
    }

    @Test func deleteAppliesDeleteRules() throws {
        let fixture = try CompanyFixture()
        // Department.employees is Deny: R&D has employees.
        do {
            try fixture.store.write { ctx in try ctx.delete(fixture.research) }
            Issue.record("the delete should have been refused")
        } catch let error as CDStoreError {
            #expect(error.code == .deleteDenied)
            #expect(error.coreDataCode == 1600)
            #expect(error.entity == "Department")
            #expect(error.property == "employees")
            #expect(error.isRelationship)
        }
        let result = try fixture.store.write { ctx in try ctx.delete("Employee", matching: try Criteria("department == %@", fixture.sales)) }
        #expect(result.total == 1)
        #expect(try fixture.store.write { ctx in try ctx.delete(fixture.sales) })
        #expect(try fixture.store.read { try $0.object(fixture.sales) } == nil)
    }

    @Test func writingInsideAReadIsRefused() throws {
        let fixture = try CompanyFixture()
        do {
            _ = try fixture.store.read { ctx in try ctx.insert("Employee", ["firstName": "Eve"]) }
            Issue.record("the write should have been refused")
        } catch CDStoreError.Code.readOnly {
        }
    }
}
