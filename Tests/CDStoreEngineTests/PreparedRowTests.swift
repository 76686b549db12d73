import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Flat records are converted and checked on the thread that reads ahead (``RecordPreparer``) and
/// written 32 to a statement; records it cannot prepare go the general way, in their place. The store, the
/// errors and their places must be those of reading and writing on one thread.
@Suite("Prepared rows and multi-row INSERTs")
struct PreparedRowTests {
    /// Records given in full, reported as a large file so that the insert reads them ahead.
    struct ListSource: RecordSource {
        let records: [InputRecord]
        private(set) var index = 0

        init(_ records: [InputRecord]) { self.records = records }

        mutating func next() throws -> InputRecord? {
            guard index < records.count else { return nil }
            index += 1
            return records[index - 1]
        }

        var position: InputPosition { InputPosition(bytesRead: Int64(index), totalBytes: 1 << 30) }
    }

    /// Person (and its sub-entity Manager) with a to-one team; names at least 2 characters long.
    static func model() throws -> ManagedObjectModel {
        try Org.jsonModel(#"""
            [{"name": "Person", "attributes": [{"name": "name", "type": "String", "minValue": "2"},
                                               {"name": "age", "type": "Integer 16", "optional": true}],
              "relationships": [{"name": "team", "destination": "Team", "inverse": "members", "optional": true}]},
             {"name": "Manager", "parent": "Person", "attributes": [{"name": "level", "type": "Integer 16", "optional": true}]},
             {"name": "Team", "attributes": [{"name": "title", "type": "String"}],
              "relationships": [{"name": "members", "destination": "Person", "inverse": "team", "toMany": true}]}]
            """#)
    }

    static func person(_ n: Int, name: String? = nil, extra: [(String, InputValue)] = []) -> InputRecord {
        InputRecord(fields: [("name", .string(name ?? "n\(n)")), ("age", .integer(Int64(n % 90)))] + extra, line: n)
    }

    @Test func flatRecordsAndOthersKeepInputOrder() throws {
        let store = try Org.store(try Self.model(), name: "Prepared.sqlite")
        var expected: [String] = []
        let records = (1...3000).map { n -> InputRecord in
            if n % 7 == 0 {
                expected.append("n\(n)|team")
                return Self.person(n, extra: [("team", .object([("title", .string("T\(n)"))]))])
            }
            if n % 11 == 0 {
                expected.append("n\(n)|Manager")
                var record = Self.person(n, extra: [("_entity", .string("Manager")), ("level", .integer(2))])
                record.entityName = "Manager"
                return record
            }
            expected.append("n\(n)|")
            return Self.person(n)
        }
        var source = ListSource(records)
        let inserted = Counter()
        let summary = try store.insert(from: &source, into: "Person", options: InsertSettings(onInsert: { _ in inserted.add() }))
        #expect(summary == InsertSummary(inserted: 3000, skipped: 0))
        #expect(inserted.count == 3000)
        let managerEntity = try #require(store.layout.entity(named: "Manager")).number
        let rows = try store.rows("""
            SELECT p.ZNAME, CASE WHEN p.ZTEAM IS NOT NULL THEN 'team' WHEN p.Z_ENT = \(managerEntity) THEN 'Manager' ELSE '' END
            FROM ZPERSON p ORDER BY p.Z_PK
            """)
        #expect(rows == expected, "objects are stored in input order, whichever way each went")
        #expect(try store.rows("SELECT MIN(Z_PK), MAX(Z_PK), COUNT(*) FROM ZPERSON") == ["1|3000|3000"])
        #expect(try store.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == ["3000"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZTEAM") == ["\(3000 / 7)"])
        #expect(try store.rows("SELECT SUM(ZAGE) FROM ZPERSON") == ["\((1...3000).reduce(0) { $0 + $1 % 90 })"])
    }

    /// A record the model refuses, in the middle of a batch of prepared rows: the error names that record and its
    /// line, and nothing is stored.
    @Test(arguments: [40, 2999])
    func anInvalidRecordIsNamedAndNothingIsStored(_ bad: Int) throws {
        let store = try Org.store(try Self.model(), name: "PreparedInvalid.sqlite")
        var source = ListSource((1...3000).map { Self.person($0, name: $0 == bad ? "x" : nil) })
        let error = try #require(throws: StoreError.self) { try store.insert(from: &source, into: "Person") }
        #expect(error.record == bad)
        #expect(error.line == bad)
        #expect(error.entity == "Person")
        #expect(error.property == "name")
        #expect(try store.rows("SELECT COUNT(*) FROM ZPERSON") == ["0"])
    }

    /// The writer takes the last object's plan without looking the entity up again (``GraphInserter``): for an
    /// object of that same entity, or a prepared one. An entity outside the requested one's tree stays refused even
    /// right after objects of it were written as nested ones, and prepared sub-entity objects between plain ones
    /// land in their own entity.
    @Test func theLastPlanIsTakenOnlyForTheEntityItWasMadeFor() throws {
        let store = try Org.store(try Self.model(), name: "PreparedLastPlan.sqlite")
        let records = (1...600).map { n -> InputRecord in
            switch n {
            case 401:
                var record = InputRecord(fields: [("_entity", .string("Team")), ("title", .string("T"))], line: n)
                record.entityName = "Team"
                return record
            case let n where n % 3 == 0:
                var record = Self.person(n, extra: [("_entity", .string("Manager")), ("level", .integer(1))])
                record.entityName = "Manager"
                return record
            default:
                return Self.person(n, extra: [("team", .object([("title", .string("T\(n)"))]))])
            }
        }
        var source = ListSource(records)
        let error = try #require(throws: StoreError.self) { try store.insert(from: &source, into: "Person") }
        #expect(error.record == 401)
        #expect(error.property == "_entity")
        #expect(error.description.contains("'Team' is not Person or one of its sub-entities"), "\(error)")

        var valid = ListSource(Array(records.prefix(400)))
        #expect(try store.insert(from: &valid, into: "Person") == InsertSummary(inserted: 400, skipped: 0))
        let manager = try #require(store.layout.entity(named: "Manager")).number
        #expect(try store.rows("SELECT COUNT(*) FROM ZPERSON WHERE Z_ENT = \(manager)") == ["133"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZPERSON WHERE Z_ENT = \(manager) AND ZLEVEL = 1 AND ZTEAM IS NULL") == ["133"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZPERSON p JOIN ZTEAM t ON p.ZTEAM = t.Z_PK WHERE t.ZTITLE = 'T' || substr(p.ZNAME, 2)") == ["267"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZTEAM") == ["267"])
    }

    /// Names of every length, some longer than a chunk of ``BoundText``, written 32 to a statement and one by one
    /// (nested teams): each is stored byte for byte.
    @Test func longAndShortTextIsStoredExactly() throws {
        let store = try Org.store(try Self.model(), name: "PreparedText.sqlite")
        func name(_ n: Int) -> String {
            n % 50 == 0 ? String(repeating: "long", count: BoundText.chunkBytes / 3) + "\(n)"
                : n % 7 == 0 ? "nul\u{0}\(n)" : "n\(n)é"
        }
        let records = (1...700).map { n in
            Self.person(n, name: name(n), extra: n % 9 == 0 ? [("team", .object([("title", .string(name(n + 1)))]))] : [])
        }
        var source = ListSource(records)
        #expect(try store.insert(from: &source, into: "Person") == InsertSummary(inserted: 700, skipped: 0))
        let queue = try DatabaseQueue(path: store.path)
        try queue.read { db in
            let names = try Data.fetchAll(db, sql: "SELECT CAST(ZNAME AS BLOB) FROM ZPERSON ORDER BY Z_PK")
            #expect(names == (1...700).map { Data(name($0).utf8) })
            let titles = try Data.fetchAll(db, sql: "SELECT CAST(t.ZTITLE AS BLOB) FROM ZPERSON p JOIN ZTEAM t ON p.ZTEAM = t.Z_PK ORDER BY p.Z_PK")
            #expect(titles == (1...700).filter { $0 % 9 == 0 }.map { Data(name($0 + 1).utf8) })
        }
    }

    /// A key that names nothing is not prepared: the general path refuses it, with its suggestion.
    @Test func anUnknownKeyIsRefusedInItsPlace() throws {
        let store = try Org.store(try Self.model(), name: "PreparedUnknown.sqlite")
        var source = ListSource((1...500).map { Self.person($0, extra: $0 == 77 ? [("nmae", .string("?"))] : []) })
        let error = try #require(throws: StoreError.self) { try store.insert(from: &source, into: "Person") }
        #expect(error.record == 77)
        #expect(error.property == "nmae")
        #expect(error.description.contains("did you mean 'name'"), "\(error)")
    }

    /// A UNIQUE index another tool added: the multi-row INSERT fails, and the row that broke it is found and named
    /// (in a full batch, and in the last rows written one by one).
    @Test(arguments: [40, 2990])
    func aConstraintInABatchNamesItsRecord(_ duplicate: Int) throws {
        let store = try Org.store(try Self.model(), name: "PreparedUnique.sqlite")
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "CREATE UNIQUE INDEX byName ON ZPERSON (ZNAME)")
        }
        var source = ListSource((1...3000).map { Self.person($0, name: $0 == duplicate ? "n7" : nil) })
        let error = try #require(throws: StoreError.self) { try store.insert(from: &source, into: "Person") }
        #expect(error.code == .constraintViolation)
        #expect(error.record == duplicate)
        #expect(error.line == duplicate)
        #expect(error.description.contains("uniqueness constraint (name) violated"), "\(error)")
        #expect(error.description.contains("n7"), "\(error)")
        #expect(try store.rows("SELECT COUNT(*) FROM ZPERSON") == ["0"])
    }

    /// What the preparer makes of each kind of record: flat rows only for entities with nothing to look up; the
    /// converted rows of other records' objects; records that need the writing thread as read.
    @Test func whatThePreparerPrepares() throws {
        let model = try Org.jsonModel(#"""
            [{"name": "Tag", "attributes": [{"name": "name", "type": "String"}], "uniquenessConstraints": [["name"]]},
             {"name": "Note", "attributes": [{"name": "text", "type": "String"}, {"name": "size", "type": "Integer 16", "optional": true}]},
             {"name": "Shape", "abstract": true, "attributes": [{"name": "name", "type": "String"}]}]
            """#)
        let store = try Org.store(model, name: "PreparedWhich.sqlite")
        let entity = { (name: String) in try #require(model.entity(named: name)) }
        let note = try #require(try RecordPreparer(entity: try entity("Note"), store: store, options: InsertSettings()))
        let kind = { (item: SourceItem) -> String in
            switch item {
            case .record: "record"
            case .prepared: "flat"
            case .graph(_, let rows): rows.row == nil ? "graph without row" : "graph"
            }
        }
        #expect(kind(note.prepare(InputRecord(fields: [("text", .string("a"))]))) == "flat")
        #expect(kind(note.prepare(InputRecord(fields: [("txet", .string("a"))]))) == "record", "a key that names nothing")
        #expect(kind(note.prepare(InputRecord(fields: [("text", .string("a")), ("size", .string("big"))]))) == "record",
                "a value that does not convert")
        let tag = try #require(try RecordPreparer(entity: try entity("Tag"), store: store, options: InsertSettings()))
        #expect(kind(tag.prepare(InputRecord(fields: [("name", .string("t"))]))) == "graph", "a uniqueness lookup stays with the writer")
        let shape = try #require(try RecordPreparer(entity: try entity("Shape"), store: store, options: InsertSettings()))
        #expect(kind(shape.prepare(InputRecord(fields: [("name", .string("s"))]))) == "record", "an abstract entity")
        #expect(try RecordPreparer(entity: try entity("Note"), store: store, options: InsertSettings(skipInvalid: true)) == nil)
    }

    /// A department's nested employees each get their row; one the model refuses is left to the writing thread.
    @Test func nestedObjectsArePreparedInTheRecordsShape() throws {
        let store = try DeferredIndexTests.companyStore("PreparedNested.sqlite")
        let department = try #require(store.model.entity(named: "Department"))
        let preparer = try #require(try RecordPreparer(entity: department, store: store, options: InsertSettings()))
        let record = DeferredIndexTests.department(1, employees: 3, email: { $0 == 102 ? "not-an-email" : "e\($0)@x.example" })
        guard case .graph(_, let rows) = preparer.prepare(record) else {
            Issue.record("the department is not prepared")
            return
        }
        #expect(rows.entityName == "Department")
        #expect(rows.row != nil)
        #expect(rows.nested.keys.sorted() == ["employees"])
        #expect(rows.nested("employees", at: 0)?.row != nil)
        #expect(rows.nested("employees", at: 0)?.entityName == "Employee")
        #expect(rows.nested("employees", at: 1)?.row == nil, "the refused e-mail is converted again by the writer, which reports it")
        #expect(rows.nested("employees", at: 2)?.row != nil)
        #expect(rows.nested("company", at: 0) == nil, "a _ref is a lookup")
    }
}

extension PreparedRowTests {
    /// `cdstore insert` of flat records large enough to be read ahead, with a malformed line and a value the model
    /// refuses: the same output, exit status and store with rows prepared ahead, converted on the writing thread,
    /// and read on one thread.
    @Test(arguments: [[String](), ["--skip-invalid"]])
    func sameAsConvertingOnTheWritingThread(_ extra: [String]) throws {
        let folder = try temporaryDirectory()
        var lines: [String] = []
        var csv = ["id,name,age,salary,active,joined"]
        for n in 1...3000 {
            let age = n == 2100 ? "\"abc\"" : "\(n % 90)"
            lines.append(n == 1200 ? "{\"id\": 1200, \"name\": " :
                #"{"id": \#(n), "name": "N\#(n)", "age": \#(age), "salary": \#(n).5, "active": true, "joined": "2020-01-02T03:04:05.678Z"}"#)
            csv.append(n == 1200 ? "1200,N" : "\(n),N\(n),\(n == 2100 ? "abc" : "\(n % 90)"),\(n).5,true,2020-01-02T03:04:05.678Z")
        }
        let ndjson = folder.appendingPathComponent("p.ndjson")
        let csvFile = folder.appendingPathComponent("p.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: ndjson, atomically: true, encoding: .utf8)
        try (csv.joined(separator: "\n") + "\n").write(to: csvFile, atomically: true, encoding: .utf8)
        let people = Corpus.schemas.appendingPathComponent("People.json").path
        let environments = [[:], ["CDSTORE_NO_PREPARE_AHEAD": "1"], ["CDSTORE_NO_READ_AHEAD": "1"]]
        for (file, flag) in [(ndjson, "--nl"), (csvFile, "--csv")] {
            let runs = try SwitchedRuns(environments,
                                        arguments: ["insert", "Person", "--file", file.path, flag, "--model", people, "--quiet"] + extra,
                                        folder: folder, name: flag, queries: [
                                            "SELECT Z_PK || ' ' || ZID || ' ' || ZNAME || ' ' || ZAGE || ' ' || ZJOINED FROM ZPERSON ORDER BY Z_PK"])
            let results = runs.results
            let contents = runs.contents
            // Skipped records make the exit status 1 too, after the others are stored.
            #expect(results[0].status == 1, "\(flag) \(extra): \(results[0].stderr)")
            runs.expectSameOutcome("\(flag) \(extra)")
            #expect(results[0].stderr.contains(extra.isEmpty ? "record 1200" : "skipped 2 invalid records"),
                    "\(flag): \(results[0].stderr)")
            if !extra.isEmpty { #expect(contents[0].split(separator: ",").count == 2998) }
        }
    }
}

extension PreparedRowTests {
    /// `cdstore insert` of a graph large enough to be read ahead (and its indexes built afterwards), with a nested
    /// employee the model refuses and one whose number collides: the same output, status and store whether the
    /// reading thread converts the objects' rows or not.
    @Test(arguments: [[String](), ["--skip-invalid"]])
    func graphSameAsConvertingOnTheWritingThread(_ extra: [String]) throws {
        let folder = try temporaryDirectory()
        var lines: [String] = []
        for d in 1...3000 {
            let staff = (1...3).map { e -> String in
                let number = d == 900 && e == 2 ? 301 : d * 10 + e  // collides with an employee of department 30
                let email = d == 1200 && e == 3 ? "not-an-email" : "e\(number)@x.example"
                // Some name the inverse themselves, so they cannot wait for their department's key.
                let inverse = d % 700 == 0 && e == 1 ? #", "department": {"_ref": {"name": "D1"}}"# : d % 500 == 0 && e == 2 ? #", "department": null"# : ""
                return #"{"employeeNumber": \#(number), "firstName": "F\#(number)", "lastName": "L", "email": "\#(email)", "age": \#(20 + e), "hiredAt": "2020-01-0\#(e)T00:00:00Z"\#(inverse)}"#
            }
            lines.append(#"{"name": "D\#(d)", "budget": 1000, "company": {"_ref": {"name": "Bench Co"}}, "employees": [\#(staff.joined(separator: ", "))]}"#)
        }
        let file = folder.appendingPathComponent("d.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try file.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0 > 1 << 20, "large enough for the indexes to be built afterwards")
        let company = Corpus.schemas.appendingPathComponent("Company.json").path
        let environments = [[:], ["CDSTORE_NO_PREPARE_AHEAD": "1"], ["CDSTORE_NO_READ_AHEAD": "1"], ["CDSTORE_NO_DEFERRED_INDEXES": "1"]]
        let runs = try SwitchedRuns(
            environments, arguments: ["insert", "Department", "--file", file.path, "--nl", "--model", company, "--quiet"] + extra,
            folder: folder, name: "g",
            queries: ["""
                SELECT e.Z_PK || ' ' || e.ZEMPLOYEENUMBER || ' ' || e.ZEMAIL || ' ' || e.ZAGE || ' ' || e.ZHIREDAT || ' ' || d.ZNAME
                FROM ZEMPLOYEE e JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT ORDER BY e.Z_PK
                """, "SELECT name || ' ' || sql FROM sqlite_master WHERE type = 'index' ORDER BY name",
                "SELECT Z_PK || ' ' || Z_OPT FROM ZDEPARTMENT ORDER BY Z_PK"],
            before: { store in
                _ = try CLIRunner.run(["insert", "Company", "--json", #"{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Bench Co"}"#,
                                       "--store", store, "--model", company])
            })
        let results = runs.results
        #expect(results[0].status == 1, "\(extra): \(results[0].stderr)")
        runs.expectSameOutcome("\(extra)")
        #expect(results[0].stderr.contains(extra.isEmpty ? "record 900" : "skipped 2 invalid records"), "\(results[0].stderr)")
    }
}

/// A count several threads may add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
