import CDStore
import Foundation
import Testing

/// Typed errors: a code to switch on, Core Data's number, and the entity, property and record as fields.
@Suite struct ErrorTests {
    private func failure(_ body: (CDStore.Context) throws -> Void) throws -> CDStoreError {
        let fixture = try CompanyFixture()
        do {
            try fixture.store.write(body)
        } catch let error as CDStoreError {
            return error
        }
        Issue.record("no error")
        return CDStoreError(.misuse, "no error")
    }

    @Test func requiredAttribute() throws {
        let error = try failure { ctx in try ctx.insert("Employee", ["firstName": "Eve", "employeeNumber": 9]) }
        #expect(error.code == .missingValue)
        #expect(error.coreDataCode == 1570)
        #expect(error.entity == "Employee")
        #expect(error.property == "lastName")
        #expect(error.record == 1)
        #expect(error.description == "record 1: entity 'Employee', attribute 'lastName': a value is required (the attribute is not optional)")
    }

    @Test func requiredRelationship() throws {
        let error = try failure { ctx in try ctx.insert("Department", ["name": "Ops"]) }
        #expect(error.code == .missingValue)
        #expect(error.coreDataCode == 1570)
        #expect(error.entity == "Department")
        #expect(error.property == "company")
        #expect(error.isRelationship)
    }

    @Test func attributeRule() throws {
        let error = try failure { ctx in
            try ctx.insert("Employee", ["firstName": "Gil", "lastName": "Roy", "employeeNumber": 9, "age": 12])
        }
        #expect(error.code == .validation)
        #expect(error.coreDataCode == 1620)
        #expect(error.property == "age")
        #expect(error.message == "12 is less than the minimum 16")
        let pattern = try failure { ctx in
            try ctx.insert("Employee", ["firstName": "Gil", "lastName": "Roy", "employeeNumber": 9, "email": "not-an-email"])
        }
        #expect(pattern.coreDataCode == 1680)
    }

    @Test func uniquenessConstraint() throws {
        let error = try failure { ctx in try ctx.insert("Employee", ["firstName": "Ann", "lastName": "Bis", "employeeNumber": 1]) }
        #expect(error.code == .constraintViolation)
        #expect(error.coreDataCode == 133021)
        #expect(error.entity == "Employee")
        // The message names no option (the library's `upsert` or the CLI's `--upsert`): `cdstore insert` adds its
        // own hint by the code.
        #expect(error.message.hasPrefix("uniqueness constraint (employeeNumber) violated: an object with employeeNumber = 1 already exists (x-coredata://"))
        #expect(error.message.hasSuffix("/Employee/p1)"))
    }

    @Test func unknownNamesSuggestTheNearest() throws {
        let entity = try failure { ctx in _ = try ctx.fetch("Employe") }
        #expect(entity.code == .unknownName)
        #expect(entity.message == "no entity 'Employe' in the model; did you mean 'Employee'?")
        let key = try failure { ctx in try ctx.insert("Employee", ["fistName": "Ann"]) }
        #expect(key.code == .unknownName)
        #expect(key.property == "fistName")
    }

    @Test func predicateErrorsHaveAColumn() throws {
        let syntax = try failure { ctx in _ = try ctx.fetch("Employee", matching: try Criteria("age >")) }
        #expect(syntax.code == .invalidPredicate)
        #expect(syntax.column != nil)
        let missing = try failure { ctx in _ = try ctx.fetch("Employee", matching: try Criteria("age > $minimum")) }
        #expect(missing.code == .invalidPredicate)
        #expect(missing.message == "variable $minimum has no value")
        #expect(missing.input == .variables)
    }

    /// The library's predicate errors point at the problem as the CLI's do: line, column and a caret under it.
    @Test func predicateErrorsShowTheirPositionWithACaret() throws {
        let error = try failure { ctx in _ = try ctx.fetch("Employee", matching: try Criteria("age >>> 3")) }
        #expect(error.code == .invalidPredicate)
        #expect(error.line == 1)
        #expect(error.column == 6)
        #expect(error.source == "age >>> 3")
        #expect(error.description == """
            predicate: unexpected '>' at column 6
              age >>> 3
                   ^
            """)
        let criteria = #expect(throws: CDStoreError.self) { try Criteria("name ==") }
        #expect(criteria?.code == .invalidPredicate)
        #expect(criteria?.source == "name ==")
        #expect(criteria?.description.hasPrefix("predicate: ") == true)
    }

    @Test func wrongTypeIsInvalidInput() throws {
        let error = try failure { ctx in try ctx.insert("Employee", ["firstName": "A", "lastName": "B", "age": "old"]) }
        #expect(error.code == .invalidInput)
        #expect(error.coreDataCode == nil)
        #expect(error.property == "age")
    }

    @Test func catchByCode() throws {
        let fixture = try CompanyFixture()
        var caught = false
        do {
            try fixture.store.write { ctx in try ctx.insert("Employee", ["firstName": "X", "lastName": "Y", "employeeNumber": 2]) }
        } catch CDStoreError.Code.constraintViolation {
            caught = true
        }
        #expect(caught)
    }
}
