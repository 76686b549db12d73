import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A bulk insert drops the plain indexes of the tables it starts empty and builds them again from the
/// finished rows; the store must end with exactly the schema it had, and no lookup may run without its index.
@Suite("Indexes built after a bulk load")
struct DeferredIndexTests {
    static let company = Corpus.schemas.appendingPathComponent("Company.json").path

    static func companyStore(_ name: String) throws -> Store {
        let model = try ModelLoader.load(company).model
        let store = try Org.store(model, name: name)
        try store.insertJSON("Company", #"{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Bench Co"}"#)
        return store
    }

    static func schema(_ store: Store) throws -> [String] {
        try store.rows("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name != 'sqlite_stat1' ORDER BY name")
    }

    static func department(_ n: Int, employees: Int = 3, email: (Int) -> String = { "e\($0)@x.example" }) -> InputRecord {
        let staff: [InputValue] = (1...employees).map { e in
            let number = n * 100 + e
            return .object([("employeeNumber", .integer(Int64(number))), ("firstName", .string("F\(number)")),
                            ("lastName", .string("L")), ("email", .string(email(number))), ("hiredAt", .string("2020-01-01"))])
        }
        return InputRecord(fields: [("name", .string("D\(n)")), ("company", .object([("_ref", .object([("name", .string("Bench Co"))]))])),
                                    ("employees", .array(staff))], line: n)
    }

    @Test func dropsOnlyPlainIndexesOfEmptyTablesAndRestoresThemOnce() throws {
        let store = try Self.companyStore("Deferred.sqlite")
        let before = try Self.schema(store)
        try DatabaseQueue(path: store.path).write { db in
            let deferred = try DeferredIndexes(tables: ["ZCOMPANY", "ZDEPARTMENT", "ZEMPLOYEE"], db: db)
            // ZCOMPANY holds the company: its indexes stay.
            #expect(deferred.tables == ["ZDEPARTMENT", "ZEMPLOYEE"])
            let left = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('ZDEPARTMENT', 'ZEMPLOYEE') ORDER BY name")
            #expect(left == ["Z_Department_UNIQUE_company_name", "Z_Employee_UNIQUE_employeeNumber"])
            // Lookups a UNIQUE index serves may run; others restore first.
            #expect(deferred.isCovered("ZEMPLOYEE", columns: ["ZEMPLOYEENUMBER"]))
            #expect(deferred.isCovered("ZDEPARTMENT", columns: ["ZCOMPANY", "ZNAME"]))
            #expect(!deferred.isCovered("ZDEPARTMENT", columns: ["ZNAME"]))
            #expect(!deferred.isCovered("ZEMPLOYEE", columns: ["ZLASTNAME", "ZFIRSTNAME"]))
            #expect(deferred.isCovered("ZCOMPANY", columns: ["ZWEBSITE"]), "a table whose indexes stay")
            try deferred.restore(for: "ZCOMPANY", db: db)
            #expect(deferred.tables == ["ZDEPARTMENT", "ZEMPLOYEE"], "restoring for a table not deferred changes nothing")
            try deferred.restore(for: "ZEMPLOYEE", db: db)
            #expect(deferred.tables.isEmpty)
            try deferred.restore(db: db)
        }
        #expect(try Self.schema(store) == before)
    }

    /// A graph load read ahead from a large input: the same rows and schema as with every index kept up.
    @Test func aBulkGraphLoadEndsWithTheSameSchema() throws {
        let store = try Self.companyStore("DeferredGraph.sqlite")
        let before = try Self.schema(store)
        var source = PreparedRowTests.ListSource((1...400).map { Self.department($0) })
        let summary = try store.insert(from: &source, into: "Department")
        #expect(summary.inserted == 400)
        #expect(try Self.schema(store) == before)
        #expect(try store.rows("PRAGMA integrity_check") == ["ok"])
        #expect(try store.rows("SELECT COUNT(*), COUNT(DISTINCT ZDEPARTMENT) FROM ZEMPLOYEE") == ["1200|400"])
        // The indexes hold every row (an index scan counts them all).
        #expect(try store.rows("SELECT COUNT(*) FROM ZEMPLOYEE INDEXED BY Z_Employee_byName WHERE ZLASTNAME = 'L'") == ["1200"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZEMPLOYEE INDEXED BY ZEMPLOYEE_ZDEPARTMENT_INDEX WHERE ZDEPARTMENT > 0") == ["1200"])
    }

    /// A load that fails leaves the store, indexes included, as it was.
    @Test func aFailedBulkLoadKeepsTheIndexes() throws {
        let store = try Self.companyStore("DeferredFailed.sqlite")
        let before = try Self.schema(store)
        var source = PreparedRowTests.ListSource((1...400).map { n in
            Self.department(n, email: { n == 350 ? "not-an-email" : "e\($0)@x.example" })
        })
        let error = try #require(throws: StoreError.self) { try store.insert(from: &source, into: "Department") }
        #expect(error.record == 350)
        #expect(try Self.schema(store) == before)
        #expect(try store.rows("SELECT COUNT(*) FROM ZDEPARTMENT") == ["0"])
    }

    /// Records that look up objects of the table being loaded (by a `_ref` on an attribute only a plain index
    /// serves) and change relationships by foreign key: the indexes come back before the first such lookup,
    /// and the result is that of a load with every index kept.
    @Test func lookupsIntoTheLoadedTableRestoreTheIndexes() throws {
        let store = try Self.companyStore("DeferredLookups.sqlite")
        let before = try Self.schema(store)
        var records = (1...50).map { Self.department($0, employees: 2) }
        // Moves employees of earlier departments by reference (a to-many of existing objects: foreign keys change).
        records += (51...60).map { n in
            InputRecord(fields: [("name", .string("D\(n)")),
                                 ("company", .object([("_ref", .object([("name", .string("Bench Co"))]))])),
                                 ("employees", .array([.object([("_ref", .object([("firstName", .string("F\((n - 50) * 100 + 1)"))]))])]))],
                        line: n)
        }
        var source = PreparedRowTests.ListSource(records)
        #expect(try store.insert(from: &source, into: "Department").inserted == 60)
        #expect(try Self.schema(store) == before)
        #expect(try store.rows("PRAGMA integrity_check") == ["ok"])
        #expect(try store.rows("""
            SELECT e.ZFIRSTNAME, d.ZNAME FROM ZEMPLOYEE e JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT
            WHERE e.ZFIRSTNAME IN ('F101', 'F1001') ORDER BY e.ZFIRSTNAME
            """) == ["F1001|D60", "F101|D51"])
    }

    /// The graph inserter keeps the indexes dropped through nested inserts and lookups a UNIQUE index serves, and
    /// restores them before the first lookup or relationship change that needs a plain one.
    @Test func theInserterRestoresBeforeTheFirstLookupThatNeedsThem() throws {
        let store = try Self.companyStore("DeferredInserter.sqlite")
        let department = try #require(store.model.entity(named: "Department"))
        try store.write { db in
            var inserter = GraphInserter(store: store, db: db, options: InsertSettings())
            let deferred = try DeferredIndexes(tables: ["ZDEPARTMENT", "ZEMPLOYEE"], db: db)
            inserter.deferredIndexes = deferred
            for n in 1...3 { _ = try inserter.insert(Self.department(n).fields, as: department, entityName: nil) }
            #expect(deferred.tables == ["ZDEPARTMENT", "ZEMPLOYEE"], "the company _ref and the uniqueness lookups keep them dropped")
            // A to-one the INSERT writes itself: no relationship update, only the lookup needs the index.
            let employee = try #require(store.model.entity(named: "Employee"))
            let byName: [(String, InputValue)] = [("employeeNumber", .integer(9)), ("firstName", .string("F")),
                ("lastName", .string("L")), ("hiredAt", .string("2020-01-01")),
                ("department", .object([("_ref", .object([("name", .string("D2"))]))]))]
            _ = try inserter.insert(byName, as: employee, entityName: nil)
            #expect(deferred.tables.isEmpty, "a _ref into ZDEPARTMENT by name alone restores them first")
        }
    }
}
