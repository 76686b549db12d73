import CDStoreModel
import CDStorePredicate
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Delete rules: Nullify, Cascade (cycles too), Deny, No Action, and dry runs.
@Suite("Graph delete rules")
struct GraphDeleteTests {
    func request(_ entity: String, _ predicate: String? = nil, exact: Bool = false) throws -> ObjectFetchRequest {
        ObjectFetchRequest(entity: entity, predicate: try predicate.map { try PredicateParser.parse($0) }, includesSubentities: !exact)
    }

    /// Acme plus Bo and Di, friends of Ann; Bo also on Apollo.
    func store() throws -> Store {
        let store = try GraphStorageTests.acme()
        try store.insertJSON("Person", #"[{"name":"Bo","friends":[{"_ref":{"name":"Ann"}}],"projects":[{"_ref":{"title":"Apollo"}}]},{"name":"Di","friends":[{"_ref":{"name":"Ann"}},{"_ref":{"name":"Bo"}}]}]"#)
        return store
    }

    @Test("Nullify: FKs of the inverse become NULL, join rows go, the others' Z_OPT is bumped")
    func nullify() throws {
        let store = try store()
        // Ann: badge (Cascade) goes too; organization/projects/friends/manager Nullify.
        let result = try store.delete(try request("Person", "name == 'Ann'"))
        #expect(result.byEntity.map { "\($0.0)=\($0.1)" } == ["Badge=1", "Employee=1"])
        #expect(try store.rows("SELECT COUNT(*) FROM Z_5FRIENDS WHERE Z_5FRIENDS = 1 OR REFLEXIVE = 1") == ["0"])
        #expect(try store.rows("SELECT COUNT(*) FROM Z_5PROJECTS WHERE Z_5PEOPLE = 1") == ["0"])
        #expect(try store.rows("SELECT Z_5PEOPLE FROM Z_5PROJECTS") == ["5"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZBADGE") == ["0"])
        // Bo and Di stay friends; their friend counts went down.
        #expect(try store.values(ObjectFetchRequest(entity: "Person", relationships: .counts), "friends")
                == ["0", "0", "1", "1"])
        // Max (the manager) and Acme changed: Z_OPT bumped; Cy untouched.
        #expect(try store.rows("SELECT ZNAME, Z_OPT FROM ZPARTY ORDER BY Z_PK") == ["Max|2", "Cy|1", "Acme|2", "Bo|2", "Di|2"])
        // Deleting a badge clears its holder's FK (one-to-one Nullify).
        try store.insertJSON("Badge", #"{"code":"Z","holder":{"_ref":{"name":"Cy"}}}"#)
        try store.delete(try request("Badge"))
        #expect(try store.rows("SELECT COUNT(*) FROM ZPARTY WHERE ZBADGE IS NOT NULL") == ["0"])
    }

    @Test("Cascade: recursive, through sub-entities; Deny refuses the whole delete unless the blockers go too")
    func cascadeAndDeny() throws {
        let store = try store()
        let before = storeBytes(store.path)
        // Acme: projects (Deny) holds Apollo: refused, naming object and relationship; nothing changes.
        let message = errorText { _ = try store.delete(try request("Organization")) } ?? ""
        #expect(message == """
            entity 'Organization', relationship 'projects': cannot delete \
            x-coredata://\(store.metadata.uuid)/Organization/p4: its relationship holds 1 object \
            (x-coredata://\(store.metadata.uuid)/Project/p1) and its delete rule is Deny; nothing was deleted
            """)
        #expect(storeBytes(store.path) == before)
        // Also when the denied object is reached by a cascade (Party --all).
        #expect(errorText { _ = try store.delete(try request("Party")) } != nil)
        #expect(storeBytes(store.path) == before)
        // Apollo goes (tasks cascade); then Acme: members, their badges, headquarters cascade; tags stay (No Action).
        let apollo = try store.delete(try request("Project"))
        #expect(apollo.byEntity.map { "\($0.0)=\($0.1)" } == ["Project=1", "Task=3"])
        let acme = try store.delete(try request("Organization"))
        #expect(acme.byEntity.map { "\($0.0)=\($0.1)" } == ["Address=1", "Badge=1", "Organization=1", "Contractor=1", "Employee=2"])
        #expect(acme.requested == 1 && acme.total == 6)
        #expect(try store.rows("SELECT ZNAME FROM ZPARTY ORDER BY Z_PK") == ["Bo", "Di"])
        // No Action: the tags keep their hidden to-one to the deleted organization.
        #expect(try store.rows("SELECT ZLABEL, Z4TAGS FROM ZTAG ORDER BY Z_PK") == ["t1|4", "t2|4"])
        #expect(try store.rows("SELECT REFLEXIVE FROM Z_5FRIENDS WHERE Z_5FRIENDS = 5") == ["6"])
    }

    @Test("Deny does not block when the held objects are deleted in the same delete")
    func denySatisfiedWithinTheDelete() throws {
        let model = try Org.jsonModel("""
            [{"name":"Box","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"items","destination":"Item","inverse":"box","toMany":true,"optional":true,"deleteRule":"Deny"},
                               {"name":"lid","destination":"Lid","inverse":"box","optional":true,"deleteRule":"Cascade"}]},
             {"name":"Item","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"box","destination":"Box","inverse":"items","optional":true}]},
             {"name":"Lid","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"box","destination":"Box","inverse":"lid","optional":true,"deleteRule":"Cascade"}]}]
            """)
        let store = try Org.store(model)
        try store.insertJSON("Box", #"[{"name":"a","items":[{"name":"i"}],"lid":{"name":"l"}},{"name":"b"}]"#)
        #expect(errorText { _ = try store.delete(try request("Box", "name == 'a'")) } != nil)
        // Deleting a lid cascades to its box, which Deny protects too.
        #expect(errorText { _ = try store.delete(try request("Lid")) } == """
            entity 'Box', relationship 'items': cannot delete x-coredata://\(store.metadata.uuid)/Box/p1: its relationship holds \
            1 object (x-coredata://\(store.metadata.uuid)/Item/p1) and its delete rule is Deny; nothing was deleted
            """)
        try store.delete(try request("Item"))
        let result = try store.delete(try request("Lid"))
        #expect(result.byEntity.map { "\($0.0)=\($0.1)" } == ["Box=1", "Lid=1"])
    }

    @Test("Cascade cycles end: A ⇄ B both Cascade, and a self-referential chain")
    func cascadeCycles() throws {
        let model = try Org.jsonModel("""
            [{"name":"Node","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"next","destination":"Node","inverse":"previous","optional":true,"deleteRule":"Cascade"},
                               {"name":"previous","destination":"Node","inverse":"next","optional":true,"deleteRule":"Cascade"},
                               {"name":"peers","destination":"Node","inverse":"peers","toMany":true,"optional":true,"deleteRule":"Cascade"},
                               {"name":"partner","destination":"Other","inverse":"node","optional":true,"deleteRule":"Cascade"}]},
             {"name":"Other","attributes":[{"name":"name","type":"String"}],
              "relationships":[{"name":"node","destination":"Node","inverse":"partner","optional":true,"deleteRule":"Cascade"}]}]
            """)
        let store = try Org.store(model)
        // A ring through next/previous (a → b → c → a), each with a partner, plus d, a peer of c, and e alone.
        try store.insertJSON("Node", #"[{"name":"a","partner":{"name":"pa"}},{"name":"b","previous":{"_ref":{"name":"a"}},"partner":{"name":"pb"}},{"name":"c","previous":{"_ref":{"name":"b"}},"next":{"_ref":{"name":"a"}}},{"name":"d","peers":[{"_ref":{"name":"c"}}]},{"name":"e"}]"#)
        let dry = try store.delete(try request("Node", "name == 'b'"), dryRun: true)
        #expect(dry.byEntity.map { "\($0.0)=\($0.1)" } == ["Node=4", "Other=2"])
        #expect(try store.count(ObjectFetchRequest(entity: "Node")) == 5)
        let result = try store.delete(try request("Node", "name == 'b'"))
        #expect(result == dry)
        #expect(try store.rows("SELECT ZNAME FROM ZNODE") == ["e"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZOTHER") == ["0"])
    }

    @Test("No Action leaves dangling references: Employee.reports")
    func noAction() throws {
        let store = try store()
        try store.delete(try request("Employee", "name == 'Max'"))
        // Ann still points at Max's primary key, as Core Data leaves it.
        #expect(try store.rows("SELECT ZMANAGER FROM ZPARTY WHERE ZNAME = 'Ann'") == ["2"])
        #expect(try store.rows("SELECT COUNT(*) FROM ZPARTY WHERE Z_PK = 2") == ["0"])
        // Reading it back does not fail; the ID still names the missing object.
        let ann = try store.fetch(try request("Employee", "name == 'Ann'"))[0]
        #expect(ann["manager"] == .string(store.uri("Employee", 2)))
    }

    @Test("--dry-run counts per entity and changes nothing; --exact-entity spares sub-entities")
    func dryRunAndExactEntity() throws {
        let store = try store()
        let before = storeBytes(store.path)
        let dry = try store.delete(try request("Person"), dryRun: true)
        #expect(dry.byEntity.map { "\($0.0)=\($0.1)" } == ["Badge=1", "Person=2", "Contractor=1", "Employee=2"])
        #expect(dry.requested == 5 && dry.total == 6)
        #expect(storeBytes(store.path) == before)
        let exact = try store.delete(try request("Person", exact: true))
        #expect(exact.byEntity.map { "\($0.0)=\($0.1)" } == ["Person=2"])
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 3)
    }
}
