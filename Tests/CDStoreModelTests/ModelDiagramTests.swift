import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreModel

/// `model diagram` as Mermaid and DOT text; the whole text of each Schemas/ model is pinned in
/// Tests/Snapshots/diagram/ (re-record with CDSTORE_RECORD_SNAPSHOTS=1; see `Snapshot`).
@Suite("Model diagrams: Mermaid and DOT")
struct ModelDiagramTests {
    static let schemas = ["Company.json", "People.json", "Library.xcdatamodeld", "Organization.xcdatamodeld", "Staff.xcdatamodeld"]

    static func load(_ name: String) throws -> ManagedObjectModel {
        try ModelLoader.load(Corpus.schemas.appendingPathComponent(name).path).model
    }

    @Test(arguments: schemas)
    func mermaid(schema: String) throws {
        let name = schema.split(separator: ".").first!
        try assertSnapshot(try ModelDiagram(try Self.load(schema)).mermaid(), named: "diagram/\(name).mmd")
    }

    @Test(arguments: schemas)
    func dot(schema: String) throws {
        let name = schema.split(separator: ".").first!
        try assertSnapshot(try ModelDiagram(try Self.load(schema)).dot(), named: "diagram/\(name).dot")
    }

    @Test("Each inverse pair is one line; a relationship without an inverse is a line of its own")
    func inversePairsOnce() throws {
        let diagram = try ModelDiagram(try Self.load("Company.json"))
        #expect(diagram.links.map { "\($0.source).\($0.relationship.name)/\($0.inverse?.name ?? "-")" }
                == ["Company.departments/company", "Department.employees/department", "Department.manager/managedDepartment",
                    "Employee.badge/employee"])
        #expect(diagram.inheritance.map { "\($0.child) → \($0.parent)" } == ["Manager → Employee"])
    }

    @Test("--entity with --depth: the entities within that many relationships, parents or sub-entities")
    func neighbourhood() throws {
        let model = try Self.load("Company.json")
        func names(_ focus: String, _ depth: Int) throws -> [String] { try ModelDiagram(model, around: focus, depth: depth).entities.map(\.name) }
        #expect(try names("Badge", 0) == ["Badge"])
        #expect(try names("Badge", 1) == ["Employee", "Badge"])
        #expect(try names("Badge", 2) == ["Department", "Employee", "Manager", "Badge"])
        #expect(try names("Company", 9) == ["Company", "Department", "Employee", "Manager", "Badge"])
        // Lines only between drawn entities.
        #expect(try ModelDiagram(model, around: "Badge", depth: 1).mermaid().hasSuffix("""
                Employee ||--o| Badge : "badge (cascade) / employee"

            """))
        let error = #expect(throws: ModelError.self) { try ModelDiagram(model, around: "Nope") }
        #expect(error?.code == .invalidValue)
        #expect(error?.description == "entity 'Nope': no entity 'Nope' in the model")
    }

    @Test("Every corpus model draws every entity in both formats")
    func corpusModels() throws {
        for bundle in try Corpus.modelBundles() {
            let model = try ModelLoader.load(bundle.path).model
            let diagram = try ModelDiagram(model)
            let (mermaid, dot) = (diagram.mermaid(), diagram.dot())
            for entity in model.entities {
                #expect(mermaid.contains("    \(entity.name)"), "\(bundle.lastPathComponent): \(entity.name) missing from the Mermaid text")
                #expect(dot.contains("  \"\(entity.name)\" [label="), "\(bundle.lastPathComponent): \(entity.name) missing from the DOT text")
            }
        }
    }
}
