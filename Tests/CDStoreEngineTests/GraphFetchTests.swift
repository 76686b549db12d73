import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Counts SQL statements a connection runs.
final class StatementCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []
    func add(_ sql: String) { lock.lock(); statements.append(sql); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return statements }
    func reset() { lock.lock(); statements = []; lock.unlock() }
}

/// Fetch output: object IDs, `_entity`, relationships as IDs / counts / nested objects, in one query per
/// relationship and batch.
@Suite("Graph fetch output")
struct GraphFetchTests {
    /// 3 organizations × 80 members (Employees and Contractors alternately), each with a badge, each Employee
    /// reporting to the first one of its organization, 2 projects per organization with 3 tasks each.
    static func bigStore() throws -> Store {
        let store = try Org.store()
        var json: [String] = []
        for o in 1...3 {
            let members = (1...80).map { m -> String in
                let entity = m % 2 == 0 ? "Contractor" : "Employee"
                let number = entity == "Employee" ? ",\"employeeNumber\":\(o * 1000 + m)" : ""
                return "{\"_entity\":\"\(entity)\",\"name\":\"m\(o)-\(m)\",\"email\":\"m\(o)-\(m)@x\"\(number),\"badge\":{\"code\":\"b\(o)-\(m)\"}}"
            }
            let projects = (1...2).map { p in
                "{\"title\":\"p\(o)-\(p)\",\"tasks\":[" + (1...3).reversed().map { "{\"title\":\"t\($0)\"}" }.joined(separator: ",") + "]}"
            }
            json.append("{\"name\":\"org\(o)\",\"members\":[\(members.joined(separator: ","))],\"projects\":[\(projects.joined(separator: ","))]}")
        }
        try store.insertJSON("Organization", "[" + json.joined(separator: ",") + "]")
        return store
    }

    @Test("_id, _entity, to-one as URI, to-many as URIs in order; --counts")
    func shapes() throws {
        let store = try GraphStorageTests.acme()
        let objects = try store.fetch(ObjectFetchRequest(entity: "Person"))
        let ann = objects[0]
        #expect(ann.objectID?.description == store.uri("Employee", 1))
        #expect(ann.entity == "Employee")
        #expect(ann.record(nameEntityUnless: "Person").dictionaryKeys.prefix(2) == ["_id", "_entity"])
        #expect(ann.record(nameEntityUnless: "Employee").dictionaryKeys.first == "_id")
        #expect(ann.record(nameEntityUnless: "Employee").dictionaryKeys
                == ["_id", "createdAt", "name", "email", "employeeNumber", "salary", "badge", "friends", "organization", "projects",
                    "manager", "reports"])
        #expect(ann["badge"] == .string(store.uri("Badge", 1)))
        #expect(ann["manager"] == .string(store.uri("Employee", 2)))
        #expect(ann["organization"] == .string(store.uri("Organization", 4)))
        #expect(ann["projects"] == .array([.string(store.uri("Project", 1))]))
        #expect(objects[2]["badge"] == .null)
        #expect(objects[2]["manager"] == nil, "a Contractor has no manager")
        let counted = try store.fetch(ObjectFetchRequest(entity: "Organization", relationships: .counts))[0]
        #expect(counted["members"] == .integer(3) && counted["tags"] == .integer(2) && counted["projects"] == .integer(1))
        #expect(counted["headquarters"] == .string(store.uri("Address", 1)))
        let bare = try store.fetch(ObjectFetchRequest(entity: "Organization", relationships: .none))[0]
        #expect(bare["members"] == nil && bare["headquarters"] == nil && bare["name"] == .string("Acme"))
    }

    @Test("--include nests related objects, REL.SUBREL deeper, in relationship order")
    func include() throws {
        let store = try GraphStorageTests.acme()
        let org = try store.fetch(ObjectFetchRequest(entity: "Organization", includes: ["members", "members.badge", "projects.tasks"]))[0]
        guard case .array(let members)? = org["members"] else { Issue.record("members not nested"); return }
        #expect(members.count == 3)
        #expect(members[0].field("_entity") == .string("Employee"))
        #expect(members[0].field("badge")?.field("code") == .string("B1"))
        #expect(members[0].field("badge")?.field("holder") == .string(store.uri("Employee", 1)))
        #expect(members[2].field("badge") == .null)
        guard case .array(let projects)? = org["projects"], case .array(let tasks)? = projects.first?.field("tasks") else {
            Issue.record("projects.tasks not nested"); return
        }
        #expect(tasks.map { $0.field("title") } == [.string("c"), .string("a"), .string("b")])
        // Not included: still URIs.
        #expect(org["tags"] == .array([.string(store.uri("Tag", 1)), .string(store.uri("Tag", 2))]))
        let wrong = errorText { _ = try store.fetch(ObjectFetchRequest(entity: "Organization", includes: ["membres"])) } ?? ""
        #expect(wrong == "entity 'Organization': prefetch: no relationship 'membres'; did you mean 'members'?")
        // A relationship of a sub-entity can be included from the parent (Employee.manager from Person).
        let people = try store.fetch(ObjectFetchRequest(entity: "Person", includes: ["manager"]))
        #expect(people[0]["manager"]?.field("name") == .string("Max"))
    }

    @Test("Relationships and --include over 240 objects: the query count does not grow with the objects")
    func noPerObjectQueries() throws {
        let store = try Self.bigStore()
        let counter = StatementCounter()
        store.database.inDatabase { db in db.trace { counter.add("\($0)") } }
        func queries(_ request: ObjectFetchRequest) throws -> (Int, [FetchedObject]) {
            counter.reset()
            let objects = try store.fetch(request)
            return (counter.all.filter { $0.uppercased().hasPrefix("SELECT") }.count, objects)
        }
        let (plain, people) = try queries(ObjectFetchRequest(entity: "Person"))
        #expect(people.count == 240)
        // 2 batches (256 rows each) × a handful of relationships, not 240 × anything.
        #expect(plain < 40, "\(plain) queries")
        let (nested, orgs) = try queries(ObjectFetchRequest(entity: "Organization", includes: ["members", "members.badge", "projects", "projects.tasks"]))
        #expect(nested < 40, "\(nested) queries")
        #expect(orgs.count == 3)
        for (index, org) in orgs.enumerated() {
            guard case .array(let members)? = org["members"], case .array(let projects)? = org["projects"] else {
                Issue.record("not nested"); continue
            }
            #expect(members.count == 80)
            #expect(members.allSatisfy { $0.field("badge")?.field("code") != nil })
            #expect(members.compactMap { $0.field("name") } == (1...80).map { .string("m\(index + 1)-\($0)") })
            #expect(members.map { $0.field("_entity") } == (1...80).map { .string($0 % 2 == 0 ? "Contractor" : "Employee") })
            #expect(projects.count == 2)
            for project in projects {
                guard case .array(let tasks)? = project.field("tasks") else { Issue.record("tasks"); continue }
                #expect(tasks.map { $0.field("title") } == [.string("t3"), .string("t2"), .string("t1")])
            }
        }
        let (counted, _) = try queries(ObjectFetchRequest(entity: "Badge", includes: ["holder", "holder.organization"]))
        #expect(counted < 40, "\(counted) queries")
    }

    @Test("--sort by a to-one key path")
    func sortByToOne() throws {
        let store = try Self.bigStore()
        try store.insertJSON("Organization", #"{"name":"aaa","members":[{"name":"first"}]}"#)
        try store.insertJSON("Person", #"{"name":"loner"}"#)
        let sorted = try store.fetch(ObjectFetchRequest(entity: "Badge", sort: [SortDescriptor("holder.organization.name", ascending: false),
                                                                              SortDescriptor("code")]))
        let codes = sorted.map { Store.text($0["code"]!) }
        #expect(codes.prefix(2) == ["b3-1", "b3-10"])
        #expect(codes.count == 240)
        let people = try store.fetch(ObjectFetchRequest(entity: "Person", sort: [SortDescriptor("organization.name"), SortDescriptor("name")]))
        // No organization (NULL) sorts first, as in Core Data's SQLite store.
        #expect(people.prefix(3).map { Store.text($0["name"]!) } == ["loner", "first", "m1-1"])
    }
}

extension ObjectValue {
    /// A field of a dictionary value.
    func field(_ key: String) -> ObjectValue? {
        guard case .dictionary(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    var dictionaryKeys: [String] {
        guard case .dictionary(let fields) = self else { return [] }
        return fields.map(\.0)
    }
}
