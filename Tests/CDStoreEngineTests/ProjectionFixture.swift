import CDStoreModel
import CDStoreTestSupport
import Foundation
@testable import CDStoreEngine

/// A company store (Schemas/Company.json) for projection and update tests, built through `Store.insert` with
/// nested records. The same data stays here as Swift values, so tests compute expected results independently.
struct PayrollFixture {
    struct Person {
        var number: Int64
        var first: String
        var last: String
        var email: String?
        var age: Int64?
        var salary: Double?   // Decimal in the model
        var rating: Double?
        var hired: String     // ISO date
        var active: Bool
        var department: String?
        var level: Int64? = nil  // a Manager when set

        var hiredSeconds: Double { DateParsing.secondsSince2001(hired)! }
    }

    struct Department {
        var name: String
        var company: String
        var budget: Double?
    }

    static let modelPath = Corpus.packageRoot.appendingPathComponent("Schemas/Company.json").path

    static let companies: [(name: String, founded: String?)] = [("Acme", "1999-04-01"), ("Globex", "2010-06-15T12:00:00Z")]
    static let departments: [Department] = [
        Department(name: "Sales", company: "Acme", budget: 0.1),
        Department(name: "Engineering", company: "Acme", budget: 0.2),
        Department(name: "Research", company: "Globex", budget: 1_000_000.5),
        Department(name: "Empty", company: "Globex", budget: nil),
    ]
    static let people: [Person] = [
        Person(number: 1, first: "Mia", last: "Stone", email: "mia@acme.com", age: 48, salary: 200000.1, rating: 4.5,
               hired: "2005-05-05", active: true, department: "Engineering", level: 2),
        Person(number: 2, first: "Ann", last: "Lee", email: "ann@acme.com", age: 34, salary: 0.1, rating: 3.25,
               hired: "2015-03-01", active: true, department: "Engineering"),
        Person(number: 3, first: "Bob", last: "Ray", email: nil, age: 28, salary: 0.2, rating: 0.5,
               hired: "2019-07-15", active: false, department: "Engineering"),
        Person(number: 4, first: "Cara", last: "Diaz", email: "cara@acme.com", age: 45, salary: 60000.3, rating: 2,
               hired: "2021-01-10", active: true, department: "Sales"),
        Person(number: 5, first: "Dan", last: "Oak", email: nil, age: nil, salary: nil, rating: 2.75,
               hired: "2022-02-02", active: false, department: "Sales"),
        Person(number: 6, first: "Eve", last: "Ng", email: "eve@globex.com", age: 52, salary: 150000.7, rating: 5,
               hired: "2012-02-29T08:30:00Z", active: true, department: "Research", level: 1),
        Person(number: 7, first: "Finn", last: "Ash", email: nil, age: 19, salary: 30000, rating: 1.5,
               hired: "2023-09-01", active: false, department: "Research"),
        Person(number: 8, first: "Gus", last: "Lee", email: "gus@acme.com", age: 34, salary: 45000.45, rating: 4,
               hired: "2018-12-31T23:59:59Z", active: true, department: nil),
    ]

    let store: Store

    /// A new store with the data (each call gets its own file).
    init() throws {
        let loaded = try ModelLoader.load(Self.modelPath)
        let path = try temporaryDirectory().appendingPathComponent("Payroll.sqlite").path
        store = try Store.open(at: path, loaded: loaded)
        func employee(_ p: Person) -> InputValue {
            var fields: [(String, InputValue)] = [("employeeNumber", .integer(p.number)), ("firstName", .string(p.first)),
                                                  ("lastName", .string(p.last)), ("hiredAt", .string(p.hired)),
                                                  ("isActive", .bool(p.active))]
            if let email = p.email { fields.append(("email", .string(email))) }
            if let age = p.age { fields.append(("age", .integer(age))) }
            if let salary = p.salary { fields.append(("salary", .double(salary))) }
            if let rating = p.rating { fields.append(("rating", .double(rating))) }
            if let level = p.level { fields += [("_entity", .string("Manager")), ("level", .integer(level))] }
            return .object(fields)
        }
        let records = Self.companies.map { company -> InputRecord in
            var fields: [(String, InputValue)] = [("id", .string(UUID().uuidString)), ("name", .string(company.name))]
            if let founded = company.founded { fields.append(("founded", .string(founded))) }
            let departments = Self.departments.filter { $0.company == company.name }.map { d -> InputValue in
                var fields: [(String, InputValue)] = [("name", .string(d.name))]
                if let budget = d.budget { fields.append(("budget", .double(budget))) }
                fields.append(("employees", .array(Self.people.filter { $0.department == d.name }.map(employee))))
                return .object(fields)
            }
            fields.append(("departments", .array(departments)))
            return InputRecord(fields: fields)
        }
        try store.insert(records, into: "Company")
        try store.insert(Self.people.filter { $0.department == nil }.map {
            guard case .object(let fields) = employee($0) else { fatalError() }
            return InputRecord(fields: fields)
        }, into: "Employee")
    }

    /// Rows as plain dictionaries, for comparisons.
    static func dictionaries(_ rows: [[(String, ObjectValue)]]) -> [[String: ObjectValue]] {
        rows.map { Dictionary($0.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a }) }
    }
}

/// Independent statistics over Swift values.
enum Stats {
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func populationStandardDeviation(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    /// The exact decimal sum of decimal texts, as a Double.
    static func decimalSum(_ values: [Double]) -> Double {
        let sum = values.reduce(Decimal(0)) { $0 + Decimal(string: "\($1)")! }
        return Double("\(sum)")!
    }
}
