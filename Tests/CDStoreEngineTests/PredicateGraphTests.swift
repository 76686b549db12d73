import CDStoreModel
import CDStorePredicate
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// One object of the fixture graph, usable by the in-memory evaluator.
final class GraphNode: PredicateEvaluable, @unchecked Sendable {
    let entity: String
    let key: String
    var attributes: [String: EvaluationValue]
    var toOne: [String: GraphNode] = [:]
    var toMany: [String: [GraphNode]] = [:]
    var primaryKey: Int64 = 0

    init(_ entity: String, _ key: String, _ attributes: [String: EvaluationValue]) {
        self.entity = entity
        self.key = key
        self.attributes = attributes
    }

    func value(forKey key: String) -> EvaluationValue {
        if let value = attributes[key] { return value }
        if let object = toOne[key] { return .object(object) }
        if let objects = toMany[key] { return .collection(objects.map { .object($0) }) }
        return .null
    }
}

/// The graph store the predicate tests run on: Company 1—n Department 1—n Employee, Employee n—n Project,
/// Employee → manager (a Manager, sub-entity of Employee, sub-entity of Person), Manager.reports (ordered),
/// Project.tags (to-many without inverse), optional attributes with NULLs, unicode names.
///
/// Attributes are inserted through the store API; relationship columns and join tables with plain SQL, found
/// through the layout, so that the predicate tests do not depend on the object-graph insert.
final class GraphFixture: @unchecked Sendable {
    static let modelURL = Fixtures.root.appendingPathComponent("Graph.xcdatamodeld")
    static let shared: GraphFixture = try! GraphFixture()

    let model: ManagedObjectModel
    let store: Store
    var nodes: [GraphNode] = []

    static func date(_ iso: String) -> EvaluationValue { .date(PredicateDate.parseISO8601(iso)!) }
    static let annUID = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

    init() throws {
        model = try ModelLoader.load(Self.modelURL.path).model
        store = try Store.open(at: try temporaryDirectory().appendingPathComponent("Graph.sqlite").path, model: model)
        func node(_ entity: String, _ key: String, _ attributes: [String: EvaluationValue]) -> GraphNode {
            let n = GraphNode(entity, key, attributes)
            nodes.append(n)
            return n
        }
        let d = Self.date
        let acme = node("Company", "Acme", ["name": .string("Acme"), "founded": d("2000-01-01")])
        let globex = node("Company", "Globex", ["name": .string("Globex"), "founded": d("2010-06-15T12:00:00Z")])
        let initech = node("Company", "Initech", ["name": .string("Initech")])
        let engineering = node("Department", "Engineering", ["name": .string("Engineering"), "budget": .double(1000000.5)])
        let sales = node("Department", "Sales", ["name": .string("Sales"), "budget": .double(250000)])
        let research = node("Department", "Research", ["name": .string("Research")])
        let empty = node("Department", "Empty", ["name": .string("Empty"), "budget": .double(0)])
        let orphan = node("Department", "Orphan", ["name": .string("Orphan"), "budget": .double(10)])
        _ = node("Person", "Zoë", ["name": .string("Zoë"), "age": .int(29), "email": .string("zoe@example.com"), "active": .bool(true)])
        _ = node("Person", "Café", ["name": .string("Café"), "nickname": .string("café con leche")])
        _ = node("Person", "ÉCOLE", ["name": .string("ÉCOLE"), "age": .int(40), "active": .bool(false)])
        func employee(_ entity: String, _ name: String, age: Int64?, salary: Double?, hired: String?, active: Bool?,
                      nickname: String? = nil, extra: [String: EvaluationValue] = [:]) -> GraphNode {
            var a: [String: EvaluationValue] = ["name": .string(name)]
            if let age { a["age"] = .int(age) }
            if let salary { a["salary"] = .double(salary) }
            if let hired { a["hired"] = d(hired) }
            if let active { a["active"] = .bool(active) }
            if let nickname { a["nickname"] = .string(nickname) }
            a.merge(extra) { $1 }
            return node(entity, name, a)
        }
        let mia = employee("Manager", "Mia", age: 48, salary: 200000, hired: "2005-05-05", active: true, nickname: "boss",
                           extra: ["level": .int(2), "email": .string("mia@acme.com")])
        let max = employee("Manager", "Max", age: 39, salary: 180000, hired: "2011-11-11", active: true,
                           extra: ["level": .int(1), "email": .string("max@acme.com")])
        let ann = employee("Employee", "Ann", age: 34, salary: 120000, hired: "2015-03-01", active: true, nickname: "annie",
                           extra: ["uid": .string(Self.annUID), "bonus": .double(1000.25), "email": .string("ann@acme.com"),
                                   "photo": .string("AQID")])
        let bob = employee("Employee", "Bob", age: 28, salary: 90000, hired: "2019-07-15", active: false,
                           extra: ["bonus": .double(500)])
        let cara = employee("Employee", "Cara", age: 45, salary: 60000, hired: "2021-01-10", active: nil, nickname: "Ça va")
        let dan = employee("Employee", "Dan", age: nil, salary: nil, hired: nil, active: nil)
        let eve = employee("Employee", "Eve", age: 52, salary: 150000, hired: "2012-02-29", active: true, nickname: "eve")
        let finn = employee("Employee", "Finn", age: 19, salary: 30000, hired: "2023-09-01", active: false)
        let projects = [("Apollo", 1), ("Zeus", 3), ("Hermes", nil), ("Atlas", 2)].map { title, priority in
            node("Project", title, ["title": .string(title)].merging(priority.map { ["priority": .int(Int64($0))] } ?? [:]) { $1 })
        }
        let (apollo, zeus, _, atlas) = (projects[0], projects[1], projects[2], projects[3])
        let tags = ["urgent", "internal", "external", "unused"].map { node("Tag", $0, ["label": .string($0)]) }

        // Relationships, both sides.
        func setDepartment(_ e: GraphNode, _ dept: GraphNode) { e.toOne["department"] = dept; dept.toMany["employees", default: []].append(e) }
        for c in [acme, globex, initech] { c.toMany["departments"] = [] }
        for dpt in [engineering, sales, research, empty, orphan] { dpt.toMany["employees"] = [] }
        acme.toMany["departments"] = [engineering, sales]
        globex.toMany["departments"] = [research, empty]
        for dpt in [engineering, sales] { dpt.toOne["company"] = acme }
        for dpt in [research, empty] { dpt.toOne["company"] = globex }
        for e in [mia, ann, bob] { setDepartment(e, engineering) }
        for e in [max, cara, dan] { setDepartment(e, sales) }
        setDepartment(eve, research)
        for m in [mia, max] { m.toMany["reports"] = [] }
        for (e, m) in [(ann, mia), (bob, mia), (finn, mia), (max, mia), (cara, max)] {
            e.toOne["manager"] = m
            m.toMany["reports", default: []].append(e)
        }
        let employees = [mia, max, ann, bob, cara, dan, eve, finn]
        for e in employees { e.toMany["projects"] = [] }
        for p in projects { p.toMany["members"] = []; p.toMany["tags"] = [] }
        for (p, members) in [(apollo, [ann, bob, mia]), (zeus, [cara, ann]), (atlas, [eve, max, finn])] {
            p.toMany["members"] = members
            for m in members { m.toMany["projects", default: []].append(p) }
        }
        apollo.toMany["tags"] = [tags[0], tags[1]]
        zeus.toMany["tags"] = [tags[2]]
        try write()
    }

    /// Every object of `entity` and its sub-entities, in primary-key order.
    func objects(_ entity: String) -> [GraphNode] {
        let names = Set(model.subtree(of: model.entity(named: entity)!).map(\.name))
        return nodes.filter { names.contains($0.entity) }.sorted { $0.primaryKey < $1.primaryKey }
    }

    private func input(_ value: EvaluationValue, _ attribute: Attribute) -> InputValue {
        switch value {
        case .string(let s): return .string(s)
        case .int(let i): return .integer(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .date(let d): return .double(d.timeIntervalSinceReferenceDate)
        default: return .null
        }
    }

    private func write() throws {
        let roots = ["Company", "Department", "Person", "Project", "Tag"]
        for root in roots {
            let members = objects(root)
            let records = members.map { n in
                let entity = model.entity(named: n.entity)!
                let fields: [(String, InputValue)] = model.attributes(of: entity).compactMap { a in
                    n.attributes[a.name].map { (a.name, input($0, a)) }
                }
                return InputRecord(fields: fields, entityName: n.entity)
            }
            try store.insert(records, into: root)
            let fetched = try store.fetch(ObjectFetchRequest(entity: root))
            for object in fetched {
                let key: String
                switch object["name"] ?? object["title"] ?? object["label"] {
                case .string(let s)?: key = s
                default: continue
                }
                nodes.first { $0.key == key && model.subtree(of: model.entity(named: root)!).map(\.name).contains($0.entity) }!
                    .primaryKey = object.primaryKey
            }
        }
        // Photo is Binary: the evaluator sees nothing for it (string operators on it are refused anyway).
        for n in nodes { n.attributes["photo"] = nil }
        let layout = store.layout
        try DatabaseQueue(path: store.path).write { db in
            for n in nodes {
                let entityLayout = layout.entity(named: n.entity)!
                for (name, target) in n.toOne {
                    let toOne = entityLayout.toOnes[name]!
                    var sets = ["\(toOne.foreignKey) = \(target.primaryKey)"]
                    if let entityKey = toOne.entityKey { sets.append("\(entityKey) = \(layout.entity(named: target.entity)!.number)") }
                    if let orderKey = toOne.orderKey, let inverse = model.relationship(name, of: model.entity(named: n.entity)!)?.inverseName,
                       let position = target.toMany[inverse]?.firstIndex(where: { $0 === n }) {
                        sets.append("\(orderKey) = \((position + 1) * 1024)")
                    }
                    try db.execute(sql: "UPDATE \(entityLayout.table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = \(n.primaryKey)")
                }
                for (name, targets) in n.toMany {
                    switch entityLayout.toManys[name]! {
                    case .joinTable(let table, let source, let destination, let order):
                        for (i, target) in targets.enumerated() {
                            let exists = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(source) = ? AND \(destination) = ?",
                                                          arguments: [n.primaryKey, target.primaryKey]) ?? 0
                            if exists > 0 { continue }
                            if let order {
                                try db.execute(sql: "INSERT INTO \(table) (\(source), \(destination), \(order)) VALUES (?, ?, ?)",
                                               arguments: [n.primaryKey, target.primaryKey, (i + 1) * 1024])
                            } else {
                                try db.execute(sql: "INSERT INTO \(table) (\(source), \(destination)) VALUES (?, ?)",
                                               arguments: [n.primaryKey, target.primaryKey])
                            }
                        }
                    case .foreignKey(let table, let foreignKey, let entityKey, let order):
                        // Inverse to-ones are written from their own side; hidden to-ones (no inverse) here.
                        guard model.relationship(name, of: model.entity(named: n.entity)!)?.inverseName == nil else { continue }
                        for (i, target) in targets.enumerated() {
                            var sets = ["\(foreignKey) = \(n.primaryKey)"]
                            if let entityKey { sets.append("\(entityKey) = \(entityLayout.number)") }
                            if let order { sets.append("\(order) = \((i + 1) * 1024)") }
                            try db.execute(sql: "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = \(target.primaryKey)")
                        }
                    }
                }
            }
        }
    }

    /// Keys of the objects of `entity` that `predicate` selects in SQL, in primary-key order.
    func fetchKeys(_ entity: String, _ predicate: PredicateNode, sort: [CDStoreEngine.SortDescriptor] = []) throws -> [String] {
        try store.fetch(ObjectFetchRequest(entity: entity, predicate: predicate, sort: sort)).map { object in
            switch object["name"] ?? object["title"] ?? object["label"] {
            case .string(let s)?: return s
            default: return "?"
            }
        }
    }

    /// Keys of the objects of `entity` the in-memory evaluator accepts.
    func evaluatedKeys(_ entity: String, _ predicate: PredicateNode) throws -> [String] {
        let evaluator = PredicateEvaluator()
        return try objects(entity).filter { try evaluator.evaluate(predicate, with: $0) }.map(\.key)
    }
}

@Suite("Predicate graph fixture")
struct PredicateGraphTests {
    let fixture = GraphFixture.shared

    @Test func fixtureHasEveryObject() throws {
        #expect(try fixture.store.count(ObjectFetchRequest(entity: "Person")) == 11)
        #expect(try fixture.store.count(ObjectFetchRequest(entity: "Employee")) == 8)
        #expect(try fixture.store.count(ObjectFetchRequest(entity: "Manager")) == 2)
        #expect(try fixture.fetchKeys("Employee", PredicateParserShim.parse("department.name == 'Sales'")) == ["Max", "Cara", "Dan"])
    }

    @Test func sortsByToOneKeyPaths() throws {
        let all = try PredicateParserShim.parse("TRUEPREDICATE")
        #expect(try fixture.fetchKeys("Employee", all, sort: [CDStoreEngine.SortDescriptor("department.name"), CDStoreEngine.SortDescriptor("name")])
                == ["Finn", "Ann", "Bob", "Mia", "Eve", "Cara", "Dan", "Max"])
        #expect(try fixture.fetchKeys("Employee", all, sort: [CDStoreEngine.SortDescriptor(parsing: "-manager.name"), CDStoreEngine.SortDescriptor("name")])
                == ["Ann", "Bob", "Finn", "Max", "Cara", "Dan", "Eve", "Mia"])
        #expect(try fixture.fetchKeys("Department", all, sort: [CDStoreEngine.SortDescriptor(parsing: "-company.name:ci"), CDStoreEngine.SortDescriptor("name")])
                == ["Empty", "Research", "Engineering", "Sales", "Orphan"])
        #expect(try fixture.fetchKeys("Person", all, sort: [CDStoreEngine.SortDescriptor(parsing: "name:ci")]).first == "Ann")
        let toMany = #expect(throws: StoreError.self) { try fixture.fetchKeys("Employee", all, sort: [CDStoreEngine.SortDescriptor("projects.title")]) }
        #expect(toMany?.code == .invalidInput)
        #expect(toMany?.description == "entity 'Employee': sort: 'projects.title': 'projects.title' goes through a to-many "
                + "relationship, so it has several values")
        let typo = #expect(throws: StoreError.self) { try fixture.fetchKeys("Employee", all, sort: [CDStoreEngine.SortDescriptor("department.nme")]) }
        #expect(typo?.code == .unknownName)
        #expect(typo?.description == "entity 'Employee': sort: 'department.nme': no attribute or relationship 'nme' in "
                + "Department (in 'department.nme'); did you mean 'name'?")
        let relationship = #expect(throws: StoreError.self) { try fixture.fetchKeys("Employee", all, sort: [CDStoreEngine.SortDescriptor("department")]) }
        #expect(relationship?.code == .invalidInput && relationship?.input == .sort)
        #expect(relationship?.description == "entity 'Employee': sort: 'department': it is a relationship, not an attribute")
    }
}
