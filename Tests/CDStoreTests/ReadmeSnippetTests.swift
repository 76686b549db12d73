import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// The README's library snippets, compiled and run: the same code as its "Library" section, which a test checks
/// word for word.
@Suite struct ReadmeSnippetTests {
    @Test func snippetsRun() throws {
        let folder = try temporaryDirectory()
        let path = folder.appendingPathComponent("Company.sqlite").path
        let store = try CDStore(path: path, model: .path(Corpus.schemas.appendingPathComponent("Company.json").path),
                                options: [.create])

        // README snippet 2
        let rnd = try store.write { ctx in
            let acme = try ctx.insert("Company", ["id": UUID(), "name": "Acme"])
            let rnd = try ctx.insert("Department", ["name": "R&D", "company": acme])
            try ctx.insert("Employee", ["employeeNumber": 1, "firstName": "Ann", "lastName": "Moreau", "age": 34,
                                        "salary": 72_000, "department": rnd])
            return rnd
        }
        try store.read { ctx in
            let criteria = try Criteria("age >= %@ AND department.name == %@", 30, "R&D").sorted(by: ["-salary"])
            for e in try ctx.fetch("Employee", matching: criteria) {
                print(e.get("firstName", as: String.self)!, e.get("age", as: Int.self)!, e.related("department") == rnd)   // Ann 34 true
            }
        }
        // end

        // README snippet 3
        struct Employee: Codable {
            var employeeNumber: Int
            var firstName: String
            var lastName: String
            var age: Int?
            var department: ObjectID?
        }
        try store.write { ctx in
            try ctx.insert(Employee(employeeNumber: 2, firstName: "Bo", lastName: "Li", age: 41, department: rnd), into: "Employee")
        }
        let seniors = try store.read { ctx in
            try ctx.fetch(Employee.self, from: "Employee", matching: .greaterThanOrEqual("age", 40) && .equal("department.name", "R&D"))
        }
        do {
            try store.write { ctx in try ctx.insert("Employee", ["employeeNumber": 2, "firstName": "Cy", "lastName": "Dup"]) }
        } catch let error as CDStoreError where error.code == .constraintViolation {
            print(error.coreDataCode!, error.entity!)   // 133021 Employee
        }
        // end

        #expect(seniors.map(\.firstName) == ["Bo"])
        #expect(try store.read { try $0.count("Employee") } == 2)
    }

    @Test func readmeHasTheSameCode() throws {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Library\n").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let blocks = section.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(blocks.count == 3)
        #expect(blocks.first?.contains("let store = try CDStore(path: \"Company.sqlite\", model: \"Schemas/Company.json\", options: [.create])") == true)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let snippets = source.components(separatedBy: "// README snippet ").dropFirst().map { part in
            part.components(separatedBy: "// end")[0].split(separator: "\n").dropFirst().map(Self.flush).joined(separator: "\n")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for block in blocks.dropFirst() {
            let flushed = block.split(separator: "\n").map(Self.flush).joined(separator: "\n")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(snippets.contains(flushed), "README block not in this file:\n\(block)")
        }
    }

    /// A line without its indentation (the snippets are indented in the test, not in the README).
    private static func flush(_ line: Substring) -> String {
        String(line.drop { $0 == " " })
    }
}
