import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore project` and `cdstore update` end to end, on a small company store (Schemas/Company.json).
@Suite struct ProjectCommandTests {
    static let model = Corpus.packageRoot.appendingPathComponent("Schemas/Company.json").path
    static let data = """
        [{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","name":"Acme","founded":"1999-04-01","departments":[
          {"name":"Sales","budget":0.1,"employees":[
            {"employeeNumber":1,"firstName":"Ann","lastName":"Lee","age":34,"salary":0.1,"rating":3,"hiredAt":"2015-03-01","email":"ann@acme.com"},
            {"employeeNumber":2,"firstName":"Bob","lastName":"Ray","age":28,"salary":0.2,"rating":4,"hiredAt":"2019-07-15"}]},
          {"name":"Engineering","budget":0.2,"employees":[
            {"_entity":"Manager","level":2,"employeeNumber":3,"firstName":"Cara","lastName":"Diaz","age":45,"salary":100.5,"rating":5,"hiredAt":"2021-01-10"},
            {"employeeNumber":4,"firstName":"Dan","lastName":"Lee","age":52,"salary":90000,"rating":2.5,"hiredAt":"2012-02-29T08:30:00Z"},
            {"employeeNumber":5,"firstName":"Eve","lastName":"Ng","salary":70000.25,"hiredAt":"2023-09-01"}]}]}]
        """

    let folder: URL
    var store: String { folder.appendingPathComponent("co.sqlite").path }

    init() throws {
        folder = try temporaryDirectory()
        let result = try run(["insert", "Company", "--json", Self.data])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func run(_ arguments: [String]) throws -> ProcessResult {
        try CLIRunner.run(arguments + ["--store", store, "--model", Self.model])
    }

    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout
    }

    @Test func groupedTable() throws {
        let output = try ok(["project", "Employee", "--properties", "department.name AS dept, count:employeeNumber AS n, sum:salary AS total",
                             "--properties", "max:hiredAt,median:age,stddev:rating", "--group-by", "dept", "--having", "n > 1",
                             "--sort", "-total", "--format", "table"])
        try assertSnapshot(Sandbox.anonymized(output), named: "project-grouped.table")
    }

    @Test func perObjectJSON() throws {
        let output = try ok(["project", "Department", "--properties", "name,company,employees.@count,employees.@sum.salary,employees.@max.hiredAt",
                             "--sort", "name", "--format", "json"])
        try assertSnapshot(Sandbox.anonymized(output), named: "project-departments.json")
        let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [[String: Any]]
        #expect(rows.map { $0["employees.@count"] as? Int } == [3, 2])
    }

    @Test func csvDistinctAndLimit() throws {
        #expect(try ok(["project", "Employee", "--properties", "lastName", "--distinct", "--sort", "lastName", "--format", "csv"])
                == "lastName\nDiaz\nLee\nNg\nRay\n")
        #expect(try ok(["project", "Employee", "--properties", "firstName,lowercase:(lastName)", "--sort", "-age", "--limit", "2",
                        "--format", "ndjson"])
                == "{\"firstName\":\"Dan\",\"lowercase:lastName\":\"lee\"}\n{\"firstName\":\"Cara\",\"lowercase:lastName\":\"diaz\"}\n")
        #expect(try ok(["project", "Employee", "--properties", "sum:salary,sum:age,average:age,min:hiredAt", "--format", "json"])
                == "[\n{\"sum:salary\":160101.05,\"sum:age\":159,\"average:age\":39.75,\"min:hiredAt\":\"2012-02-29T08:30:00.000Z\"}\n]\n")
    }

    @Test func wrongUseIsAnError() throws {
        let mixed = try run(["project", "Employee", "--properties", "firstName,sum:salary"])
        #expect(mixed.status == 1)
        #expect(mixed.stderr == """
            error: entity 'Employee': --group-by: 'sum:salary' is an aggregate, which folds all objects into one result, \
            but 'firstName' has a value per object: group by it (firstName) or leave it out

            """)
        let having = try run(["project", "Employee", "--properties", "count:SELF", "--having", "count:(SELF) > 1"])
        #expect(having.status == 2)
        #expect(having.stderr.hasPrefix("error: --having needs --group-by: it filters groups (use --where to filter objects)\nUsage: cdstore project "),
                "\(having.stderr)")
        let type = try run(["project", "Employee", "--properties", "average:hiredAt"])
        #expect(type.status == 1 && type.stderr
                == "error: entity 'Employee': --properties: 'average:hiredAt': type mismatch: average: needs numbers, but 'hiredAt' is Date\n")
        let unknown = try run(["project", "Employee", "--properties", "frstName"])
        #expect(unknown.status == 1 && unknown.stderr
                == "error: entity 'Employee': --properties: 'frstName': no attribute or relationship 'frstName' in Employee; did you mean 'firstName'?\n")
        #expect(try run(["project", "Employee"]).status == 2)
    }

    @Test func updateThenProject() throws {
        #expect(try ok(["update", "Employee", "--where", "department.name == 'Sales'", "--set", "salary=salary * 2", "--set", "age=age + 1"])
                == "updated 2 objects\n")
        #expect(try ok(["project", "Employee", "--properties", "firstName,salary,age", "--where", "department.name == 'Sales'",
                        "--sort", "firstName", "--format", "csv"]) == "firstName,salary,age\nAnn,0.2,35\nBob,0.4,29\n")
        #expect(try ok(["update", "Employee", "--all", "--set", "rating=1", "--dry-run"]) == "would update 5 objects\n")
        #expect(try ok(["update", "Manager", "--all", "--set", "level=3"]) == "updated 1 object\n")
    }

    @Test func updateFailuresChangeNothing() throws {
        let bytes = storeBytes(store)
        let range = try run(["update", "Employee", "--all", "--set", "age=age + 60"])
        #expect(range.status == 1)
        // The three messages, whole, are the golden file update-errors.txt (below).
        let unique = try run(["update", "Employee", "--where", "employeeNumber == 1", "--set", "employeeNumber=2"])
        #expect(unique.status == 1)
        let regex = try run(["update", "Employee", "--where", "employeeNumber == 1", "--set", "email=nope"])
        #expect(regex.status == 1)
        #expect(storeBytes(store) == bytes)
        try assertSnapshot(Sandbox.anonymized(range.stderr + unique.stderr + regex.stderr), named: "update-errors.txt")
    }

    @Test func updateNeedsWhereOrAll() throws {
        #expect(try run(["update", "Employee", "--set", "age=1"]).status == 2)
        #expect(try run(["update", "Employee", "--all", "--where", "age > 1", "--set", "age=1"]).status == 2)
        #expect(try run(["update", "Employee", "--all"]).status == 2)
    }
}
