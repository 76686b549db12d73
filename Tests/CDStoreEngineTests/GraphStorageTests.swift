import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Storage: where each relationship kind lands in the SQL layout, read back directly.
@Suite("Graph storage: relationship columns, join tables, order, inverses")
struct GraphStorageTests {
    /// Acme with headquarters, two tags, Ann (Employee, badge B1), Max (Employee, manages Ann), Cy (Contractor),
    /// and the project Apollo with three tasks in a non-alphabetical order and Ann on it.
    static func acme() throws -> Store {
        let store = try Org.store()
        try store.insertJSON("Organization", #"""
            {"name":"Acme","headquarters":{"city":"Paris"},"tags":[{"label":"t1"},{"label":"t2"}],
             "members":[{"_entity":"Employee","name":"Ann","email":"ann@x","employeeNumber":1,"badge":{"code":"B1"}},
                        {"_entity":"Employee","name":"Max","email":"max@x","employeeNumber":2,"reports":[{"_ref":{"name":"Ann"}}]},
                        {"_entity":"Contractor","name":"Cy","agency":"Ag"}],
             "projects":[{"title":"Apollo","tasks":[{"title":"c"},{"title":"a"},{"title":"b"}],"people":[{"_ref":{"name":"Ann"}}]}]}
            """#)
        return store
    }

    @Test("To-one: FK column holds the destination's Z_PK, Z<n>_ column its Z_ENT")
    func toOneColumns() throws {
        let store = try Self.acme()
        // Badge.holder → Person (which has sub-entities): ZHOLDER and Z5_HOLDER.
        #expect(try store.rows("SELECT ZCODE, ZHOLDER, Z5_HOLDER FROM ZBADGE") == ["B1|1|7"])
        // Person.badge → Badge (no sub-entities): only ZBADGE. Person.organization: ZORGANIZATION; Employee.manager: ZMANAGER.
        #expect(try store.rows("SELECT Z_PK, Z_ENT, ZNAME, ZBADGE, ZORGANIZATION, ZMANAGER FROM ZPARTY ORDER BY Z_PK")
                == ["1|7|Ann|1|4|2", "2|7|Max|NULL|4|NULL", "3|6|Cy|NULL|4|NULL", "4|4|Acme|NULL|NULL|NULL"])
        // Organization.headquarters, a to-one without inverse.
        #expect(try store.rows("SELECT ZHEADQUARTERS FROM ZPARTY WHERE Z_PK = 4") == ["1"])
        #expect(try store.rows("SELECT Z_PK, ZCITY FROM ZADDRESS") == ["1|Paris"])
        let columns = try store.rows("SELECT name FROM pragma_table_info('ZPARTY')")
        #expect(!columns.contains { $0.hasPrefix("Z4_") || $0.hasPrefix("Z10_") }, "no entity column toward leaf entities")
    }

    @Test("To-many through the inverse's FK; many-to-many join rows hold each side's Z_PK in its own column")
    func toManyAndManyToMany() throws {
        let store = try Self.acme()
        #expect(try store.rows("SELECT ZOWNER FROM ZPROJECT") == ["4"])
        // Z_5PROJECTS: Z_5PEOPLE holds the Person's Z_PK, Z_8PROJECTS the Project's (coredata-format.md §1.6).
        try store.insertJSON("Project", #"{"title":"Zeus","owner":{"_ref":{"name":"Acme"}},"people":[{"_ref":{"name":"Cy"}},{"_ref":{"name":"Max"}}]}"#)
        #expect(try store.rows("SELECT Z_5PEOPLE, Z_8PROJECTS FROM Z_5PROJECTS ORDER BY 2, 1") == ["1|1", "2|2", "3|2"])
        let cy = try #require(try store.fetch(ObjectFetchRequest(entity: "Contractor")).first)
        #expect(cy["projects"] == .array([.string(store.uri("Project", 2))]))
        let zeus = try store.fetch(ObjectFetchRequest(entity: "Project", predicate: nil)).last!
        #expect(zeus["people"] == .array([.string(store.uri("Employee", 2)), .string(store.uri("Contractor", 3))]))
        let acme = try #require(try store.fetch(ObjectFetchRequest(entity: "Organization")).first)
        #expect(acme["members"] == .array([1, 2, 3].map { .string(store.uri($0 == 3 ? "Contractor" : "Employee", Int64($0))) }))
    }

    @Test("Ordered to-many: Z_FOK_ increases in the given order and fetch returns that order")
    func orderedToMany() throws {
        let store = try Self.acme()
        #expect(try store.rows("SELECT ZTITLE, ZPROJECT, Z_FOK_PROJECT FROM ZTASK ORDER BY Z_FOK_PROJECT")
                == ["c|1|1024", "a|1|2048", "b|1|3072"])
        func titles(_ project: String) throws -> [String] {
            let object = try store.fetch(ObjectFetchRequest(entity: "Project", includes: ["tasks"])).first { $0["title"] == .string(project) }
            guard case .array(let items)? = object?["tasks"] else { return [] }
            return items.compactMap { if case .dictionary(let f) = $0, case .string(let t)? = f.first(where: { $0.0 == "title" })?.1 { t } else { nil } }
        }
        #expect(try titles("Apollo") == ["c", "a", "b"])
        // Tasks given to another project in a new order move there, in that order; the rest keep theirs.
        try store.insertJSON("Project", #"{"title":"Zeus","owner":{"_ref":{"name":"Acme"}},"tasks":[{"_ref":{"title":"b"}},{"_ref":{"title":"c"}}]}"#)
        #expect(try titles("Zeus") == ["b", "c"])
        #expect(try titles("Apollo") == ["a"])
        // Setting the to-one appends at the end of the ordered to-many.
        try store.insertJSON("Task", #"[{"title":"d","project":{"_ref":{"title":"Apollo"}}},{"title":"e","project":{"_ref":{"title":"Apollo"}}}]"#)
        #expect(try titles("Apollo") == ["a", "d", "e"])
        #expect(try store.rows("SELECT ZTITLE FROM ZTASK WHERE ZPROJECT = 1 ORDER BY Z_FOK_PROJECT") == ["a", "d", "e"])
        #expect(try store.rows("SELECT ZTITLE, Z_FOK_PROJECT FROM ZTASK WHERE ZPROJECT = 2 ORDER BY Z_FOK_PROJECT") == ["b|1024", "c|2048"])
        // Fetching with a to-many as IDs keeps the order too.
        let apollo = try #require(try store.fetch(ObjectFetchRequest(entity: "Project")).first)
        #expect(apollo["tasks"] == .array([2, 4, 5].map { .string(store.uri("Task", Int64($0))) }))
    }

    @Test("To-many without inverse: the hidden Z<n>NAME column in the destination table")
    func hiddenToOne() throws {
        let store = try Self.acme()
        #expect(try store.rows("SELECT ZLABEL, Z4TAGS FROM ZTAG ORDER BY Z_PK") == ["t1|4", "t2|4"])
        let acme = try #require(try store.fetch(ObjectFetchRequest(entity: "Organization")).first)
        #expect(acme["tags"] == .array([.string(store.uri("Tag", 1)), .string(store.uri("Tag", 2))]))
        // A tag given to another organization moves there (the hidden to-one holds one owner).
        try store.insertJSON("Organization", #"{"name":"Beta","tags":[{"_ref":{"label":"t2"}}]}"#)
        #expect(try store.rows("SELECT ZLABEL, Z4TAGS FROM ZTAG ORDER BY Z_PK") == ["t1|4", "t2|5"])
        #expect(try store.values(ObjectFetchRequest(entity: "Organization"), "tags")
                == ["[\(store.uri("Tag", 1))]", "[\(store.uri("Tag", 2))]"])
    }

    @Test("Reflexive many-to-many: Person.friends is symmetric, stored in Z_5FRIENDS (Z_5FRIENDS, REFLEXIVE)")
    func reflexive() throws {
        let store = try Self.acme()
        try store.insertJSON("Person", #"[{"name":"Bo","email":"bo@x","friends":[{"_ref":{"name":"Ann"}},{"_ref":{"name":"Max"}}]},{"name":"Di","email":"di@x","friends":[{"_ref":{"name":"Bo"}}]}]"#)
        func counts() throws -> [String] {
            try store.fetch(ObjectFetchRequest(entity: "Person", relationships: .counts))
                .map { "\(Store.text($0["name"]!))=\(Store.text($0["friends"]!))" }
        }
        let expected = ["Ann=1", "Max=1", "Cy=0", "Bo=3", "Di=1"]
        #expect(try counts() == expected)
        // Both directions are readable from the join table's own column, as the predicate compiler reads it.
        #expect(try store.rows("SELECT REFLEXIVE FROM Z_5FRIENDS WHERE Z_5FRIENDS = 5 ORDER BY 1") == ["1", "2", "6"])
        #expect(try store.rows("SELECT REFLEXIVE FROM Z_5FRIENDS WHERE Z_5FRIENDS = 1") == ["5"])
        let bo = try #require(try store.fetch(ObjectFetchRequest(entity: "Person")).first { $0["name"] == .string("Bo") })
        #expect(bo["friends"] == .array([1, 2, 6].map { .string(store.uri($0 == 6 ? "Person" : "Employee", Int64($0))) }))
        // Linking the same pair again from the other side adds nothing.
        try store.insertJSON("Person", #"{"email":"di@x","friends":[{"_ref":{"name":"Bo"}}]}"#, upsert: true)
        try store.insertJSON("Person", #"{"email":"bo@x","friends":[{"_ref":{"name":"Di"}},{"_ref":{"name":"Ann"}},{"_ref":{"name":"Max"}}]}"#, upsert: true)
        #expect(try counts() == expected)
        // Replacing Bo's friends drops Ann's and Max's side too.
        try store.insertJSON("Person", #"{"email":"bo@x","friends":[{"_ref":{"name":"Cy"}}]}"#, upsert: true)
        #expect(try counts() == ["Ann=0", "Max=0", "Cy=1", "Bo=1", "Di=0"])
        // A person cannot be counted twice, whichever side wrote the pair.
        let rows = try store.rows("SELECT Z_5FRIENDS, REFLEXIVE FROM Z_5FRIENDS ORDER BY 1, 2")
        #expect(rows == ["3|5", "5|3"])
    }

    @Test("One-to-one re-pointed: both FK columns follow, the previous partners are cleared")
    func oneToOneRepointed() throws {
        let store = try Self.acme()
        try store.insertJSON("Badge", #"{"code":"B2"}"#)
        // Ann takes B2: B1 loses its holder.
        try store.insertJSON("Employee", #"{"employeeNumber":1,"badge":{"_ref":{"code":"B2"}}}"#, upsert: true)
        #expect(try store.rows("SELECT ZCODE, ZHOLDER, Z5_HOLDER FROM ZBADGE ORDER BY Z_PK") == ["B1|NULL|NULL", "B2|1|7"])
        #expect(try store.rows("SELECT ZBADGE FROM ZPARTY WHERE Z_PK = 1") == ["2"])
        // Cy (a Contractor) takes B2 from its badge side: Ann loses it, Z5_HOLDER says Contractor (6).
        try store.insertJSON("Badge", #"{"code":"B2","holder":{"_ref":{"name":"Cy"}}}"#, upsert: true)
        #expect(try store.rows("SELECT ZCODE, ZHOLDER, Z5_HOLDER FROM ZBADGE ORDER BY Z_PK") == ["B1|NULL|NULL", "B2|3|6"])
        #expect(try store.rows("SELECT Z_PK, ZBADGE FROM ZPARTY WHERE Z_PK IN (1, 3) ORDER BY Z_PK") == ["1|NULL", "3|2"])
        // Cy takes B1 from the person side: B2 lets go of Cy.
        try store.insertJSON("Contractor", #"{"email":"cy@x","name":"Cy2"}"#)
        try store.insertJSON("Person", #"{"_entity":"Contractor","email":"cy@x","badge":{"_ref":{"code":"B1"}}}"#, upsert: true)
        #expect(try store.rows("SELECT ZCODE, ZHOLDER, Z5_HOLDER FROM ZBADGE ORDER BY Z_PK") == ["B1|5|6", "B2|3|6"])
        try store.insertJSON("Person", #"{"_entity":"Contractor","email":"cy@x","badge":{"_ref":{"code":"B2"}}}"#, upsert: true)
        #expect(try store.rows("SELECT ZCODE, ZHOLDER, Z5_HOLDER FROM ZBADGE ORDER BY Z_PK") == ["B1|NULL|NULL", "B2|5|6"])
        #expect(try store.rows("SELECT Z_PK, ZBADGE FROM ZPARTY WHERE ZBADGE IS NOT NULL") == ["5|2"])
        // Every changed existing object had Z_OPT bumped.
        #expect(try store.rows("SELECT Z_OPT FROM ZPARTY WHERE Z_PK = 3") != ["1"])
    }

    @Test("To-one re-pointed to another parent moves the object between to-manys")
    func toOneRepointedMovesBetweenToManys() throws {
        let store = try Self.acme()
        try store.insertJSON("Organization", #"{"name":"Beta","members":[{"_ref":{"name":"Cy"}}]}"#)
        #expect(try store.rows("SELECT ZNAME, ZORGANIZATION FROM ZPARTY WHERE Z_ENT BETWEEN 5 AND 7 ORDER BY Z_PK")
                == ["Ann|4", "Max|4", "Cy|5"])
        #expect(try store.values(ObjectFetchRequest(entity: "Organization", relationships: .counts), "members")
                == ["2", "1"])
    }
}

/// Inheritance: one table per hierarchy, Z_ENT, sub-entity objects in fetches, abstract entities.
@Suite("Graph inheritance")
struct GraphInheritanceTests {
    @Test func subEntitiesShareTheRootTable() throws {
        let store = try GraphStorageTests.acme()
        #expect(try store.rows("SELECT Z_ENT, COUNT(*) FROM ZPARTY GROUP BY Z_ENT") == ["4|1", "6|1", "7|2"])
        #expect(store.layout.entities.filter { $0.rootName == "Party" }.map(\.table) == Array(repeating: "ZPARTY", count: 5))
        #expect(try store.rows("SELECT name FROM sqlite_master WHERE name IN ('ZPERSON','ZEMPLOYEE','ZORGANIZATION','ZCONTRACTOR')") == [])
    }

    @Test func fetchingAnEntityReturnsItsSubEntitiesObjects() throws {
        let store = try GraphStorageTests.acme()
        try store.insertJSON("Person", #"{"name":"Plain"}"#)
        #expect(try store.fetch(ObjectFetchRequest(entity: "Party")).map(\.entity)
                == ["Employee", "Employee", "Contractor", "Organization", "Person"])
        #expect(try store.fetch(ObjectFetchRequest(entity: "Person")).map(\.entity) == ["Employee", "Employee", "Contractor", "Person"])
        #expect(try store.fetch(ObjectFetchRequest(entity: "Person", includesSubentities: false)).map(\.entity) == ["Person"])
        #expect(try store.fetch(ObjectFetchRequest(entity: "Party", includesSubentities: false)).isEmpty)
        #expect(try store.count(ObjectFetchRequest(entity: "Employee", includesSubentities: false)) == 2)
        // Object IDs name the concrete entity.
        let ids = try store.fetch(ObjectFetchRequest(entity: "Party")).compactMap { $0.objectID?.description }
        #expect(ids.first == store.uri("Employee", 1))
    }

    @Test func abstractEntitiesCannotBeInserted() throws {
        let store = try Org.store()
        let message = errorText { try store.insertJSON("Party", #"{"name":"X"}"#) } ?? ""
        #expect(message == """
            record 1: entity 'Party': the entity is abstract and cannot have objects of its own; insert one of \
            Organization, Person, Contractor, Employee (or set \"_entity\")
            """)
        // Naming a sub-entity with _entity works, at the top level and nested.
        try store.insertJSON("Party", #"{"_entity":"Organization","name":"O","members":[{"_entity":"Employee","name":"E"}]}"#)
        #expect(try store.rows("SELECT Z_ENT, ZNAME FROM ZPARTY ORDER BY Z_PK") == ["7|E", "4|O"])
        // _entity naming something outside the hierarchy is refused.
        let wrong = errorText { try store.insertJSON("Person", #"{"_entity":"Organization","name":"X"}"#) } ?? ""
        #expect(wrong == """
            record 1: entity 'Person', attribute '_entity': 'Organization' is not Person or one of its sub-entities
            """)
        let nestedWrong = errorText { try store.insertJSON("Organization", #"{"name":"O2","members":[{"_entity":"Badge","code":"x"}]}"#) } ?? ""
        #expect(nestedWrong == "record 1: entity 'Person', attribute '_entity': 'Badge' is not Person or one of its sub-entities")
    }

    @Test func referenceToAnObjectOfTheWrongEntityIsRefused() throws {
        let store = try GraphStorageTests.acme()
        let message = errorText { try store.insertJSON("Badge", "{\"code\":\"Q\",\"holder\":\"\(store.uri("Organization", 4))\"}") } ?? ""
        #expect(message == """
            record 1: entity 'Badge', relationship 'holder': x-coredata://\(store.metadata.uuid)/Organization/p4 is \
            not a Person object
            """)
        let missing = errorText { try store.insertJSON("Badge", "{\"code\":\"Q\",\"holder\":\"\(store.uri("Employee", 99))\"}") } ?? ""
        #expect(missing == """
            record 1: entity 'Badge', relationship 'holder': no object \
            x-coredata://\(store.metadata.uuid)/Employee/p99
            """)
        // Right pk, wrong concrete entity in the URI.
        let wrongEntity = errorText { try store.insertJSON("Badge", "{\"code\":\"Q\",\"holder\":\"\(store.uri("Contractor", 1))\"}") } ?? ""
        #expect(wrongEntity == """
            record 1: entity 'Badge', relationship 'holder': no object \
            x-coredata://\(store.metadata.uuid)/Contractor/p1
            """)
    }
}
