import CDStoreTestSupport
import Foundation
import Testing

/// The Organization model of `Schemas/`, for end-to-end graph tests.
let organizationModel = Corpus.schemas.appendingPathComponent("Organization.xcdatamodeld").path

extension Sandbox {
    /// Names printed by `fetch … --format ndjson --no-relationships` in order.
    func names(_ entity: String, _ arguments: [String] = [], key: String = "name") throws -> [String] {
        let text = try ok(["fetch", entity, "--format", "ndjson"] + arguments)
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?[key] as? String
        }
    }

    /// The Acme graph of the library tests, plus Bo (friend of Ann and Max), Di (friend of Bo), salaries and a
    /// second organization with a second project.
    func seedAcme() throws {
        try ok(["insert", "Organization", "--json", #"""
            [{"name":"Acme","headquarters":{"city":"Paris"},"tags":[{"label":"t1"},{"label":"t2"}],
              "members":[{"_entity":"Employee","name":"Ann","email":"ann@x","employeeNumber":1,"salary":900,"badge":{"code":"B1"}},
                         {"_entity":"Employee","name":"Max","email":"max@x","employeeNumber":2,"salary":5000,
                          "reports":[{"_ref":{"name":"Ann"}},{"_entity":"Employee","name":"Eve","employeeNumber":3,"salary":2000}]},
                         {"_entity":"Contractor","name":"Cy","agency":"Ag"}],
              "projects":[{"title":"Apollo","tasks":[{"title":"c"},{"title":"a","done":true},{"title":"b"}],"people":[{"_ref":{"name":"Ann"}}]}]},
             {"name":"Globex","members":[{"_entity":"Employee","name":"Gus","employeeNumber":4,"salary":3000,
                                          "reports":[{"_entity":"Employee","name":"Hal","employeeNumber":5,"salary":1500}]}],
              "projects":[{"title":"Bridge","tasks":[{"title":"x","done":true}],"people":[{"_ref":{"name":"Gus"}},{"_ref":{"name":"Cy"}}]}]}]
            """#])
        try ok(["insert", "Person", "--json", #"[{"name":"Bo","friends":[{"_ref":{"name":"Ann"}},{"_ref":{"name":"Max"}}]},{"name":"Di","friends":[{"_ref":{"name":"Bo"}}]}]"#])
    }
}

/// End to end: predicates across relationships, fetch output, mapping options, delete rules.
@Suite("Graph through the command line")
struct GraphCLITests {
    @Test("Predicates across relationships on a stored graph")
    func predicates() throws {
        let box = try Sandbox(model: organizationModel)
        try box.seedAcme()
        let cases: [(String, String, [String])] = [
            ("Person", "organization.name == 'Acme'", ["Ann", "Max", "Cy"]),
            ("Person", "ANY projects.title BEGINSWITH 'A'", ["Ann"]),
            ("Person", "ANY projects.title BEGINSWITH 'B'", ["Cy", "Gus"]),
            ("Employee", "ALL reports.salary > 1000", ["Ann", "Gus", "Eve", "Hal"]),
            ("Employee", "reports.@count > 0 AND ALL reports.salary > 1000", ["Gus"]),
            ("Employee", "NONE reports.salary > 1000", ["Ann", "Eve", "Hal"]),
            ("Project", "SUBQUERY(tasks, $t, $t.done == NO).@count > 1", ["Apollo"]),
            ("Project", "SUBQUERY(tasks, $t, $t.done == YES).@count == 1", ["Apollo", "Bridge"]),
            ("Person", "friends.@count == 2", []),
            ("Person", "friends.@count == 1", ["Ann", "Max", "Di"]),
            ("Person", "friends.@count == 3", ["Bo"]),
            ("Person", "ANY friends.name == 'Bo'", ["Ann", "Max", "Di"]),
            ("Employee", "manager == nil", ["Max", "Gus"]),
            ("Employee", "manager.name == 'Max'", ["Ann", "Eve"]),
            ("Employee", "organization.projects.@count == 1 AND manager != nil", ["Ann"]),
            ("Employee", "reports.@avg.salary > 1000", ["Max", "Gus"]),
            ("Employee", "reports.@max.salary == 2000", ["Max"]),
            ("Organization", "members.@count == 3", ["Acme"]),
            ("Organization", "ANY tags.label == 't2'", ["Acme"]),
            ("Task", "project.owner.name == 'Globex'", ["x"]),
            ("Badge", "holder.organization.name == 'Acme'", ["B1"]),
        ]
        for (entity, predicate, expected) in cases {
            let key = entity == "Project" || entity == "Task" ? "title" : entity == "Organization" ? "name" : entity == "Badge" ? "code" : "name"
            let names = try box.names(entity, ["--where", predicate, "--no-relationships"], key: key)
            #expect(Set(names) == Set(expected), "\(entity) \(predicate): \(names)")
        }
        // IN against a to-many.
        #expect(Set(try box.names("Person", ["--where", "'Bridge' IN projects.title"])) == ["Cy", "Gus"])
    }

    @Test("fetch output: _id, _entity, relationships as URIs in order, --counts, --include, --sort by a to-one")
    func fetchOutput() throws {
        let box = try Sandbox(model: organizationModel)
        try box.seedAcme()
        // Relationships as object IDs, to-manys in their order; the whole document, parsed.
        let project = try box.ok(["fetch", "Project", "--where", "title == 'Apollo'", "--format", "json"])
        expectJSON(project, #"""
            [{"_id":"x-coredata://<store-uuid>/Project/p1","title":"Apollo","owner":"x-coredata://<store-uuid>/Organization/p5",
              "people":["x-coredata://<store-uuid>/Employee/p1"],
              "tasks":["x-coredata://<store-uuid>/Task/p1","x-coredata://<store-uuid>/Task/p2","x-coredata://<store-uuid>/Task/p3"]}]
            """#)
        // An Employee fetched as Person names its entity, a Person does not; --counts gives to-manys as counts.
        let people = try box.ok(["fetch", "Person", "--where", "name == 'Ann' OR name == 'Bo'", "--format", "ndjson", "--counts"])
        expectNDJSON(people, [
            #"""
            {"_id":"x-coredata://<store-uuid>/Employee/p1","_entity":"Employee","createdAt":null,"name":"Ann","email":"ann@x",
             "employeeNumber":1,"salary":900,"badge":"x-coredata://<store-uuid>/Badge/p1","friends":1,
             "organization":"x-coredata://<store-uuid>/Organization/p5","projects":1,"manager":"x-coredata://<store-uuid>/Employee/p3","reports":0}
            """#,
            #"""
            {"_id":"x-coredata://<store-uuid>/Person/p9","createdAt":null,"name":"Bo","email":null,"badge":null,"friends":3,
             "organization":null,"projects":0}
            """#,
        ])
        let exact = try box.ok(["fetch", "Employee", "--where", "name == 'Ann'", "--format", "ndjson"])
        expectNDJSON(exact, [#"""
            {"_id":"x-coredata://<store-uuid>/Employee/p1","createdAt":null,"name":"Ann","email":"ann@x","employeeNumber":1,"salary":900,
             "badge":"x-coredata://<store-uuid>/Badge/p1","friends":["x-coredata://<store-uuid>/Person/p9"],
             "organization":"x-coredata://<store-uuid>/Organization/p5","projects":["x-coredata://<store-uuid>/Project/p1"],
             "manager":"x-coredata://<store-uuid>/Employee/p3","reports":[]}
            """#])
        // --include nests the related objects (and, by key path, theirs) in place of their IDs.
        let included = try box.ok(["fetch", "Project", "--where", "title == 'Apollo'", "--include", "tasks,owner", "--include", "people.badge",
                                   "--format", "json"])
        expectJSON(included, #"""
            [{"_id":"x-coredata://<store-uuid>/Project/p1","title":"Apollo",
              "owner":{"_id":"x-coredata://<store-uuid>/Organization/p5","createdAt":null,"name":"Acme","founded":null,
                       "headquarters":"x-coredata://<store-uuid>/Address/p1",
                       "members":["x-coredata://<store-uuid>/Employee/p1","x-coredata://<store-uuid>/Employee/p3","x-coredata://<store-uuid>/Contractor/p4"],
                       "projects":["x-coredata://<store-uuid>/Project/p1"],
                       "tags":["x-coredata://<store-uuid>/Tag/p1","x-coredata://<store-uuid>/Tag/p2"]},
              "people":[{"_id":"x-coredata://<store-uuid>/Employee/p1","_entity":"Employee","createdAt":null,"name":"Ann","email":"ann@x",
                         "employeeNumber":1,"salary":900,
                         "badge":{"_id":"x-coredata://<store-uuid>/Badge/p1","code":"B1","holder":"x-coredata://<store-uuid>/Employee/p1"},
                         "friends":["x-coredata://<store-uuid>/Person/p9"],"organization":"x-coredata://<store-uuid>/Organization/p5",
                         "projects":["x-coredata://<store-uuid>/Project/p1"],"manager":"x-coredata://<store-uuid>/Employee/p3","reports":[]}],
              "tasks":[{"_id":"x-coredata://<store-uuid>/Task/p1","done":false,"title":"c","project":"x-coredata://<store-uuid>/Project/p1"},
                       {"_id":"x-coredata://<store-uuid>/Task/p2","done":true,"title":"a","project":"x-coredata://<store-uuid>/Project/p1"},
                       {"_id":"x-coredata://<store-uuid>/Task/p3","done":false,"title":"b","project":"x-coredata://<store-uuid>/Project/p1"}]}]
            """#)
        // The table shortens object IDs to Entity/pN and shows to-manys as counts (numbers, aligned right).
        let table = try box.ok(["fetch", "Organization", "--format", "table"])
        #expect(table == """
            _id              createdAt  name    founded  headquarters  members  projects  tags
            ---------------  ---------  ------  -------  ------------  -------  --------  ----
            Organization/p5             Acme             Address/p1          3         1     2
            Organization/p8             Globex                               1         1     0

            """, "\(table)")
        let sorted = try box.names("Employee", ["--sort", "-manager.name", "--sort", "name", "--no-relationships"])
        #expect(sorted == ["Ann", "Eve", "Hal", "Gus", "Max"])
        let wrong = try box.run(["fetch", "Project", "--include", "taks"])
        #expect(wrong.status == 1 && wrong.stderr == "error: entity 'Project': --include: no relationship 'taks'; did you mean 'tasks'?\n")
    }

    @Test("delete --dry-run prints per-entity counts and changes nothing; delete applies the rules")
    func deleteCommand() throws {
        let box = try Sandbox(model: organizationModel)
        try box.seedAcme()
        let before = storeBytes(box.store)
        let dry = try box.ok(["delete", "Project", "--all", "--dry-run"])
        #expect(dry == "would delete 6 objects (2 Project, 4 Task)\n")
        #expect(storeBytes(box.store) == before)
        let denied = try box.run(["delete", "Organization", "--where", "name == 'Acme'"])
        #expect(denied.status == 1 && Sandbox.anonymized(denied.stderr) == """
            error: entity 'Organization', relationship 'projects': cannot delete x-coredata://<store-uuid>/Organization/p5: \
            its relationship holds 1 object (x-coredata://<store-uuid>/Project/p1) and its delete rule is Deny; nothing was deleted

            """, "\(denied.stderr)")
        #expect(storeBytes(box.store) == before)
        #expect(try box.ok(["delete", "Project", "--where", "title == 'Apollo'"]) == "deleted 4 objects (1 Project, 3 Task)\n")
        let cascade = try box.ok(["delete", "Organization", "--where", "name == 'Acme'", "--dry-run"])
        #expect(cascade == "would delete 6 objects (1 Address, 1 Badge, 1 Organization, 1 Contractor, 2 Employee)\n")
        #expect(try box.ok(["delete", "Person", "--where", "name == 'Bo'"]) == "deleted 1 object\n")
        #expect(try box.names("Person", ["--where", "friends.@count > 0"]).isEmpty)
    }

    @Test("insert --map FILE, the model's own mapping, and --no-mapping")
    func mappingOptions() throws {
        let groot = Corpus.models.appendingPathComponent("gonzalezreal__Groot__Model.xcdatamodeld").path
        let box = try Sandbox(model: groot)
        let api = #"[{"id":"1699","name":"Batman","real_name":"Bruce Wayne","powers":[{"id":"4","name":"Agility"}],"publisher":{"id":"10","name":"DC"}},{"id":"1455","name":"Iron Man","real_name":"Tony Stark","powers":[4],"publisher":10}]"#
        #expect(try box.ok(["insert", "Character", "--json", api]) == "inserted 2 objects into Character\n")
        #expect(try box.names("Publisher").count == 1)
        #expect(Set(try box.names("Character", ["--where", "ANY powers.name == 'Agility'"])) == ["Batman", "Iron Man"])
        let unmapped = try box.run(["insert", "Character", "--no-mapping", "--json", api])
        #expect(unmapped.status == 1
                && unmapped.stderr == "error: record 1 (line 1): entity 'Character', attribute 'id': no such attribute or relationship\n")
        try box.ok(["insert", "Character", "--no-mapping", "--json", #"{"identifier":7,"name":"N","realName":"R"}"#])
        // --upsert merges the same API objects.
        try box.ok(["insert", "Character", "--upsert", "--json", #"{"id":1699,"name":"The Batman"}"#])
        #expect(try box.names("Character") == ["The Batman", "Iron Man", "N"])

        let org = try Sandbox(model: organizationModel)
        let map = try org.write("map.json", #"{"Person":{"keys":{"name":"user.name","organization":"org"},"relatedBy":{"organization":"name"}},"Organization":{"keys":{"name":"org_name"}}}"#)
        try org.ok(["insert", "Organization", "--map", map, "--json", #"{"org_name":"Acme"}"#])
        try org.ok(["insert", "Person", "--map", map, "--json", #"[{"user":{"name":"Ann"},"org":"Acme"},{"user":{"name":"Bo"},"org":"Acme"}]"#])
        #expect(try org.names("Organization") == ["Acme"])
        #expect(try org.names("Person", ["--where", "organization.name == 'Acme'"]) == ["Ann", "Bo"])
        let bad = try org.run(["insert", "Person", "--map", org.write("bad.json", #"{"Person":{"keys":{"nam":"x"}}}"#), "--json", "{}"])
        #expect(bad.status == 1 && bad.stderr == "error: entity 'Person': mapping file: no property 'nam'; did you mean 'name'?\n")
    }

    @Test("import: NDJSON lines without _entity are refused with their line")
    func importNeedsEntity() throws {
        let box = try Sandbox(model: organizationModel)
        let result = try box.run(["import", box.write("g.ndjson", "{\"_entity\":\"Tag\",\"label\":\"a\"}\n{\"label\":\"b\"}\n")])
        #expect(result.status == 1 && result.stderr == "error: line 2: each line needs \"_entity\"\n")
    }

    /// `export ENTITY` writes a JSON array; `import` said "malformed JSON at column 2" for it.
    @Test func importOfAOneEntityExportSaysWhatToDoInstead() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        try box.ok(["export", "Item", "--output", box.path("items.json")])
        let result = try box.run(["import", box.path("items.json")], store: box.path("copy.sqlite"))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: a JSON array is not a graph document"), "\(result.stderr)")
    }
}
