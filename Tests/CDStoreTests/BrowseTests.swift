import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// The entry points `cdstore serve` reads through: pages by key, one object by entity and key, the overview and
/// streamed exports.
@Suite struct BrowseTests {
    /// 23 employees with repeated and missing ages and emails, so that sorts have ties and NULLs.
    static func fixture() throws -> CompanyFixture {
        let fixture = try CompanyFixture(seeded: false)
        try fixture.store.write { ctx in
            let department = try ctx.insert("Department", ["name": "R&D",
                                                           "company": try ctx.insert("Company", ["id": UUID(), "name": "Acme"])])
            for i in 1...23 {
                try ctx.insert("Employee", ["firstName": ["ann", "Bo", "cy", "Di"][i % 4], "lastName": "L\(i)", "employeeNumber": 100 + i,
                                            "age": i % 5 == 0 ? nil : 20 + i % 7, "email": i % 3 == 0 ? nil : "e\(i % 4)@x.org",
                                            "salary": 1000, "department": department])
            }
        }
        return fixture
    }

    /// Walking pages by key gives exactly the order (and objects) of one fetch with the same sort, whatever the
    /// sort: ascending, descending, ties, NULLs, several keys, case-insensitive, a to-one key path.
    @Test(arguments: [[], ["age"], ["-age"], ["age", "-email"], ["-email", "age"], ["firstName:ci"], ["-firstName"],
                      ["department.name", "-age"]])
    func pagesByKeyFollowTheFetchOrder(sort: [String]) throws {
        let fixture = try Self.fixture()
        try fixture.store.read { ctx in
            let expected = try ctx.fetch("Employee", sort: sort).map(\.primaryKey)
            for where_ in [nil, "age > 21 OR age == nil"] {
                let all = try ctx.fetch("Employee", where: where_, sort: sort).map(\.primaryKey)
                var walked: [Int64] = []
                var after: Int64?
                var pages = 0
                repeat {
                    let page = try ctx.page("Employee", where: where_, sort: sort, after: after, limit: 4)
                    walked += page.objects.map(\.primaryKey)
                    after = page.nextAfter
                    pages += 1
                } while after != nil && pages < 20
                #expect(walked == all, "sort \(sort), where \(where_ ?? "-")")
            }
            #expect(expected.count == 23)
        }
    }

    @Test func aPageCountsToManysAndSaysWhereTheNextStarts() throws {
        let fixture = try Self.fixture()
        let page = try fixture.store.read { ctx in try ctx.page("Department", limit: 1) }
        #expect(page.objects.count == 1 && page.nextAfter == nil)
        #expect(page.objects[0].value(forKey: "employees") == .integer(23))
        let employees = try fixture.store.read { ctx in try ctx.page("Employee", sort: ["-employeeNumber"], limit: 5) }
        #expect(employees.objects.map { $0.int("employeeNumber") } == [123, 122, 121, 120, 119])
        #expect(employees.nextAfter == employees.objects.last?.primaryKey)
        let error = #expect(throws: CDStoreError.self) { try fixture.store.read { ctx in try ctx.page("Employee", limit: 0) } }
        #expect(error?.code == .invalidInput)
    }

    @Test func objectByEntityAndKeyIncludesSubentities() throws {
        let fixture = try CompanyFixture()
        let ann = try #require(fixture.employees["Ann"])
        let object = try fixture.store.read { ctx in try ctx.object("Employee", primaryKey: ann.primaryKey) }
        #expect(object?.string("firstName") == "Ann")
        #expect(try fixture.store.read { ctx in try ctx.object("Employee", primaryKey: 999) } == nil)
        let error = #expect(throws: CDStoreError.self) { try fixture.store.read { ctx in try ctx.object("Nobody", primaryKey: 1) } }
        #expect(error?.code == .unknownName)
    }

    @Test func overviewCountsEveryEntity() throws {
        let fixture = try CompanyFixture()
        let overview = try fixture.store.overview()
        #expect(overview.journalMode == "wal")
        #expect(overview.hasPersistentHistory == false)
        #expect(overview.entities.first { $0.name == "Employee" }?.objects == 4)
        #expect(overview.entities.first { $0.name == "Department" }?.objects == 2)
        #expect(overview.warnings.isEmpty)
    }

    @Test func exportStreamsTheSameRecordsInEachFormat() throws {
        let fixture = try CompanyFixture()
        func exported(_ format: ExportFormat, _ entity: String = "Employee") throws -> String {
            var bytes: [UInt8] = []
            _ = try fixture.store.read { ctx in
                try ctx.export(entity, where: "age > 30", sort: ["-age"], format: format) { bytes.append(contentsOf: $0) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let ndjson = try exported(.ndjson).split(separator: "\n")
        #expect(ndjson.count == 3)
        #expect(ndjson.first?.contains("\"firstName\":\"Chidi\"") == true)
        let csv = try exported(.csv).split(separator: "\n")
        #expect(csv.count == 4 && csv[0].hasPrefix("_id,_entity,"))
        let json = try JSONSerialization.jsonObject(with: Data(try exported(.json).utf8)) as? [[String: Any]]
        #expect(json?.map { $0["firstName"] as? String } == ["Chidi", "Bo", "Ann"])
    }
}
