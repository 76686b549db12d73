import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine
@testable import CDStoreComparison
import CDStoreMigration

/// Objects of two stores matched by key, so that renumbered primary keys, another insertion order and
/// migrations are not differences.
@Suite("Store diff: objects matched by key")
struct StoreDiffTests {
    static let company = try! ModelLoader.load(Corpus.schemas.appendingPathComponent("Company.json").path).model
    static let demo = try! String(contentsOf: Corpus.schemas.appendingPathComponent("demo/Company.json"), encoding: .utf8)

    /// A store of Schemas/Company.json holding the demo company.
    static func seeded() throws -> Store {
        let store = try Org.store(company, name: "Company.sqlite")
        try store.insertJSON("Company", demo)
        return store
    }

    static func sql(_ store: Store, _ statements: String) throws {
        try DatabaseQueue(path: store.path).write { db in try db.execute(sql: statements) }
    }

    /// The whole diff as text: model changes, one line per difference, then one summary line per entity.
    static func text(_ a: Store, _ b: Store, _ options: StoreDiffOptions = .init()) throws -> String {
        let diff = try StoreDiff(from: a, to: b, options: options)
        var lines = diff.modelChanges.map(\.description)
        let summary = try diff.run { difference in
            let detail = difference.change == .changed
                ? difference.fields.map { "\($0.name): \(JSONText.encode($0.a)) → \(JSONText.encode($0.b))" }.joined(separator: "; ")
                : JSONText.encode(.dictionary(difference.values))
            lines.append("\(difference.change) \(difference.entity) \(JSONText.encode(.dictionary(difference.key))) \(detail)")
        }
        lines += summary.map { "\($0.entity) by \($0.key.attributes.joined(separator: ",")): -\($0.onlyInA) +\($0.onlyInB) ~\($0.changed) =\($0.same)" }
        return lines.joined(separator: "\n")
    }

    /// Compares the whole diff with `expected`, showing the actual text when they differ.
    static func expectDiff(_ a: Store, _ b: Store, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expectDiff(a, b, StoreDiffOptions(), expected, sourceLocation: sourceLocation)
    }

    static func expectDiff(_ a: Store, _ b: Store, _ options: StoreDiffOptions, _ expected: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = try text(a, b, options)
        #expect(actual == expected, "actual:\n\(actual)", sourceLocation: sourceLocation)
    }

    static let sameSummary = """
        Company by name: -0 +0 ~0 =1
        Department by company.name,name: -0 +0 ~0 =2
        Employee by employeeNumber: -0 +0 ~0 =4
        Manager by employeeNumber: -0 +0 ~0 =1
        Badge by code: -0 +0 ~0 =1
        """

    @Test("Two stores with the same objects: no differences, each entity keyed by its uniqueness constraint")
    func sameObjects() throws {
        try Self.expectDiff(try Self.seeded(), try Self.seeded(), Self.sameSummary)
        // One store against itself: one read serves both sides.
        let store = try Self.seeded()
        try Self.expectDiff(store, store, Self.sameSummary)
    }

    @Test("Added, removed and changed objects, and the to-many relationships they change")
    func addedRemovedChanged() throws {
        let (a, b) = (try Self.seeded(), try Self.seeded())
        try b.update(UpdateRequest(entity: "Employee", predicate: try PredicateParserShim.parse("employeeNumber == 1001"),
                                   assignments: [UpdateAssignment("salary", .literal(.integer(75600)))]))
        try b.delete(ObjectFetchRequest(entity: "Employee", predicate: try PredicateParserShim.parse("employeeNumber == 1002")))
        try b.insertJSON("Employee", #"{"employeeNumber": 1006, "firstName": "Farah", "lastName": "Nasser", "hiredAt": "2024-01-02", "department": {"_ref": {"name": "Sales"}}}"#)
        try Self.expectDiff(a, b, #"""
            changed Department {"company.name":"Acme","name":"R&D"} employees: [{"employeeNumber":1001},{"employeeNumber":1002},{"_entity":"Manager","employeeNumber":1003}] → [{"employeeNumber":1001},{"_entity":"Manager","employeeNumber":1003}]
            changed Department {"company.name":"Acme","name":"Sales"} employees: [{"employeeNumber":1004},{"employeeNumber":1005}] → [{"employeeNumber":1004},{"employeeNumber":1005},{"employeeNumber":1006}]
            changed Employee {"employeeNumber":1001} salary: 72000 → 75600
            removed Employee {"employeeNumber":1002} {"employeeNumber":1002,"firstName":"Bo","lastName":"Martins","email":"bo@acme.example","age":29,"salary":58000.5,"rating":3.8,"hiredAt":"2021-09-15T00:00:00.000Z","isActive":true,"photo":null,"badge":null,"department":{"company.name":"Acme","name":"R&D"}}
            added Employee {"employeeNumber":1006} {"employeeNumber":1006,"firstName":"Farah","lastName":"Nasser","email":null,"age":null,"salary":null,"rating":0,"hiredAt":"2024-01-02T00:00:00.000Z","isActive":true,"photo":null,"badge":null,"department":{"company.name":"Acme","name":"Sales"}}
            Company by name: -0 +0 ~0 =1
            Department by company.name,name: -0 +0 ~2 =0
            Employee by employeeNumber: -1 +1 ~1 =2
            Manager by employeeNumber: -0 +0 ~0 =1
            Badge by code: -0 +0 ~0 =1
            """#)
    }

    @Test("The same objects inserted in another order, with other primary keys: no differences")
    func renumberedKeys() throws {
        let a = try Self.seeded()
        let b = try Org.store(Self.company, name: "Company.sqlite")
        // Throwaway objects first, so that every entity's keys start elsewhere, then the graph back to front.
        try b.insertJSON("Company", #"{"id": "00000000-0000-0000-0000-000000000001", "name": "Tmp", "departments": [{"name": "X", "employees": [{"employeeNumber": 1, "firstName": "T", "lastName": "T", "badge": {"code": "TT0001", "issuedAt": "2020-01-01", "serial": 9}}]}]}"#)
        try b.insertJSON("Company", #"""
            {"id": "6F0C2B1E-8E2D-4C57-9A4B-3D1E5A7C9B20", "name": "Acme", "founded": "1999-04-01", "isPublic": true, "revenue": 12500000.50}
            """#)
        try b.insertJSON("Department", #"{"name": "Sales", "budget": 450000, "company": {"_ref": {"name": "Acme"}}}"#)
        try b.insertJSON("Department", #"{"name": "R&D", "budget": 1200000, "company": {"_ref": {"name": "Acme"}}}"#)
        let employees = try JSONSerialization.jsonObject(with: Data(Self.demo.utf8)) as! [String: Any]
        for department in (employees["departments"] as! [[String: Any]]).reversed() {
            for employee in (department["employees"] as! [[String: Any]]).reversed() {
                var object = employee
                object["department"] = ["_ref": ["name": department["name"]!]]
                let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                try b.insertJSON("Employee", json)
            }
        }
        // Employees first: Department.employees denies deleting a department that has any.
        try b.delete(ObjectFetchRequest(entity: "Employee", predicate: try PredicateParserShim.parse("employeeNumber == 1")))
        try b.delete(ObjectFetchRequest(entity: "Company", predicate: try PredicateParserShim.parse("name == 'Tmp'")))
        #expect(try b.rows("SELECT Z_PK FROM ZEMPLOYEE ORDER BY ZEMPLOYEENUMBER") != a.rows("SELECT Z_PK FROM ZEMPLOYEE ORDER BY ZEMPLOYEENUMBER"))
        try Self.expectDiff(a, b, Self.sameSummary)
        try Self.expectDiff(b, a, Self.sameSummary)
    }

    @Test("An employee moved to another department: the employee and both departments differ")
    func relationshipMoved() throws {
        let (a, b) = (try Self.seeded(), try Self.seeded())
        try Self.sql(b, "UPDATE ZEMPLOYEE SET ZDEPARTMENT = (SELECT Z_PK FROM ZDEPARTMENT WHERE ZNAME = 'Sales') WHERE ZEMPLOYEENUMBER = 1002")
        try Self.expectDiff(a, b, StoreDiffOptions(entities: ["Department", "Employee"], ignored: ["Manager.level"]), #"""
            changed Department {"company.name":"Acme","name":"R&D"} employees: [{"employeeNumber":1001},{"employeeNumber":1002},{"_entity":"Manager","employeeNumber":1003}] → [{"employeeNumber":1001},{"_entity":"Manager","employeeNumber":1003}]
            changed Department {"company.name":"Acme","name":"Sales"} employees: [{"employeeNumber":1004},{"employeeNumber":1005}] → [{"employeeNumber":1002},{"employeeNumber":1004},{"employeeNumber":1005}]
            changed Employee {"employeeNumber":1002} department: {"company.name":"Acme","name":"R&D"} → {"company.name":"Acme","name":"Sales"}
            Department by company.name,name: -0 +0 ~2 =0
            Employee by employeeNumber: -0 +0 ~1 =3
            Manager by employeeNumber: -0 +0 ~0 =1
            """#)
    }

    @Test("--key replaces the constraint, --ignore leaves properties out, --tolerance equates close doubles")
    func keyIgnoreTolerance() throws {
        let (a, b) = (try Self.seeded(), try Self.seeded())
        // Renumbered employees keep their names; ratings move by less than 0.01.
        try Self.sql(b, "UPDATE ZEMPLOYEE SET ZEMPLOYEENUMBER = ZEMPLOYEENUMBER + 100, ZRATING = ZRATING + 0.005, ZSALARY = ZSALARY + 1")
        let key: [String: [String]] = ["Employee": ["lastName", "firstName"]]
        try Self.expectDiff(a, b, StoreDiffOptions(entities: ["Employee"], keys: key, ignored: ["employeeNumber", "Employee.salary"],
                                                     tolerance: 0.01), """
            Employee by lastName,firstName: -0 +0 ~0 =4
            Manager by lastName,firstName: -0 +0 ~0 =1
            """)
        try Self.expectDiff(a, b, StoreDiffOptions(entities: ["Manager"], keys: key, ignored: ["employeeNumber", "salary"]), """
            changed Manager {"lastName":"Okafor","firstName":"Chidi"} rating: 4.9 → 4.905
            Manager by lastName,firstName: -0 +0 ~1 =0
            """)
    }

    @Test("--where selects the objects compared, in both stores")
    func predicate() throws {
        let (a, b) = (try Self.seeded(), try Self.seeded())
        try Self.sql(b, "UPDATE ZEMPLOYEE SET ZSALARY = ZSALARY * 2")
        let options = StoreDiffOptions(entities: ["Employee"], predicate: try PredicateParserShim.parse("lastName BEGINSWITH 'M'"),
                                       ignored: ["badge", "department"])
        try Self.expectDiff(a, b, options, """
            changed Employee {"employeeNumber":1001} salary: 72000 → 144000
            changed Employee {"employeeNumber":1002} salary: 58000.5 → 116001
            changed Employee {"employeeNumber":1004} salary: 64000 → 128000
            changed Employee {"employeeNumber":1005} salary: 69000.25 → 138000.5
            Employee by employeeNumber: -0 +0 ~4 =0
            Manager by employeeNumber: -0 +0 ~0 =0
            """)
    }

    @Test("Without a constraint: the identity attribute of the user info, else Z_PK")
    func identityAttributeAndPrimaryKey() throws {
        let model = try Org.jsonModel(#"""
            [{"name": "Tag", "userInfo": {"identityAttribute": "slug"}, "attributes": [{"name": "slug", "type": "String"}, {"name": "label", "type": "String", "optional": true}]},
             {"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]
            """#)
        let a = try Org.store(model), b = try Org.store(model)
        try a.insertJSON("Tag", #"[{"slug": "a", "label": "A"}, {"slug": "b", "label": "B"}]"#)
        try b.insertJSON("Tag", #"[{"slug": "b", "label": "B"}, {"slug": "a", "label": "A!"}]"#)
        try a.insertJSON("Note", #"[{"text": "one"}, {"text": "two"}]"#)
        try b.insertJSON("Note", #"[{"text": "one"}, {"text": "2"}, {"text": "three"}]"#)
        let diff = try StoreDiff(from: a, to: b)
        #expect(diff.comparisons.map(\.key) == [.identityAttribute(["slug"]), .primaryKey])
        try Self.expectDiff(a, b, """
            changed Tag {"slug":"a"} label: "A" → "A!"
            changed Note {"Z_PK":2} text: "two" → "2"
            added Note {"Z_PK":3} {"text":"three"}
            Tag by slug: -0 +0 ~1 =1
            Note by Z_PK: -0 +1 ~1 =1
            """)
    }

    @Test("A store against its migrated copy: the model changes, properties matched across renames and type changes")
    func migratedStore() throws {
        let path = try StaffFixture.makeVersion1Store()
        let copy = path.replacingOccurrences(of: "Staff.sqlite", with: "Staff2.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        let migrated = try Store.open(at: copy, loaded: try StaffFixture.version("Staff 2"), options: Store.Options(migrator: LightweightMigrator(), backup: false))
        // Values changed after the migration show under the new names, compared across the type changes.
        try migrated.update(UpdateRequest(entity: "Person", predicate: try PredicateParserShim.parse("fullName == 'Ann'"),
                                          assignments: [UpdateAssignment("rating", .text("6"))]))
        try migrated.update(UpdateRequest(entity: "Person", predicate: try PredicateParserShim.parse("fullName == 'Cy'"),
                                          assignments: [UpdateAssignment("score", .text("-8"))]))
        let bundle = try ModelLoader.load(StaffFixture.bundle)
        let a = try Store.open(at: path, loaded: bundle, options: Store.Options(readOnly: true, migrator: LightweightMigrator()))
        let b = try Store.open(at: copy, loaded: bundle, options: Store.Options(readOnly: true, migrator: LightweightMigrator()))
        try Self.expectDiff(a, b, StoreDiffOptions(keys: ["Person": ["fullName"]]), """
            entity renamed: Assignment (was Project)
            attribute made optional: Badge.code
            attribute made non-optional: Department.budget (default 1000)
            relationship added: Department.office (to-one Office)
            relationship renamed: Department.staff (was employees)
            entity added: Office
            attribute type changed: Person.age (Integer 16 → Integer 64)
            attribute added: Person.email (String, optional)
            attribute renamed: Person.fullName (was name)
            attribute added: Person.level (Integer 16, default 1)
            attribute type changed: Person.rating (Integer 32 → String)
            attribute type changed: Person.score (Double → Integer 64)
            attribute removed: Person.nickname
            relationship renamed: Person.assignments (was projects)
            relationship renamed: Person.badges (was badge)
            relationship cardinality changed: Person.badges (to-one → to-many)
            fetch index added: Person.byAge
            entity removed: Legacy
            changed Department {"Z_PK":2} budget: null → 1000
            changed Employee {"fullName":"Ann"} rating: 5 → "6"
            changed Person {"fullName":"Cy"} score: -7 → -8
            removed Legacy {"Z_PK":1} {"value":3}
            Assignment by Z_PK: -0 +0 ~0 =3
            Badge by Z_PK: -0 +0 ~0 =2
            Contractor by fullName: -0 +0 ~0 =1
            Department by Z_PK: -0 +0 ~1 =1
            Employee by fullName: -0 +0 ~1 =0
            Office by Z_PK: -0 +0 ~0 =0
            Person by fullName: -0 +0 ~1 =0
            Vendor by Z_PK: -0 +0 ~0 =1
            Legacy by Z_PK: -1 +0 ~0 =0
            """)
    }

    @Test("Thousands of objects: batches of rows and relationships, shared keys paired in Z_PK order")
    func manyObjects() throws {
        let model = try Org.jsonModel(#"""
            [{"name": "Group", "uniquenessConstraints": [["name"]], "attributes": [{"name": "name", "type": "String"}],
              "relationships": [{"name": "members", "destination": "Member", "inverse": "group", "toMany": true, "optional": true}]},
             {"name": "Member", "uniquenessConstraints": [["number"]],
              "attributes": [{"name": "number", "type": "Integer 32"}, {"name": "parity", "type": "Integer 16"},
                             {"name": "label", "type": "String"}],
              "relationships": [{"name": "group", "destination": "Group", "inverse": "members", "optional": true}]}]
            """#)
        func member(_ n: Int, label: String? = nil, group: Int? = nil) -> String {
            #"{"number": \#(n), "parity": \#(n % 2), "label": "\#(label ?? "m" + String(n))", "group": {"_ref": {"name": "g\#(group ?? n % 3)"}}}"#
        }
        let a = try Org.store(model), b = try Org.store(model)
        for store in [a, b] { try store.insertJSON("Group", #"[{"name": "g0"}, {"name": "g1"}, {"name": "g2"}]"#) }
        try a.insertJSON("Member", "[" + (1...1000).map { member($0) }.joined(separator: ",") + "]")
        let changed = (1...999).reversed().map { n in n == 500 ? member(n, label: "five hundred") : n == 777 ? member(n, group: 2) : member(n) }
        try b.insertJSON("Member", "[" + (changed + [member(1001)]).joined(separator: ",") + "]")
        try Self.expectDiff(a, b, StoreDiffOptions(ignored: ["members"]), """
            changed Member {"number":500} label: "m500" → "five hundred"
            changed Member {"number":777} group: {"name":"g0"} → {"name":"g2"}
            removed Member {"number":1000} {"number":1000,"parity":0,"label":"m1000","group":{"name":"g1"}}
            added Member {"number":1001} {"number":1001,"parity":1,"label":"m1001","group":{"name":"g2"}}
            Group by name: -0 +0 ~0 =3
            Member by number: -1 +1 ~2 =997
            """)
        let groups = try StoreDiff(from: a, to: b, options: StoreDiffOptions(entities: ["Group"])).run { _ in }
        #expect(groups.map(\.changed) == [3])
        // Keyed by parity, 500 objects share each key: they pair in Z_PK order, the same pairs in both stores.
        let shared = try StoreDiff(from: a, to: a, options: StoreDiffOptions(entities: ["Member"], keys: ["Member": ["parity"]])).run { _ in }
        #expect(shared.map(\.same) == [1000] && shared.map(\.sharedKeys) == [1996])
    }

    @Test("External Binary values compare by content, not by file name; transformable values show decoded")
    func externalAndTransformableValues() throws {
        let model = try Org.jsonModel(#"""
            [{"name": "Doc", "uniquenessConstraints": [["name"]],
              "attributes": [{"name": "name", "type": "String"}, {"name": "blob", "type": "Binary", "optional": true,
                              "allowsExternalBinaryDataStorage": true}, {"name": "meta", "type": "Transformable", "optional": true}]}]
            """#)
        let a = try Org.store(model, name: "A.sqlite"), b = try Org.store(model, name: "B.sqlite")
        for (store, file) in [(a, "file-a"), (b, "file-b")] {
            try store.insertJSON("Doc", #"[{"name": "d1", "meta": {"k": [1, 2]}}, {"name": "d2", "meta": {"k": [1, 2]}}]"#)
            let folder = ExternalDataLocation(storeFile: URL(fileURLWithPath: store.path)).directory
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("same bytes".utf8).write(to: folder.appendingPathComponent(file))
            // Core Data's reference to an external file: 0x02, the file name, NUL.
            let reference = Data([ExternalBinaryData.externalMarker] + Array(file.utf8) + [0])
            try DatabaseQueue(path: store.path).write { db in
                try db.execute(sql: "UPDATE ZDOC SET ZBLOB = ? WHERE ZNAME = 'd1'", arguments: [reference])
            }
        }
        try Self.expectDiff(a, b, """
            Doc by name: -0 +0 ~0 =2
            """)
        try Data("other bytes".utf8).write(to: ExternalDataLocation(storeFile: URL(fileURLWithPath: b.path)).directory
            .appendingPathComponent("file-b"))
        try b.update(UpdateRequest(entity: "Doc", predicate: try PredicateParserShim.parse("name == 'd2'"),
                                   assignments: [UpdateAssignment("meta", .literal(.object([("k", .array([.integer(1), .integer(3)]))])))]))
        try Self.expectDiff(a, b, """
            changed Doc {"name":"d1"} blob: "c2FtZSBieXRlcw==" → "b3RoZXIgYnl0ZXM="
            changed Doc {"name":"d2"} meta: {"k":[1,2]} → {"k":[1,3]}
            Doc by name: -0 +0 ~2 =0
            """)
    }

    @Test("Names the options give must exist, and a key must be able to match objects")
    func optionErrors() throws {
        let (a, b) = (try Self.seeded(), try Self.seeded())
        func message(_ options: StoreDiffOptions) -> String {
            do {
                _ = try StoreDiff(from: a, to: b, options: options)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(StoreDiffOptions(entities: ["Employe"])) == "entities: no entity 'Employe' in either model; did you mean 'Employee'?")
        #expect(message(StoreDiffOptions(keys: ["Employee": ["lastname"]]))
                == "entity 'Employee': keys: no attribute 'lastname' (nor a to-one relationship whose object has a key); did you mean 'lastName'?")
        #expect(message(StoreDiffOptions(keys: ["Employee": ["photo"]]))
                == "entity 'Employee': keys: photo cannot match objects: a key must be stored alike in both models (integers, floating-point numbers, dates, strings, URIs or UUIDs)")
        #expect(message(StoreDiffOptions(ignored: ["Employee.wage"])) == "ignored: no property 'wage' in Employee; did you mean 'age'?")
        #expect(message(StoreDiffOptions(ignored: ["salry"])) == "ignored: no property 'salry'; did you mean 'salary'?")
    }

    @Test("Stored bytes order keys exactly as SQLite's ORDER BY does")
    func storedBytesOrder() throws {
        let values = "NULL, -3, 2.5, 2, -1e300, 9223372036854775807, '', 'a', 'ab', 'B', 'é', 'e\u{301}', X'', X'00', X'0001', 1e-9, 'a' || char(0) || 'b'"
        let rows = try DatabaseQueue().read { db -> [(order: Int, bytes: [UInt8])] in
            let statement = try db.makeStatement(sql: "SELECT v, ROW_NUMBER() OVER (ORDER BY v) FROM (SELECT column1 AS v FROM (VALUES \(values.split(separator: ",").map { "(\($0))" }.joined(separator: ","))))")
            var rows: [(Int, [UInt8])] = []
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                var bytes: [UInt8] = []
                StoredBytes.appendColumn(statement.sqliteStatement, 0, to: &bytes)
                rows.append((row[1], bytes))
            }
            return rows
        }
        #expect(rows.count == 17)
        let sorted = rows.sorted { StoredBytes.compare($0.bytes, $1.bytes) < 0 }
        #expect(sorted.map(\.order) == Array(1...17))
    }
}
