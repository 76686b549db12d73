import CDStore
import Foundation

// The root README's demo session through the library. Argument: the Schemas folder.
let schemas = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Schemas")
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("company-report-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let store = try CDStore(path: folder.appendingPathComponent("Company.sqlite").path,
                        model: .path(schemas.appendingPathComponent("Company.json").path), options: [.create])

// A whole company, its departments, employees and badges, from one nested JSON document.
let inserted = try store.write { ctx in
    try ctx.insert(.file(schemas.appendingPathComponent("demo/Company.json")), into: "Company")
}
print("inserted \(inserted.inserted) company")

// One more employee, whose department is the one named Sales.
try store.write { ctx in
    let sales = try ctx.fetch(Department.self, matching: Criteria.equal("name", "Sales").limit(1)).first!.objectID
    try ctx.insert(Employee(employeeNumber: 1006, firstName: "Farah", lastName: "Nasser", salary: 61000, department: sales))
}

// Records are the structs `cdstore model generate --language codable` wrote into Records/ (relationships as
// object IDs); each knows its entity, so fetches and inserts name none.
try store.read { ctx in
    print("\nR&D earning over 60000, best paid first:")
    let criteria = try Criteria("department.name == %@ AND salary > %@", "R&D", 60000).sorted(by: ["-salary"])
    for e in try ctx.fetch(Employee.self, matching: criteria) {
        print("  \(e.firstName) \(e.lastName): \(e.salary ?? 0) (\(e.objectID?.entity ?? "?"))")
    }
    print("\nemployees in a department with someone over 50: \(try ctx.count("Employee", matching: try Criteria("ANY department.employees.age > 50")))")

    print("\npeople and salaries per department:")
    for row in try ctx.project("Employee", ["department.name", "count:employeeNumber AS people", "average:salary"],
                               matching: Criteria.all.sorted(by: ["department.name"]), groupBy: ["department.name"]) {
        let average = row.get("average:salary", as: Double.self) ?? 0
        print("  \(row.get("department.name", as: String.self) ?? "-"): \(row.get("people", as: Int.self) ?? 0) people, average \(String(format: "%.2f", average))")
    }
}

// A raise in Sales, computed by SQL per object and validated before anything is written.
let raised = try store.write { ctx in
    try ctx.update("Employee", matching: .equal("department.name", "Sales"),
                   assignments: [try UpdateAssignment(parsing: "salary:=salary * 1.05")])
}
print("\nraised \(raised) salaries in Sales")

// Criteria instead of a format string.
let sales = try store.read { ctx in
    try ctx.fetch("Employee", matching: Criteria.equal("department.name", "Sales").sorted(by: ["lastName"]))
}
print(sales.map { "\($0.get("lastName", as: String.self)!) \($0.get("salary", as: Double.self)!)" }.joined(separator: ", "))

// Validation and delete rules come back as typed errors.
do {
    try store.write { ctx in try ctx.insert("Employee", ["employeeNumber": 1007, "firstName": "Gil", "lastName": "Roy", "age": 12]) }
} catch let error as CDStoreError {
    print("\nrefused (\(error.code), Core Data error \(error.coreDataCode ?? 0)): \(error)")
}
do {
    try store.write { ctx in try ctx.delete("Department", matching: .equal("name", "Sales")) }
} catch let error as CDStoreError where error.code == .deleteDenied {
    print("refused (\(error.code), Core Data error \(error.coreDataCode ?? 0)): \(error.entity!).\(error.property!) is Deny")
}

// The whole graph, as `cdstore export` writes it.
let graphFile = folder.appendingPathComponent("acme.ndjson")
_ = FileManager.default.createFile(atPath: graphFile.path, contents: nil)
let handle = try FileHandle(forWritingTo: graphFile)
let exported = try store.read { ctx in try ctx.exportGraph(as: .ndjson) { try handle.write(contentsOf: $0) } }
try handle.close()
print("\nexported \(exported) objects")
