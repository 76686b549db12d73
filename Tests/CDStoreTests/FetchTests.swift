import CDStore
import Foundation
import Testing

@Suite struct FetchTests {
    @Test func fetchWithSwiftArgumentsSortAndLimit() throws {
        let fixture = try CompanyFixture()
        let names = try fixture.store.read { ctx throws in
            try ctx.fetch("Employee", matching: try Criteria("age >= %@ AND department.name == %@", 30, "R&D")
                .sorted(by: ["-salary", "lastName"]).limit(50)).map { $0.string("firstName") }
        }
        #expect(names == ["Chidi", "Ann", "Bo"])
    }

    @Test func keyPathAndIntegerSpecifiers() throws {
        let fixture = try CompanyFixture()
        let count = try fixture.store.read { ctx in try ctx.count("Employee", matching: try Criteria("%K > %d", "age", 40)) }
        #expect(count == 2)
    }

    @Test func typedAccessAndRelationshipsAsObjectIDs() throws {
        let fixture = try CompanyFixture()
        try fixture.store.read { ctx throws in
            let ann = try #require(try ctx.fetchOne("Employee", matching: try Criteria("firstName == %@", "Ann")))
            #expect(ann.objectID == fixture.employees["Ann"])
            #expect(ann.entity == "Employee")
            #expect((ann["lastName"] as String?) == "Moreau")
            #expect(ann.int("age") == 34)
            #expect(ann.double("salary") == 72_000)
            #expect(ann.decimal("salary") == Decimal(72_000))
            #expect(ann.bool("isActive") == true)
            #expect(ann.date("hiredAt") == Date(timeIntervalSinceReferenceDate: 0))
            #expect(ann.isNull("email"))
            #expect(ann.string("age") == nil)
            #expect(ann.related("department") == fixture.research)
            #expect(ann.isRelationship("department"))
            let research = try #require(try ctx.object(fixture.research))
            #expect(Set(research.relatedMany("employees")) == Set(["Ann", "Bo", "Chidi"].compactMap { fixture.employees[$0] }))
            #expect(research.related("company") == fixture.acme)
        }
    }

    @Test func cursorStepsThroughEveryObject() throws {
        let fixture = try CompanyFixture()
        let total = try fixture.store.read { ctx throws in
            let cursor = try ctx.cursor("Employee", matching: Criteria.all.sorted(by: ["employeeNumber"]))
            var numbers: [Int] = []
            while let employee = try cursor.next() { numbers.append(employee.int("employeeNumber") ?? 0) }
            return numbers
        }
        #expect(total == [1, 2, 3, 4])
    }

    @Test func cursorRefusesToOutliveItsTransaction() throws {
        let fixture = try CompanyFixture()
        let cursor = try fixture.store.read { ctx in try ctx.cursor("Employee") }
        let error = #expect(throws: CDStoreError.self) { try cursor.next() }
        #expect(error?.code == .misuse)
        #expect(error?.description
                == "the context was used after its transaction ended: use it only inside its read or write closure")
        // And again: the cursor stays refused.
        let again = #expect(throws: CDStoreError.self) { try cursor.next() }
        #expect(again?.code == .misuse)
    }

    @Test func objectOfAnotherStoreOrDeletedIsNil() throws {
        let fixture = try CompanyFixture()
        let foreign = ObjectID(storeUUID: "00000000-0000-0000-0000-000000000000", entity: "Employee", primaryKey: 1)
        try fixture.store.read { ctx throws in
            #expect(try ctx.object(foreign) == nil)
            #expect(try ctx.object(ObjectID(storeUUID: fixture.store.storeUUID, entity: "Employee", primaryKey: 999)) == nil)
        }
    }

    @Test func readSeesOneSnapshotAndWriteSeesItsOwnChanges() throws {
        let fixture = try CompanyFixture()
        try fixture.store.write { ctx throws in
            try ctx.insert("Employee", ["firstName": "Eve", "lastName": "Adams", "employeeNumber": 5])
            #expect(try ctx.count("Employee") == 5)
            // A read inside the write joins it.
            #expect(try fixture.store.read { try $0.count("Employee") } == 5)
        }
        #expect(try fixture.store.read { try $0.count("Employee") } == 5)
    }

    @Test func nestedReadsJoinAndWritesInsideReadsAreRefused() throws {
        // One pooled connection: a nested read that asked the pool for another would wait forever.
        let fixture = try CompanyFixture(configuration: .init(maximumReaderCount: 1))
        let counts = try fixture.store.read { _ in try fixture.store.read { try $0.count("Employee") } }
        #expect(counts == 4)
        do {
            _ = try fixture.store.read { _ in try fixture.store.write { ctx in try ctx.delete("Employee", matching: .all) } }
            Issue.record("wrote inside a read")
        } catch CDStoreError.Code.readOnly {
        }
        #expect(try fixture.store.read { try $0.count("Employee") } == 4)
    }
}
