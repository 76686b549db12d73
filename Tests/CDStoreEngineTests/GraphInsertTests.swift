import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Insert: nested graphs, references, uniqueness, upsert, validation.
@Suite("Graph insert: nested objects and references")
struct GraphInsertTests {
    @Test("The issue's example shape: a whole graph in one insert, _entity on nested and top-level objects")
    func nestedGraph() throws {
        let store = try Org.store()
        // {"name":"R&D","employees":[{"name":"Ann","badge":{"code":"B1"}},{"_entity":"Manager","name":"Max"}]}
        let count = try store.insertJSON("Party", #"""
            [{"_entity":"Organization","name":"R&D",
              "members":[{"name":"Ann","badge":{"code":"B1"}},
                         {"_entity":"Employee","name":"Max","employeeNumber":7,"reports":[{"_entity":"Employee","name":"Eve","employeeNumber":8}]}]},
             {"_entity":"Contractor","name":"Cy","organization":{"_ref":{"name":"R&D"}}}]
            """#)
        #expect(count == 2)
        #expect(try store.rows("SELECT Z_PK, Z_ENT, ZNAME, ZORGANIZATION, ZMANAGER, ZBADGE FROM ZPARTY ORDER BY Z_PK")
                == ["1|5|Ann|4|NULL|1", "2|7|Eve|NULL|3|NULL", "3|7|Max|4|NULL|NULL", "4|4|R&D|NULL|NULL|NULL", "5|6|Cy|4|NULL|NULL"])
        #expect(try store.rows("SELECT ZCODE, ZHOLDER, Z5_HOLDER FROM ZBADGE") == ["B1|1|5"])
        #expect(try store.rows("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_MAX > 0 ORDER BY 1") == ["2|1", "3|5"])
        #expect(try store.rows("SELECT DISTINCT Z_OPT FROM ZPARTY") == ["1"])
    }

    @Test("A reference by object ID URI, anywhere a nested object may stand")
    func referenceByObjectID() throws {
        let store = try Org.store()
        try store.insertJSON("Organization", #"{"name":"Acme"}"#)
        try store.insertJSON("Badge", #"{"code":"B1"}"#)
        try store.insertJSON("Employee", "{\"name\":\"Ann\",\"organization\":\"\(store.uri("Organization", 1))\",\"badge\":\"\(store.uri("Badge", 1))\"}")
        try store.insertJSON("Project", "{\"title\":\"P\",\"owner\":\"\(store.uri("Organization", 1))\",\"people\":[\"\(store.uri("Employee", 2))\"]}")
        #expect(try store.rows("SELECT ZNAME, ZORGANIZATION, ZBADGE FROM ZPARTY WHERE Z_PK = 2") == ["Ann|1|1"])
        #expect(try store.rows("SELECT * FROM Z_5PROJECTS") == ["2|1"])
        // Another store's ID is refused.
        let other = "x-coredata://00000000-0000-0000-0000-000000000000/Organization/p1"
        let message = errorText { try store.insertJSON("Employee", "{\"name\":\"B\",\"employeeNumber\":2,\"organization\":\"\(other)\"}") } ?? ""
        #expect(message == """
            record 1: entity 'Employee', relationship 'organization': \
            x-coredata://00000000-0000-0000-0000-000000000000/Organization/p1 belongs to another store (this one is \
            \(store.metadata.uuid))
            """)
        let malformed = errorText { try store.insertJSON("Employee", #"{"name":"B","employeeNumber":2,"organization":"x-coredata://nope"}"#) } ?? ""
        #expect(malformed == "record 1: entity 'Employee', relationship 'organization': 'x-coredata://nope' is not an object ID")
    }

    @Test("{\"_ref\": …} matches exactly one object; none or several is an error naming the relationship")
    func referenceByAttributes() throws {
        let store = try Org.store()
        try store.insertJSON("Person", #"[{"name":"Ann","email":"a1@x"},{"name":"Ann","email":"a2@x"},{"name":"Bo"}]"#)
        try store.insertJSON("Badge", #"{"code":"B","holder":{"_ref":{"name":"Ann","email":"a2@x"}}}"#)
        #expect(try store.rows("SELECT ZHOLDER FROM ZBADGE") == ["2"])
        let none = errorText { try store.insertJSON("Badge", #"{"code":"C","holder":{"_ref":{"name":"Zed"}}}"#) } ?? ""
        #expect(none == "record 1: entity 'Badge', relationship 'holder': no Person object has name = 'Zed'")
        let several = errorText { try store.insertJSON("Badge", #"{"code":"C","holder":{"_ref":{"name":"Ann"}}}"#) } ?? ""
        #expect(several == """
            record 1: entity 'Badge', relationship 'holder': several Person objects have name = 'Ann'; add attributes \
            to \"_ref\" to pick one
            """)
        let unknown = errorText { try store.insertJSON("Badge", #"{"code":"C","holder":{"_ref":{"nam":"Ann"}}}"#) } ?? ""
        #expect(unknown == "record 1: entity 'Person': no attribute 'nam' to match by; did you mean 'name'?")
        let mixed = errorText { try store.insertJSON("Badge", #"{"code":"C","holder":{"_ref":{"name":"Bo"},"email":"x"}}"#) } ?? ""
        #expect(mixed == """
            record 1: entity 'Badge', relationship 'holder': \"_ref\" takes an object of attribute values, alone: \
            {\"_ref\": {\"name\": \"Ann\"}}
            """)
        // Sub-entity objects match a reference to their parent entity.
        try store.insertJSON("Employee", #"{"name":"Eve","employeeNumber":5}"#)
        try store.insertJSON("Badge", #"{"code":"E","holder":{"_ref":{"name":"Eve"}}}"#)
        #expect(try store.rows("SELECT ZHOLDER, Z5_HOLDER FROM ZBADGE WHERE ZCODE = 'E'") == ["4|7"])
        // Within one insert, a reference finds an object inserted earlier in the same transaction.
        try store.insertJSON("Person", #"[{"name":"New","email":"n@x"},{"name":"Newer","friends":[{"_ref":{"email":"n@x"}}]}]"#)
        #expect(try store.rows("SELECT COUNT(*) FROM Z_5FRIENDS") == ["2"])
    }

    @Test("A failing record anywhere in the graph leaves the store byte for byte unchanged")
    func failureLeavesStoreUnchanged() throws {
        let store = try GraphStorageTests.acme()
        let before = storeBytes(store.path)
        let before2 = try store.rows("SELECT * FROM ZPARTY") + store.rows("SELECT * FROM ZTASK") + store.rows("SELECT * FROM Z_PRIMARYKEY")
        let failures = [
            // deep in a nested to-many: a task without its required title
            #"{"name":"Beta","projects":[{"title":"P","tasks":[{"title":"ok"},{"done":true}]}]}"#,
            // a nested badge whose code already exists
            #"{"name":"Beta","members":[{"name":"Z","badge":{"code":"B1"}}]}"#,
            // a reference that matches nothing, after many nested inserts
            #"{"name":"Beta","tags":[{"label":"x"}],"members":[{"name":"Q"},{"name":"R","friends":[{"_ref":{"name":"Nobody"}}]}]}"#,
            // an unknown key in a nested object
            #"{"name":"Beta","headquarters":{"city":"Rome","zip":"1"}}"#,
            // a relationship validation failure (a project without owner) discovered at commit time
            #"{"name":"Beta","members":[{"name":"S","projects":[{"title":"Orphan"}]}]}"#,
            // a to-many given a scalar
            #"{"name":"Beta","members":"Ann"}"#,
            // more tasks than the maximum
            #"{"name":"Beta","projects":[{"title":"P","tasks":["# + (1...21).map { "{\"title\":\"t\($0)\"}" }.joined(separator: ",") + "]}]}",
        ]
        for json in failures {
            #expect(errorText { try store.insertJSON("Organization", json) } != nil, "\(json) should fail")
            #expect(storeBytes(store.path) == before, "\(json) changed the store")
        }
        let after = try store.rows("SELECT * FROM ZPARTY") + store.rows("SELECT * FROM ZTASK") + store.rows("SELECT * FROM Z_PRIMARYKEY")
        #expect(after == before2)
    }
}

@Suite("Graph insert: uniqueness constraints and upsert")
struct GraphUniquenessTests {
    /// One insert prepares a lookup once per shape (entity, keys, which values are null): references with the
    /// same key, null or not, each still find their own object, and a lookup that wants one match and one that
    /// refuses several do not share a statement.
    @Test func referencesOfOneKeyWithAndWithoutNullsInOneInsert() throws {
        let store = try Org.store()
        try store.insertJSON("Person", #"[{"name":"Ann","email":"a@x"},{"name":"Bo"},{"name":"Cy","email":"c@x"}]"#)
        try store.insertJSON("Badge", #"""
            [{"code":"1","holder":{"_ref":{"email":"c@x"}}}, {"code":"2","holder":{"_ref":{"email":null}}},
             {"code":"3","holder":{"_ref":{"email":"a@x"}}}, {"code":"4","holder":{"_ref":{"email":null}}}]
            """#)
        let rows = try store.rows("SELECT ZCODE, ZHOLDER FROM ZBADGE ORDER BY ZCODE")
        // Holder and badge are one-to-one: the fourth badge takes Bo (found by his null email) from the second.
        #expect(rows == ["1|3", "2|NULL", "3|1", "4|2"], "\(rows)")
        try store.insertJSON("Person", #"{"name":"Dee"}"#)
        let several = errorText {
            try store.insertJSON("Badge", #"[{"code":"5","holder":{"_ref":{"email":"a@x"}}}, {"code":"6","holder":{"_ref":{"email":null}}}]"#)
        } ?? ""
        #expect(several == """
            record 2: entity 'Badge', relationship 'holder': several Person objects have email = null; add attributes \
            to \"_ref\" to pick one
            """)
    }

    @Test func duplicateNamesTheConstraintAndValues() throws {
        let store = try GraphStorageTests.acme()
        let email = errorText { try store.insertJSON("Contractor", #"{"name":"X","email":"ann@x"}"#) } ?? ""
        #expect(email == """
            record 1: entity 'Contractor': uniqueness constraint (email) violated: an object with email = 'ann@x' \
            already exists (x-coredata://\(store.metadata.uuid)/Employee/p1)
            """)
        let number = errorText { try store.insertJSON("Employee", #"{"name":"X","employeeNumber":2}"#) } ?? ""
        #expect(number == """
            record 1: entity 'Employee': uniqueness constraint (employeeNumber) violated: an object with \
            employeeNumber = 2 already exists (x-coredata://\(store.metadata.uuid)/Employee/p2)
            """)
        let badge = errorText { try store.insertJSON("Badge", #"{"code":"B1"}"#) } ?? ""
        #expect(badge == """
            record 1: entity 'Badge': uniqueness constraint (code) violated: an object with code = 'B1' already exists \
            (x-coredata://\(store.metadata.uuid)/Badge/p1)
            """)
        // Two new objects colliding with each other in one insert.
        let twice = errorText { try store.insertJSON("Badge", #"[{"code":"N"},{"code":"N"}]"#) } ?? ""
        #expect(twice == """
            record 2: entity 'Badge': uniqueness constraint (code) violated: an object with code = 'N' already exists \
            (x-coredata://\(store.metadata.uuid)/Badge/p2)
            """)
        // The unique index is there too, as Core Data creates it.
        #expect(try store.rows("SELECT sql FROM sqlite_master WHERE name = 'Z_Badge_UNIQUE_code'")
                == ["CREATE UNIQUE INDEX Z_Badge_UNIQUE_code ON ZBADGE (ZCODE COLLATE BINARY ASC)"])
    }

    @Test("--upsert: attributes given overwrite, the others are kept, relationships given replace")
    func upsertMerges() throws {
        let store = try GraphStorageTests.acme()
        try store.insertJSON("Project", #"{"title":"Zeus","owner":{"_ref":{"name":"Acme"}}}"#)
        // Ann: new name, new salary; email, badge, organization and manager kept; projects replaced.
        let merged = try store.insertJSON("Employee", #"{"employeeNumber":1,"name":"Annie","salary":5000,"projects":[{"_ref":{"title":"Zeus"}}]}"#,
                                          upsert: true)
        #expect(merged == 1)
        #expect(try store.rows("SELECT Z_PK, ZNAME, ZEMAIL, ZSALARY, ZBADGE, ZORGANIZATION, ZMANAGER, Z_OPT FROM ZPARTY WHERE ZEMPLOYEENUMBER = 1")
                == ["1|Annie|ann@x|5000|1|4|2|2"])
        #expect(try store.rows("SELECT Z_5PEOPLE, Z_8PROJECTS FROM Z_5PROJECTS") == ["1|2"])
        #expect(try store.count(ObjectFetchRequest(entity: "Employee")) == 2)
        // Matching through an inherited constraint (Person[email]) from a sub-entity record.
        try store.insertJSON("Person", #"{"_entity":"Employee","email":"max@x","reports":[]}"#, upsert: true)
        #expect(try store.rows("SELECT ZMANAGER FROM ZPARTY WHERE Z_PK = 1") == ["NULL"])
        #expect(try store.rows("SELECT ZNAME FROM ZPARTY WHERE Z_PK = 2") == ["Max"])
        // Nested objects merge too: the badge B1 gets a new holder instead of a duplicate.
        try store.insertJSON("Contractor", #"{"name":"Neo","badge":{"code":"B1"}}"#, upsert: true)
        #expect(try store.rows("SELECT Z_PK, ZHOLDER, Z5_HOLDER FROM ZBADGE") == ["1|5|6"])
        #expect(try store.rows("SELECT ZBADGE FROM ZPARTY WHERE Z_PK = 1") == ["NULL"])
        // A record that matches nothing is inserted, and then must be complete.
        let incomplete = errorText { try store.insertJSON("Employee", #"{"employeeNumber":99}"#, upsert: true) } ?? ""
        #expect(incomplete == """
            record 1: entity 'Employee', attribute 'name': a value is required (the attribute is not optional)
            """)
        try store.insertJSON("Employee", #"{"employeeNumber":99,"name":"N"}"#, upsert: true)
        #expect(try store.count(ObjectFetchRequest(entity: "Employee")) == 3)
    }

    @Test("A constraint that includes a relationship: Task[project, title]")
    func constraintWithRelationship() throws {
        let store = try GraphStorageTests.acme()
        let apollo = store.uri("Project", 1)
        let duplicate = errorText { try store.insertJSON("Task", "{\"title\":\"a\",\"project\":\"\(apollo)\"}") } ?? ""
        #expect(duplicate == """
            record 1: entity 'Task': uniqueness constraint (project, title) violated: an object with project = p1, \
            title = 'a' already exists (x-coredata://\(store.metadata.uuid)/Task/p2)
            """)
        // The same title in another project is fine.
        try store.insertJSON("Project", #"{"title":"Zeus","owner":{"_ref":{"name":"Acme"}},"tasks":[{"title":"a"}]}"#)
        #expect(try store.rows("SELECT ZTITLE, ZPROJECT FROM ZTASK ORDER BY Z_PK") == ["c|1", "a|1", "b|1", "a|2"])
        // Two nested tasks of one new project with the same title: the error is about Task, not Project.
        let nested = errorText { try store.insertJSON("Project", #"{"title":"Hera","owner":{"_ref":{"name":"Acme"}},"tasks":[{"title":"x"},{"title":"x"}]}"#) } ?? ""
        #expect(nested == """
            record 1: entity 'Task': uniqueness constraint (project, title) violated: \
            x-coredata://\(store.metadata.uuid)/Task/p6 would have project = p3, title = 'x', which \
            x-coredata://\(store.metadata.uuid)/Task/p5 already has
            """)
        // A task moved into a project that already has its title.
        try store.insertJSON("Task", "{\"title\":\"c\",\"project\":\"\(store.uri("Project", 2))\"}")
        let moved = errorText { try store.insertJSON("Project", "{\"title\":\"Eos\",\"owner\":{\"_ref\":{\"name\":\"Acme\"}},\"tasks\":[\"\(store.uri("Task", 1))\",\"\(store.uri("Task", 5))\"]}") } ?? ""
        #expect(moved == """
            record 1: entity 'Task': uniqueness constraint (project, title) violated: \
            x-coredata://\(store.metadata.uuid)/Task/p5 would have project = p3, title = 'c', which \
            x-coredata://\(store.metadata.uuid)/Task/p1 already has
            """)
        // Upsert merges on the pair.
        try store.insertJSON("Task", "{\"title\":\"a\",\"done\":true,\"project\":\"\(apollo)\"}", upsert: true)
        #expect(try store.rows("SELECT Z_PK, ZDONE, Z_OPT FROM ZTASK WHERE ZTITLE = 'a' ORDER BY Z_PK") == ["2|1|2", "4|0|1"])
    }
}

@Suite("Graph insert: relationship validation")
struct GraphValidationTests {
    /// A model with a required to-many and min/max counts (the Organization model has only a maximum).
    static let countsModel = """
        [{"name":"Team","attributes":[{"name":"name","type":"String"}],
          "relationships":[{"name":"players","destination":"Player","inverse":"team","toMany":true,"minCount":2,"maxCount":3},
                           {"name":"coaches","destination":"Coach","inverse":"team","toMany":true}]},
         {"name":"Player","attributes":[{"name":"name","type":"String"}],
          "relationships":[{"name":"team","destination":"Team","inverse":"players","optional":true}]},
         {"name":"Coach","attributes":[{"name":"name","type":"String"}],
          "relationships":[{"name":"team","destination":"Team","inverse":"coaches","optional":true}]}]
        """

    @Test func requiredToOneMissing() throws {
        let store = try Org.store()
        try store.insertJSON("Organization", #"{"name":"Acme"}"#)
        let message = errorText { try store.insertJSON("Project", #"{"title":"P"}"#) } ?? ""
        #expect(message == """
            entity 'Project', relationship 'owner': x-coredata://\(store.metadata.uuid)/Project/p1: the relationship \
            is required but has no object
            """)
        let task = errorText { try store.insertJSON("Task", #"{"title":"T","project":null}"#) } ?? ""
        #expect(task == """
            entity 'Task', relationship 'project': x-coredata://\(store.metadata.uuid)/Task/p1: the relationship is \
            required but has no object
            """)
        #expect(try store.count(ObjectFetchRequest(entity: "Project")) == 0)
    }

    @Test func requiredToManyEmptyAndMinMaxCounts() throws {
        let store = try Org.store(try Org.jsonModel(Self.countsModel))
        let empty = errorText { try store.insertJSON("Team", #"{"name":"A","players":[{"name":"p"},{"name":"q"}]}"#) } ?? ""
        #expect(empty == """
            entity 'Team', relationship 'coaches': x-coredata://\(store.metadata.uuid)/Team/p1: the relationship is \
            required but holds no objects
            """)
        let few = errorText { try store.insertJSON("Team", #"{"name":"A","coaches":[{"name":"c"}],"players":[{"name":"p"}]}"#) } ?? ""
        #expect(few == """
            entity 'Team', relationship 'players': x-coredata://\(store.metadata.uuid)/Team/p1: holds 1 objects, fewer \
            than the minimum 2
            """)
        let many = errorText {
            try store.insertJSON("Team", #"{"name":"A","coaches":[{"name":"c"}],"players":[{"name":"p"},{"name":"q"},{"name":"r"},{"name":"s"}]}"#)
        } ?? ""
        #expect(many == """
            entity 'Team', relationship 'players': x-coredata://\(store.metadata.uuid)/Team/p1: holds 4 objects, more \
            than the maximum 3
            """)
        try store.insertJSON("Team", #"{"name":"A","coaches":[{"name":"c"}],"players":[{"name":"p"},{"name":"q"},{"name":"r"}]}"#)
        // Team B takes p from A through its own to-many: A keeps 2, fine.
        try store.insertJSON("Team", #"{"name":"B","coaches":[{"name":"d"}],"players":[{"_ref":{"name":"p"}},{"name":"x"}]}"#)
        // Team C takes q too: A would keep 1, so the insert is refused naming A (an object it did not name).
        let stolen = errorText {
            try store.insertJSON("Team", #"{"name":"C","coaches":[{"name":"e"}],"players":[{"_ref":{"name":"q"}},{"name":"z"}]}"#)
        } ?? ""
        #expect(stolen == """
            entity 'Team', relationship 'players': x-coredata://\(store.metadata.uuid)/Team/p1: holds 1 objects, fewer \
            than the minimum 2
            """)
    }

    @Test("Project.tasks holds at most 20 (ordered, maxCount 20)")
    func maximumCountOfOrderedToMany() throws {
        let store = try Org.store()
        try store.insertJSON("Organization", #"{"name":"Acme"}"#)
        let tasks = { (n: Int) in "[" + (1...n).map { "{\"title\":\"t\($0)\"}" }.joined(separator: ",") + "]" }
        try store.insertJSON("Project", "{\"title\":\"P\",\"owner\":{\"_ref\":{\"name\":\"Acme\"}},\"tasks\":\(tasks(20))}")
        let message = errorText { try store.insertJSON("Task", "{\"title\":\"t21\",\"project\":\"\(store.uri("Project", 1))\"}") } ?? ""
        #expect(message == """
            entity 'Project', relationship 'tasks': x-coredata://\(store.metadata.uuid)/Project/p1: holds 21 objects, \
            more than the maximum 20
            """)
        let nested = errorText { try store.insertJSON("Project", "{\"title\":\"Q\",\"owner\":{\"_ref\":{\"name\":\"Acme\"}},\"tasks\":\(tasks(21))}") } ?? ""
        #expect(nested == """
            entity 'Project', relationship 'tasks': x-coredata://\(store.metadata.uuid)/Project/p2: holds 21 objects, \
            more than the maximum 20
            """)
        #expect(try store.count(ObjectFetchRequest(entity: "Task")) == 20)
    }

    @Test func attributeRulesOfNestedObjectsAreChecked() throws {
        let store = try Org.store()
        let message = errorText { try store.insertJSON("Organization", #"{"name":"Acme","members":[{"name":""}]}"#) } ?? ""
        #expect(message == "record 1: entity 'Person', attribute 'name': 0 characters is shorter than the minimum length 1")
    }
}
