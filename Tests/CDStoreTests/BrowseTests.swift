import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// The public calls `cdstore serve` reads through: pages by key (`after(primaryKey:)`, `relationships(as:)`), one
/// object by ID, the store's information and streamed exports. The server's own helpers on them (`ctx.page`,
/// `ctx.object(_:primaryKey:storeUUID:)`, the overview) are tested in CDStoreServerTests/ObjectPageTests.
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

    /// Walking pages by key (`after(primaryKey:)`) gives exactly the order (and objects) of one fetch with the
    /// same sort, whatever the sort: ascending, descending, ties, NULLs, several keys, case-insensitive, a to-one
    /// key path. (The server's `ctx.page` helper built on it is tested in CDStoreServerTests/ObjectPageTests.)
    @Test(arguments: [[], ["age"], ["-age"], ["age", "-email"], ["-email", "age"], ["firstName:ci"], ["-firstName"],
                      ["department.name", "-age"]])
    func pagesByKeyFollowTheFetchOrder(sort: [String]) throws {
        let fixture = try Self.fixture()
        try fixture.store.read { ctx in
            let expected = try ctx.fetch("Employee", matching: Criteria.all.sorted(by: sort)).map(\.primaryKey)
            for where_ in [nil, "age > 21 OR age == nil"] {
                let criteria = try Criteria(parsing: where_).sorted(by: sort)
                let all = try ctx.fetch("Employee", matching: criteria).map(\.primaryKey)
                var walked: [Int64] = []
                var after: Int64?
                var pages = 0
                repeat {
                    var page = criteria.limit(4)
                    if let after { page = page.after(primaryKey: after) }
                    let objects = try ctx.fetch("Employee", matching: page)
                    walked += objects.map(\.primaryKey)
                    after = objects.count == 4 ? objects.last?.primaryKey : nil
                    pages += 1
                } while after != nil && pages < 20
                #expect(walked == all, "sort \(sort), where \(where_ ?? "-")")
            }
            #expect(expected.count == 23)
        }
    }

    @Test func relationshipsAsCountsAndAPageAfterAKey() throws {
        let fixture = try Self.fixture()
        let departments = try fixture.store.read { ctx in
            try ctx.fetch("Department", matching: Criteria.all.limit(2).relationships(as: .counts))
        }
        #expect(departments.count == 1)
        #expect(departments[0].value(forKey: "employees") == .integer(23))
        let byNumber = Criteria.all.sorted(by: ["-employeeNumber"]).limit(5)
        let employees = try fixture.store.read { ctx in try ctx.fetch("Employee", matching: byNumber) }
        #expect(employees.map { $0.int("employeeNumber") } == [123, 122, 121, 120, 119])
        let next = try fixture.store.read { ctx in
            try ctx.fetch("Employee", matching: byNumber.after(primaryKey: try #require(employees.last?.primaryKey)))
        }
        #expect(next.map { $0.int("employeeNumber") } == [118, 117, 116, 115, 114])
    }

    @Test func objectByIDIncludesSubentities() throws {
        let fixture = try CompanyFixture()
        let ann = try #require(fixture.employees["Ann"])
        let object = try fixture.store.read { ctx in try ctx.object(ann) }
        #expect(object?.string("firstName") == "Ann")
        let missing = ObjectID(storeUUID: fixture.store.storeUUID, entity: "Employee", primaryKey: 999)
        #expect(try fixture.store.read { ctx in try ctx.object(missing) } == nil)
        let error = #expect(throws: CDStoreError.self) {
            try fixture.store.read { ctx in try ctx.object(ObjectID(storeUUID: fixture.store.storeUUID, entity: "Nobody", primaryKey: 1)) }
        }
        #expect(error?.code == .unknownName)
    }

    @Test func infoCountsEveryEntity() throws {
        let fixture = try CompanyFixture()
        let info = try fixture.store.info()
        #expect(info.journalMode == "wal")
        #expect(info.kind.persistentHistory == false)
        #expect(info.entities.first { $0.name == "Employee" }?.objects == 4)
        #expect(info.entities.first { $0.name == "Department" }?.objects == 2)
        #expect(fixture.store.warnings.isEmpty)
    }

    @Test func infoWithoutCountingRowsReadsTheSameMetadataAndNoCounts() throws {
        let fixture = try CompanyFixture()
        let counted = try fixture.store.info()
        let uncounted = try fixture.store.info(countingRows: false)
        #expect(uncounted.uuid == counted.uuid && uncounted.kind == counted.kind && uncounted.modelSource == counted.modelSource)
        #expect(uncounted.entities.map(\.name) == counted.entities.map(\.name))
        #expect(uncounted.entities.map(\.hashMatches) == counted.entities.map(\.hashMatches))
        #expect(uncounted.entities.map(\.maxPrimaryKey) == counted.entities.map(\.maxPrimaryKey))
        #expect(uncounted.entities.allSatisfy { $0.objects == nil })
        #expect(counted.entities.allSatisfy { $0.objects != nil })
    }

    @Test func exportStreamsTheSameRecordsInEachFormat() throws {
        let fixture = try CompanyFixture()
        func exported(_ format: ExportFormat, _ entity: String = "Employee") throws -> String {
            var bytes: [UInt8] = []
            _ = try fixture.store.read { ctx in
                try ctx.export(entity, matching: try Criteria("age > 30").sorted(by: ["-age"]), format: format) { bytes.append(contentsOf: $0) }
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
