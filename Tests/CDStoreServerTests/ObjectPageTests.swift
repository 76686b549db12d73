import CDStore
@testable import CDStoreServer
import CDStoreTestSupport
import Foundation
import Testing

/// The server's own reading helpers (Sources/CDStoreServer/ObjectPage.swift and the home page's `Overview`):
/// pages by key, one object by entity and key, and the overview. They moved here from the library
/// (`Context.page`, `Context.object(_:primaryKey:)`, `CDStore.overview()`), and so did their tests.
@Suite struct ObjectPageTests {
    static let companyModel = Corpus.schemas.appendingPathComponent("Company.json").path

    /// A new Company store; with `seeded`, a company, two departments and four employees (the library tests'
    /// `CompanyFixture`): Ann 34, Bo 41, Chidi 52 in R&D, Dana 29 in Sales.
    static func company(seeded: Bool = true) throws -> (store: CDStore, employees: [String: ObjectID]) {
        let folder = try temporaryDirectory()
        let store = try CDStore(path: folder.appendingPathComponent("Company.sqlite").path, model: .path(companyModel),
                                options: [.create])
        guard seeded else { return (store, [:]) }
        let employees = try store.write { ctx throws in
            let acme = try ctx.insert("Company", ["id": UUID(), "name": "Acme"])
            let research = try ctx.insert("Department", ["name": "R&D", "company": acme, "budget": 500_000])
            let sales = try ctx.insert("Department", ["name": "Sales", "company": acme])
            var employees: [String: ObjectID] = [:]
            let people: [(String, String, Int, Int, Double, ObjectID)] = [
                ("Ann", "Moreau", 1, 34, 72_000, research), ("Bo", "Li", 2, 41, 65_000, research),
                ("Chidi", "Okafor", 3, 52, 98_000, research), ("Dana", "Miller", 4, 29, 64_000, sales),
            ]
            for (first, last, number, age, salary, department) in people {
                employees[first] = try ctx.insert("Employee", ["firstName": first, "lastName": last, "employeeNumber": number,
                                                               "age": age, "salary": salary, "department": department])
            }
            return employees
        }
        return (store, employees)
    }

    /// 23 employees with repeated and missing ages and emails, so that sorts have ties and NULLs.
    static func fixture() throws -> CDStore {
        let store = try company(seeded: false).store
        try store.write { ctx in
            let department = try ctx.insert("Department", ["name": "R&D",
                                                           "company": try ctx.insert("Company", ["id": UUID(), "name": "Acme"])])
            for i in 1...23 {
                try ctx.insert("Employee", ["firstName": ["ann", "Bo", "cy", "Di"][i % 4], "lastName": "L\(i)", "employeeNumber": 100 + i,
                                            "age": i % 5 == 0 ? nil : 20 + i % 7, "email": i % 3 == 0 ? nil : "e\(i % 4)@x.org",
                                            "salary": 1000, "department": department])
            }
        }
        return store
    }

    /// Walking pages by key gives exactly the order (and objects) of one fetch with the same sort, whatever the
    /// sort: ascending, descending, ties, NULLs, several keys, case-insensitive, a to-one key path.
    @Test(arguments: [[], ["age"], ["-age"], ["age", "-email"], ["-email", "age"], ["firstName:ci"], ["-firstName"],
                      ["department.name", "-age"]])
    func pagesByKeyFollowTheFetchOrder(sort: [String]) throws {
        let store = try Self.fixture()
        try store.read { ctx in
            let expected = try ctx.fetch("Employee", matching: Criteria.all.sorted(by: sort)).map(\.primaryKey)
            for where_ in [nil, "age > 21 OR age == nil"] {
                let all = try ctx.fetch("Employee", matching: try Criteria(parsing: where_).sorted(by: sort)).map(\.primaryKey)
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

    @Test func aPageCountsToManysAndSaysWhereTheNextStarts() async throws {
        let store = try Self.fixture()
        let page = try store.read { ctx in try ctx.page("Department", where: nil, sort: [], limit: 1) }
        #expect(page.objects.count == 1 && page.nextAfter == nil)
        #expect(page.objects[0].value(forKey: "employees") == .integer(23))
        let employees = try store.read { ctx in try ctx.page("Employee", where: nil, sort: ["-employeeNumber"], limit: 5) }
        #expect(employees.objects.map { $0.int("employeeNumber") } == [123, 122, 121, 120, 119])
        #expect(employees.nextAfter == employees.objects.last?.primaryKey)
        // A page of no objects is refused: by the helper, and by the server before it reads (a 400).
        let error = #expect(throws: CDStoreError.self) {
            try store.read { ctx in try ctx.page("Employee", where: nil, sort: [], limit: 0) }
        }
        #expect(error?.code == .invalidInput)
        let reply = try await HistoryServer(store: store).get("/Employee.json?limit=0")
        #expect(reply.status == 400)
    }

    @Test func objectByEntityAndKeyIncludesSubentities() async throws {
        let (store, employees) = try Self.company()
        let ann = try #require(employees["Ann"])
        let entity = try #require(store.model.entity(named: "Employee"))
        let object = try store.read { ctx in try ctx.object(entity, primaryKey: ann.primaryKey, storeUUID: store.storeUUID) }
        #expect(object?.string("firstName") == "Ann")
        #expect(try store.read { ctx in try ctx.object(entity, primaryKey: 999, storeUUID: store.storeUUID) } == nil)
        // A Manager is an Employee: found through its parent entity.
        let max = try store.write { ctx in
            let sales = try #require(try ctx.fetchOne("Department", matching: .equal("name", "Sales")))
            return try ctx.insert("Manager", ["firstName": "Max", "lastName": "Roe", "employeeNumber": 9, "department": sales.objectID])
        }
        let manager = try store.read { ctx in try ctx.object(entity, primaryKey: max.primaryKey, storeUUID: store.storeUUID) }
        #expect(manager?.entity == "Manager" && manager?.string("firstName") == "Max")
        // The helper takes a model entity; a name the model lacks is found out before it, by the browser.
        #expect(store.model.entity(named: "Nobody") == nil)
        let error = #expect(throws: BrowseError.self) { try StoreBrowser(store: store).requireEntity("Nobody") }
        #expect(error?.status == .notFound)
        let reply = try await HistoryServer(store: store).get("/Nobody/p1")
        #expect(reply.status == 404)
    }

    @Test func overviewCountsEveryEntity() throws {
        let store = try Self.company().store
        let overview = try Overview(store, timeLimit: .seconds(30))
        #expect(overview.journalMode == "wal")
        #expect(overview.hasPersistentHistory == false)
        #expect(overview.entities.first { $0.name == "Employee" }?.objects == 4)
        #expect(overview.entities.first { $0.name == "Department" }?.objects == 2)
        #expect(overview.warnings.isEmpty)
    }
}
