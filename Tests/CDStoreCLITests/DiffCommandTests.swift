import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore diff`: whole outputs, exit statuses 0/1/2–4, exports as one side, migrated stores.
@Suite("diff command")
struct DiffCommandTests {
    static let company = Corpus.schemas.appendingPathComponent("Company.json").path
    static let demo = Corpus.schemas.appendingPathComponent("demo/Company.json").path
    static let staff = Corpus.schemas.appendingPathComponent("Staff.xcdatamodeld").path

    /// Two stores of the demo company in one folder: A as seeded, B with a raise, a departure, a hire and a move.
    static func stores() throws -> (folder: URL, a: String, b: String) {
        let folder = try temporaryDirectory()
        let (a, b) = (folder.appendingPathComponent("a.sqlite").path, folder.appendingPathComponent("b.sqlite").path)
        for store in [a, b] {
            try expectSuccess(["insert", "Company", "--file", demo, "--store", store, "--model", company])
        }
        try expectSuccess(["update", "Employee", "--where", "employeeNumber == 1001", "--set", "salary=75600", "--store", b])
        try expectSuccess(["update", "Employee", "--where", "employeeNumber == 1004", "--set", "rating=0.0001", "--store", b])
        try expectSuccess(["delete", "Employee", "--where", "employeeNumber == 1002", "--store", b])
        try expectSuccess(["insert", "Employee", "--store", b, "--json", #"""
            {"employeeNumber": 1006, "firstName": "Farah", "lastName": "Nasser", "hiredAt": "2024-01-02",
             "department": {"_ref": {"name": "R&D"}}}
            """#])
        return (folder, a, b)
    }

    static func expectSuccess(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 0, "cdstore \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// `$ cdstore diff …`, then standard output, standard error and the exit status of each run, for a snapshot.
    static func transcript(_ runs: [[String]], in folder: URL) throws -> String {
        var text = ""
        for arguments in runs {
            let result = try CLIRunner.run(["diff"] + arguments)
            let shown = arguments.map { $0.replacingOccurrences(of: folder.path + "/", with: "") }
                .map { $0.replacingOccurrences(of: Corpus.packageRoot.path + "/", with: "") }
            text += "$ cdstore diff " + shown.map(GoldenOutputTests.shellQuoted).joined(separator: " ") + "\n"
            text += result.stdout + result.stderr.replacingOccurrences(of: folder.path + "/", with: "") + "exit \(result.status)\n\n"
        }
        return text
    }

    @Test("Added, removed and changed objects: the summary table, ndjson and json records, and exit status 1")
    func differences() throws {
        let (folder, a, b) = try Self.stores()
        try assertSnapshot(Sandbox.anonymized(try Self.transcript([
            [a, b],
            [a, b, "--format", "ndjson"],
            [a, b, "--format", "json", "--entity", "Company,Badge"],
            [a, b, "--format", "csv"],
            [b, a, "--format", "ndjson", "--entity", "Manager"],
        ], in: folder)), named: "diff-differences.txt")
    }

    @Test("--key, --ignore, --tolerance, --entity and --where narrow what is compared; the same objects exit 0")
    func narrowing() throws {
        let (folder, a, b) = try Self.stores()
        try assertSnapshot(Sandbox.anonymized(try Self.transcript([
            [a, b, "--entity", "Employee", "--ignore", "salary", "--tolerance", "0.001", "--format", "ndjson"],
            [a, b, "--entity", "Employee", "--where", "salary < %@", "--arg", "70000", "--ignore", "Employee.rating,department"],
            [a, b, "--entity", "Employee", "--key", "Employee=lastName,firstName", "--ignore", "employeeNumber,salary,rating,department",
             "--format", "ndjson"],
            [a, a],
        ], in: folder)), named: "diff-narrowing.txt")
    }

    @Test("A store against its own export (graph document or NDJSON) has no differences; exports read with a model")
    func againstExport() throws {
        let (folder, a, b) = try Self.stores()
        let json = folder.appendingPathComponent("a.json").path, ndjson = folder.appendingPathComponent("b.ndjson").path
        try Self.expectSuccess(["export", "--store", a, "--output", json])
        try Self.expectSuccess(["export", "--store", b, "--format", "ndjson", "--output", ndjson])
        let same = try CLIRunner.run(["diff", a, json])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == """
            entity      key                only in A  only in B  changed  same
            ----------  -----------------  ---------  ---------  -------  ----
            Badge       code                       0          0        0     1
            Company     name                       0          0        0     1
            Department  company.name,name          0          0        0     2
            Employee    employeeNumber             0          0        0     4
            Manager     employeeNumber             0          0        0     1

            """)
        #expect(try CLIRunner.run(["diff", ndjson, b]).status == 0)
        // Two exports: the model comes from --model; the store-against-store diff is the export-against-export one.
        let exports = try CLIRunner.run(["diff", json, ndjson, "--model", Self.company, "--format", "ndjson"])
        // Both read with the model file, so that values come in its property order (a store's own model cache keeps
        // Core Data's order, by name).
        let stores = try CLIRunner.run(["diff", a, b, "--model", Self.company, "--format", "ndjson"])
        #expect(exports.status == 1 && exports.stdout == stores.stdout && !exports.stdout.isEmpty)
        // With one argument, A is --store.
        #expect(try CLIRunner.run(["diff", json], environment: ["CDSTORE_STORE": a]).status == 0)
    }

    @Test("A store against its copy migrated by `cdstore migrate`: model changes first, properties matched across versions")
    func migrated() throws {
        let folder = try temporaryDirectory()
        let (a, b) = (folder.appendingPathComponent("v1.sqlite").path, folder.appendingPathComponent("v2.sqlite").path)
        try Self.expectSuccess(["insert", "Department", "--store", a, "--model", Self.staff, "--model-version", "Staff", "--json", #"""
            [{"name": "R&D", "budget": 7, "employees": [{"_entity": "Employee", "name": "Ann", "age": 30, "score": 3.0, "rating": 5,
               "badge": {"code": "B1"}, "projects": [{"title": "Apollo"}]}, {"_entity": "Contractor", "name": "Bo", "agency": "Acme"}]},
             {"name": "Ops"}]
            """#])
        try FileManager.default.copyItem(atPath: a, toPath: b)
        try Self.expectSuccess(["migrate", "--store", b, "--model", Self.staff, "--model-version", "Staff 2", "--no-backup"])
        try assertSnapshot(Sandbox.anonymized(try Self.transcript([
            [a, b, "--model", Self.staff, "--key", "Person=fullName"],
            [a, b, "--model", Self.staff, "--key", "Person=fullName", "--format", "ndjson", "--entity", "Person"],
        ], in: folder)), named: "diff-migrated.txt")
    }

    @Test("Errors: 2 for what cannot be compared (as diff(1) reports trouble), 3 and 4 as for every command")
    func errors() throws {
        let (folder, a, b) = try Self.stores()
        let export = folder.appendingPathComponent("bad.ndjson").path
        try Data(#"{"_entity":"Employee","employeeNumber":"x"}"#.utf8).write(to: URL(fileURLWithPath: export))
        let other = folder.appendingPathComponent("other.sqlite").path
        try Self.expectSuccess(["insert", "Person", "--store", other, "--model", Corpus.schemas.appendingPathComponent("People.json").path,
                                "--json", #"{"id": 1, "name": "X", "age": 20, "salary": 1, "active": true, "joined": "2020-01-01"}"#])
        try assertSnapshot(Sandbox.anonymized(try Self.transcript([
            [a],
            [a, b, "--where", "salary > 1"],
            [a, b, "--entity", "Employe"],
            [a, b, "--entity", "Employee", "--where", "salary >"],
            [a, b, "--key", "Employee"],
            [a, b, "--key", "Employee=photo"],
            [a, b, "--ignore", "wage"],
            [a, b, "--tolerance=-1"],
            [a, export],
            [export, folder.appendingPathComponent("missing.json").path],
            [a, other, "--model-b", Self.company],
        ], in: folder)), named: "diff-errors.txt")
    }
}
