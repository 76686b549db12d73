import CDStore
import CDStoreTestSupport
import Foundation

/// A new store for Schemas/Company.json in a folder of its own, with a company, two departments and four
/// employees written through the public API.
struct CompanyFixture {
    let store: CDStore
    let folder: URL
    let acme: ObjectID
    let research: ObjectID
    let sales: ObjectID
    /// Employees by first name.
    let employees: [String: ObjectID]

    static let modelPath = Corpus.schemas.appendingPathComponent("Company.json").path

    var path: String { store.path }

    init(seeded: Bool = true, configuration: CDStore.Configuration = .init()) throws {
        folder = try temporaryDirectory()
        store = try CDStore(path: folder.appendingPathComponent("Company.sqlite").path, model: .path(Self.modelPath),
                            options: [.create], configuration: configuration)
        guard seeded else {
            (acme, research, sales, employees) = (ObjectID(storeUUID: "", entity: "", primaryKey: 1),
                                                  ObjectID(storeUUID: "", entity: "", primaryKey: 1),
                                                  ObjectID(storeUUID: "", entity: "", primaryKey: 1), [:])
            return
        }
        (acme, research, sales, employees) = try store.write { ctx throws in
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
            return (acme, research, sales, employees)
        }
    }
}
