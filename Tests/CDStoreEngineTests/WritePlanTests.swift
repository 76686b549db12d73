import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A bulk insert costs one statement per flat record, writes known to-ones in the INSERT itself, keeps
/// nothing per new object, and with skip-invalid stores the valid records of an input.
@Suite("Write plans: statements per record")
struct WritePlanTests {
    static let model = try! Org.jsonModel(#"""
        [{"name": "Department", "attributes": [{"name": "name", "type": "String"}],
          "relationships": [{"name": "employees", "destination": "Employee", "inverse": "department", "toMany": true,
                             "optional": true}]},
         {"name": "Employee",
          "attributes": [{"name": "name", "type": "String"},
                         {"name": "age", "type": "Integer 16", "optional": true, "minValue": "16", "maxValue": "100"},
                         {"name": "level", "type": "Integer 16", "default": "1"}],
          "relationships": [{"name": "department", "destination": "Department", "inverse": "employees",
                             "optional": true}]}]
        """#)

    /// The SQL of every statement SQLite runs while `body` runs.
    final class StatementLog: @unchecked Sendable {
        private let lock = NSLock()
        private var statements: [String] = []
        func add(_ sql: String) { lock.lock(); statements.append(sql); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return statements }
        func count(_ prefix: String) -> Int { all.filter { $0.hasPrefix(prefix) }.count }
    }

    func traced(_ store: Store, _ body: () throws -> Void) throws -> StatementLog {
        let log = StatementLog()
        store.database.inDatabase { db in db.trace(options: .statement) { event in
            if case .statement(let statement) = event { log.add(statement.sql) }
        } }
        defer { store.database.inDatabase { db in db.trace(options: .statement, nil) } }
        try body()
        return log
    }

    func employees(_ range: Range<Int>) -> [InputRecord] {
        range.map { InputRecord(fields: [("name", .string("E\($0)")), ("age", .integer(Int64(20 + $0 % 50)))]) }
    }

    @Test func aFlatRecordCostsExactlyOneStatement() throws {
        let store = try Org.store(Self.model, name: "Flat.sqlite")
        // A new store's first write also switches its journal and back (FirstWriteJournalTests): count after it.
        try store.inWriteTransaction {}
        let hundred = try traced(store) { try store.insert(employees(0..<100), into: "Employee") }
        let thousand = try traced(store) { try store.insert(employees(100..<1100), into: "Employee") }
        // Whatever an insert costs once (keys, Z_MAX, transaction), each record adds one INSERT and nothing else.
        #expect(thousand.all.count - hundred.all.count == 900)
        #expect(thousand.count("INSERT INTO ZEMPLOYEE") == 1000)
        #expect(thousand.all.filter { !$0.hasPrefix("INSERT INTO ZEMPLOYEE") }.count < 10)
        #expect(try store.rows("SELECT COUNT(*), MIN(ZLEVEL), MAX(Z_PK) FROM ZEMPLOYEE") == ["1100|1|1100"])
        #expect(try store.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'") == ["1100"])
    }

    @Test func aToOneKnownAtInsertIsWrittenByTheInsert() throws {
        let store = try Org.store(Self.model, name: "ToOne.sqlite")
        try store.insertJSON("Department", #"{"name": "R&D"}"#)
        let log = try traced(store) {
            try store.insertJSON("Employee", "[{\"name\": \"Ann\", \"department\": \"\(store.uri("Department", 1))\"},"
                                 + #"{"name": "Bo", "department": {"_ref": {"name": "R&D"}}}, {"name": "Cy", "department": null}]"#)
        }
        #expect(log.count("INSERT INTO ZEMPLOYEE") == 3)
        #expect(log.count("UPDATE ZEMPLOYEE") == 0)
        #expect(log.all.first { $0.hasPrefix("INSERT INTO ZEMPLOYEE") }
                == "INSERT INTO ZEMPLOYEE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZAGE, ZLEVEL, ZDEPARTMENT) VALUES (?, ?, ?, ?, ?, ?, ?)")
        #expect(try store.rows("SELECT ZNAME, ZDEPARTMENT FROM ZEMPLOYEE ORDER BY Z_PK") == ["Ann|1", "Bo|1", "Cy|NULL"])
        // The department's to-many changed: Core Data bumps the optimistic-lock version of the existing object once.
        #expect(try store.rows("SELECT Z_OPT FROM ZDEPARTMENT") == ["2"])
    }

    @Test func nestedChildrenWriteTheirParentsKeyInTheirInsert() throws {
        let store = try Org.store(Self.model, name: "Nested.sqlite")
        let departments = (1...3).map { d in
            InputRecord(fields: [("name", .string("D\(d)")),
                                 ("employees", .array((1...10).map { .object([("name", .string("E\(d).\($0)"))]) }))])
        }
        let log = try traced(store) { try store.insert(departments, into: "Department") }
        // A department's ten employees go in one INSERT of ten rows, once its key is known.
        #expect(log.count("INSERT OR FAIL INTO ZEMPLOYEE") == 3)
        #expect(log.count("INSERT INTO ZEMPLOYEE") == 0)
        #expect(log.count("INSERT INTO ZDEPARTMENT") == 3)
        // The children's rows wait for the department's key, so no UPDATE follows them.
        #expect(log.count("UPDATE ZEMPLOYEE") == 0)
        #expect(log.count("SELECT") < 10)
        #expect(try store.rows("SELECT ZDEPARTMENT, COUNT(*) FROM ZEMPLOYEE GROUP BY 1 ORDER BY 1") == ["1|10", "2|10", "3|10"])
        #expect(try store.rows("SELECT Z_PK, ZNAME, Z_OPT FROM ZDEPARTMENT ORDER BY 1") == ["1|D1|1", "2|D2|1", "3|D3|1"])
        #expect(try store.verify().isEmpty)
    }

    @Test func waitingSiblingsStillMeetUniquenessConstraints() throws {
        let model = try ModelLoader.load(Corpus.schemas.appendingPathComponent("Company.json").path).model
        let store = try Org.store(model, name: "Siblings.sqlite")
        try store.insertJSON("Company", #"{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Acme"}"#)
        let employee = { (number: Int) in #"{"employeeNumber": \#(number), "firstName": "A", "lastName": "B"}"# }
        let message = errorText {
            try store.insertJSON("Department", #"{"name": "R&D", "company": {"_ref": {"name": "Acme"}}, "employees": ["#
                                 + employee(7) + "," + employee(8) + "," + employee(7) + "]}")
        }
        #expect(message == "record 1: entity 'Employee': uniqueness constraint (employeeNumber) violated: an object with "
                + "employeeNumber = 7 already exists (\(store.uri("Employee", 1)))")
        try store.insertJSON("Department", #"{"name": "R&D", "company": {"_ref": {"name": "Acme"}}, "employees": ["#
                             + employee(7) + "," + employee(8) + "]}")
        #expect(try store.rows("SELECT ZEMPLOYEENUMBER, ZDEPARTMENT FROM ZEMPLOYEE ORDER BY Z_PK") == ["7|1", "8|1"])
        #expect(try store.verify().isEmpty)
    }

    /// A uniqueness constraint that a UNIQUE index enforces is not looked up before each new object: the INSERT
    /// refuses a duplicate, and only then is the existing object looked up, to name it as before. A constraint
    /// that merges (upsert) is looked up before each object.
    @Test func anIndexedConstraintIsLookedUpOnlyWhenTheInsertFails() throws {
        let model = try ModelLoader.load(Corpus.schemas.appendingPathComponent("Company.json").path).model
        let store = try Org.store(model, name: "Enforced.sqlite")
        try store.insertJSON("Company", #"{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Acme"}"#)
        try store.insertJSON("Department", #"{"name": "R&D", "company": {"_ref": {"name": "Acme"}}}"#)
        let employees = { (numbers: [Int]) in
            "[" + numbers.map { #"{"employeeNumber": \#($0), "firstName": "A", "lastName": "B", "department": {"_ref": {"name": "R&D"}}}"# }
                .joined(separator: ",") + "]"
        }
        let lookup = "SELECT Z_PK, Z_ENT FROM ZEMPLOYEE WHERE"
        let refusing = try traced(store) { try store.insertJSON("Employee", employees(Array(1...50))) }
        #expect(refusing.count(lookup) == 0)
        let merging = try traced(store) { try store.insertJSON("Employee", employees(Array(51...60)), upsert: true) }
        #expect(merging.count(lookup) == 10)
        let duplicate = try traced(store) {
            let message = errorText { try store.insertJSON("Employee", employees([61, 62, 7])) }
            #expect(message == "record 3: entity 'Employee': uniqueness constraint (employeeNumber) violated: an object "
                    + "with employeeNumber = 7 already exists (\(store.uri("Employee", 7)))")
        }
        #expect(duplicate.count(lookup) == 1)
        // Nested employees go in one INSERT of several rows once their department has its key: a collision there
        // names its record and the existing object the same way.
        let nested = errorText {
            try store.insertJSON("Department", #"{"name": "Ops", "company": {"_ref": {"name": "Acme"}}, "employees": ["#
                                 + #"{"employeeNumber": 70, "firstName": "A", "lastName": "B"},"#
                                 + #"{"employeeNumber": 12, "firstName": "A", "lastName": "B"},"#
                                 + #"{"employeeNumber": 71, "firstName": "A", "lastName": "B"}]}"#)
        }
        #expect(nested == "record 1: entity 'Employee': uniqueness constraint (employeeNumber) violated: an object "
                + "with employeeNumber = 12 already exists (\(store.uri("Employee", 12)))")
        #expect(try store.rows("SELECT COUNT(*) FROM ZEMPLOYEE") == ["60"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZDEPARTMENT") == ["1"])
    }

    /// Regression: rows waiting for their parent were invisible to a `_ref` later in the same record.
    @Test func aReferenceFindsNestedObjectsOfTheSameRecordStillWaitingForTheirParent() throws {
        let store = try Org.store()
        try store.insertJSON("Organization", #"""
            {"name": "Globex", "members": [{"_entity": "Employee", "name": "E1", "employeeNumber": 1},
                                           {"_entity": "Employee", "name": "E2", "employeeNumber": 2}],
             "projects": [{"title": "Bridge", "people": [{"_ref": {"name": "E2"}}]}]}
            """#)
        #expect(try store.rows("SELECT ZNAME, ZORGANIZATION FROM ZPARTY WHERE ZNAME LIKE 'E%' ORDER BY Z_PK") == ["E1|3", "E2|3"])
        #expect(try store.rows("SELECT * FROM Z_5PROJECTS") == ["2|1"])
        #expect(try store.verify().isEmpty)
    }

    @Test func skipInvalidStoresTheValidRecordsAndReportsTheOthers() throws {
        let store = try Org.store(Self.model, name: "Skip.sqlite")
        final class Skipped: @unchecked Sendable { var all: [SkippedRecord] = [] }
        let skipped = Skipped()
        let input = [
            InputRecord(fields: [("name", .string("Ann"))], line: 1),
            InputRecord(fields: [("name", .string("Bo")), ("age", .integer(7))], line: 2),
            // A graph that fails after its nested department was written: the whole record goes.
            InputRecord(fields: [("name", .string("Cy")), ("department", .object([("name", .string("Lost"))])),
                                 ("agee", .integer(30))], line: 3),
            InputRecord(fields: [("name", .string("Di")), ("department", .object([("name", .string("Kept"))]))], line: 4),
        ]
        var source = SequenceRecordSource(input)
        let summary = try store.insert(from: &source, into: "Employee",
                                       options: InsertSettings(skipInvalid: true, onSkip: { skipped.all.append($0) }))
        #expect(summary == InsertSummary(inserted: 2, skipped: 2))
        #expect(skipped.all.map { "record \($0.record) (line \($0.line ?? 0)): \($0.error)" } == [
            "record 2 (line 2): entity 'Employee', attribute 'age': 7 is less than the minimum 16",
            "record 3 (line 3): entity 'Employee', attribute 'agee': no such attribute or relationship; did you mean 'age'?",
        ])
        #expect(try store.rows("SELECT ZNAME FROM ZEMPLOYEE ORDER BY Z_PK") == ["Ann", "Di"])
        #expect(try store.rows("SELECT ZNAME FROM ZDEPARTMENT") == ["Kept"])
        #expect(try store.verify().isEmpty)
    }

    @Test func withoutSkipInvalidOneBadRecordLeavesTheStoreAsItWas() throws {
        let store = try Org.store(Self.model, name: "Atomic.sqlite")
        try store.insert(employees(0..<5), into: "Employee")
        let before = try store.rows("SELECT * FROM ZEMPLOYEE") + store.rows("SELECT * FROM Z_PRIMARYKEY")
        var records = employees(5..<3000)
        records[2900].fields.append(("age", .integer(300)))
        records[2900].line = 2901
        let message = errorText { try store.insert(records, into: "Employee") }
        #expect(message == "record 2901 (line 2901): entity 'Employee', attribute 'age': given twice")
        #expect(try store.rows("SELECT * FROM ZEMPLOYEE") + store.rows("SELECT * FROM Z_PRIMARYKEY") == before)
    }

    @Test func aBulkLoadRefreshesThePlannersStatistics() throws {
        let store = try Org.store(Self.model, name: "Stats.sqlite")
        try store.insert(employees(0..<100), into: "Employee")
        #expect(try store.rows("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_stat1'") == ["0"])
        try store.insert(employees(100..<(100 + Store.bulkLoadSize)), into: "Employee")
        #expect(try store.rows("SELECT tbl FROM sqlite_stat1 WHERE tbl = 'ZEMPLOYEE' LIMIT 1") == ["ZEMPLOYEE"])
        #expect(try store.verify().isEmpty)
    }

    @Test func stringsAreBoundWithTheirLength() throws {
        let store = try Org.store(Self.model, name: "NUL.sqlite")
        try store.insert([InputRecord(fields: [("name", .string("nul\u{0}byte"))])], into: "Employee")
        #expect(try store.rows("SELECT LENGTH(CAST(ZNAME AS BLOB)) FROM ZEMPLOYEE") == ["8"])
    }
}
