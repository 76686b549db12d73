import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore seed`: a store to bundle with an app, the same bytes for the same input.
@Suite("Seeding")
struct SeedCommandTests {
    static let company = Corpus.packageRoot.appendingPathComponent("Schemas/Company.json").path
    static let data = Corpus.packageRoot.appendingPathComponent("Schemas/demo/Company.json").path
    static let uuid = "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10"

    func seed(_ out: String, _ data: [String], extra: [String] = []) throws -> ProcessResult {
        try CLIRunner.run(["seed", "--model", Self.company, "--out", out, "--uuid", Self.uuid] + extra + data)
    }

    @Test func sameInputGivesTheSameBytesAndAStoreThatVerifies() throws {
        let box = try Sandbox()
        // An entity file (Employee.csv) after a graph document that is named after an entity (Company.json).
        let employees = try box.write("Employee.csv", "employeeNumber,firstName,lastName,hiredAt\n2001,Ida,Ito,2022-01-03\n")
        let first = try seed(box.path("a.sqlite"), [Self.data, employees])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "\(Self.data): 1 Company object\n\(employees): 1 Employee object\nwrote \(box.path("a.sqlite"))\n")
        #expect(try seed(box.path("b.sqlite"), [Self.data, employees]).status == 0)
        let a = FileManager.default.contents(atPath: box.path("a.sqlite")), b = FileManager.default.contents(atPath: box.path("b.sqlite"))
        #expect(a != nil && a == b, "two seeds of the same data differ")
        // One file: no -wal beside it, journal mode DELETE, incremental auto-vacuum.
        #expect(!FileManager.default.fileExists(atPath: box.path("a.sqlite-wal")))
        let pragmas = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute('pragma journal_mode').fetchone()[0], db.execute('pragma auto_vacuum').fetchone()[0],
                  db.execute('select Z_UUID from Z_METADATA').fetchone()[0])
            """, [box.path("a.sqlite")]).stdout
        #expect(pragmas == "delete 2 \(Self.uuid)\n")
        #expect(try CLIRunner.run(["verify", "--store", box.path("a.sqlite")]).stdout == "ok\n")
        #expect(try CLIRunner.run(["count", "Employee", "--store", box.path("a.sqlite")]).stdout == "6\n")
    }

    @Test func aGraphDocumentSeedsToo() throws {
        let box = try Sandbox()
        let source = box.path("source.sqlite")
        #expect(try CLIRunner.run(["insert", "Company", "--file", Self.data, "--model", Self.company, "--store", source]).status == 0)
        let graph = box.path("graph.json")
        #expect(try CLIRunner.run(["export", "--output", graph, "--store", source]).status == 0)
        let result = try seed(box.path("seed.sqlite"), [graph])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CLIRunner.run(["count", "Department", "--store", box.path("seed.sqlite")]).stdout == "2\n")
    }

    @Test func anExistingOutputIsKeptUnlessForced() throws {
        let box = try Sandbox()
        let out = try box.write("Seed.sqlite", "not a store")
        let refused = try seed(out, [Self.data])
        #expect(refused.status == 2 && refused.stderr == "error: \(out) exists; remove it or give --force\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "not a store")
        #expect(try seed(out, [Self.data], extra: ["--force"]).status == 0)
    }

    @Test func badDataLeavesNoStoreBehind() throws {
        let box = try Sandbox()
        let bad = try box.write("Employee.ndjson", #"{"employeeNumber": 1, "firstName": "A", "lastName": "B", "age": 7}"# + "\n")
        let result = try seed(box.path("Seed.sqlite"), [Self.data, bad])
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(bad): record 1 (line 1): entity 'Employee', attribute 'age': 7 is less than the minimum 16\n")
        #expect(!FileManager.default.fileExists(atPath: box.path("Seed.sqlite")))
        let unknown = try box.write("Nope.csv", "a\n1\n")
        #expect(try seed(box.path("Seed.sqlite"), [unknown]).stderr
                == "error: \(unknown): not named after an entity of the model (Nope), and not a .json graph document\n")
    }
}
