import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore model generate --language codable`: the structs for every model under Schemas/ (and the test
/// fixture) are committed in GeneratedRecords/, so this target compiles them against CDStore; these tests check
/// that they are what the generator writes today, and that data goes through them and back unchanged. The
/// corpus models' structs are type-checked with swiftc against the built CDStore module.
///
/// After an intended change to the generator, rewrite the committed files with
///     CDSTORE_RECORD_SNAPSHOTS=1 swift test --skip-build --filter CodableRecordsTests
/// (then build again: the new files must compile).
@Suite("Codable records (generated)")
struct CodableRecordsTests {
    /// Namespace and model path (relative to the package root) of each committed generation.
    static let models: [(namespace: String, path: String)] = [
        ("AppSeed", "Schemas/AppSeed.json"), ("Company", "Schemas/Company.json"), ("People", "Schemas/People.json"),
        ("Library", "Schemas/Library.xcdatamodeld"), ("Organization", "Schemas/Organization.xcdatamodeld"),
        ("Staff", "Schemas/Staff.xcdatamodeld"), ("Fixture", "Tests/Fixtures/Fixture.xcdatamodeld"),
    ]
    static let folder = Corpus.packageRoot.appendingPathComponent("Tests/CDStoreTests/GeneratedRecords")

    static func generate(_ namespace: String, _ path: String) throws -> CodeGenerator.Output {
        CodeGenerator.generate(try ModelFile(contentsOf: Corpus.packageRoot.appendingPathComponent(path).path), language: .codable,
                               namespace: namespace, displayPath: path)
    }

    @Test(arguments: models.map(\.namespace))
    func committedRecordsAreTheGeneratorsOutput(namespace: String) throws {
        let path = try #require(Self.models.first { $0.namespace == namespace }).path
        let output = try Self.generate(namespace, path)
        #expect(output.losses.isEmpty)
        if ProcessInfo.processInfo.environment["CDSTORE_RECORD_SNAPSHOTS"] == "1" {
            try CodeGenerator.write(output, to: Self.folder, replacing: true)
            return
        }
        let committed = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { $0 == "\(namespace).swift" || $0.hasPrefix("\(namespace)+") }
        #expect(Set(committed) == Set(output.files.map(\.name)))
        for file in output.files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(text == file.text, "GeneratedRecords/\(file.name) is not what the generator writes")
        }
    }

    /// Examples/CompanyReport uses the records generated from Schemas/Company.json (at the top level).
    @Test func exampleRecordsAreTheGeneratorsOutput() throws {
        let folder = Corpus.packageRoot.appendingPathComponent("Examples/CompanyReport/Sources/CompanyReport/Records")
        let output = CodeGenerator.generate(try ModelFile(contentsOf: Corpus.schemas.appendingPathComponent("Company.json").path),
                                            language: .codable, displayPath: "Schemas/Company.json")
        if ProcessInfo.processInfo.environment["CDSTORE_RECORD_SNAPSHOTS"] == "1" {
            try CodeGenerator.write(output, to: folder, replacing: true)
            return
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == Set(output.files.map(\.name)))
        for file in output.files {
            #expect(try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8) == file.text, "\(file.name)")
        }
    }

    /// The demo company's whole graph: every object of every entity read as its record, encoded to JSON and back,
    /// and written back into its own object (an upsert by its uniqueness constraint, or a new object) and read
    /// again: the same values.
    @Test func companyRecordsRoundTrip() throws {
        let folder = try temporaryDirectory()
        let store = try CDStore(path: folder.appendingPathComponent("Company.sqlite").path,
                                model: .path(Corpus.schemas.appendingPathComponent("Company.json").path), options: [.create])
        _ = try store.write { ctx in
            try ctx.insert(.file(Corpus.schemas.appendingPathComponent("demo/Company.json")), into: "Company")
        }
        try roundTrip(Company.Company.self, in: store, expecting: 1)
        try roundTrip(Company.Department.self, in: store, expecting: 2)
        try roundTrip(Company.Employee.self, in: store, expecting: 5)
        try roundTrip(Company.Manager.self, in: store, expecting: 1)
        try roundTrip(Company.Badge.self, in: store, expecting: 1)
    }

    private func roundTrip<T: EntityRecord & Codable & Equatable>(_ type: T.Type, in store: CDStore, expecting count: Int,
                                                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let records = try store.read { ctx in try ctx.fetch(T.self) }
        #expect(records.count == count, "\(T.entityName)", sourceLocation: sourceLocation)
        let json = try JSONEncoder().encode(records)
        #expect(try JSONDecoder().decode([T].self, from: json) == records, "\(T.entityName) through JSON", sourceLocation: sourceLocation)
        for record in records {
            let id = try store.write { ctx in try ctx.insert(record, upsert: true) }
            let again = try store.read { ctx in try ctx.fetch(T.self, matching: try Criteria("SELF == %@", id)) }
            var expected = record
            try Self.setObjectID(&expected, id)
            #expect(again == [expected], "\(T.entityName) written back", sourceLocation: sourceLocation)
        }
    }

    /// `record` with its `objectID` replaced (through its Codable form, as the generated structs have no common
    /// protocol for it).
    private static func setObjectID<T: Codable>(_ record: inout T, _ id: ObjectID) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        object["objectID"] = try JSONSerialization.jsonObject(with: JSONEncoder().encode(id), options: .fragmentsAllowed)
        record = try JSONDecoder().decode(T.self, from: try JSONSerialization.data(withJSONObject: object))
    }

    /// Fetching by type alone: the entity name comes from the record type.
    @Test func fetchCountAndInsertByRecordType() throws {
        let fixture = try CompanyFixture()
        let names = try fixture.store.read { ctx in
            try ctx.fetch(Company.Employee.self, matching: try Criteria("age > %@", 30).sorted(by: ["firstName"])).map(\.firstName)
        }
        #expect(names == ["Ann", "Bo", "Chidi"])
        let id = try fixture.store.write { ctx in
            try ctx.insert(Company.Employee(employeeNumber: 9, firstName: "Eve", lastName: "Ng", department: fixture.sales))
        }
        try fixture.store.read { ctx in
            #expect(try ctx.count(Company.Employee.entityName) == 5)
            let eve = try #require(try ctx.fetch(Company.Employee.self, matching: try Criteria("employeeNumber == 9").limit(1)).first)
            #expect(eve.objectID == id && eve.department == fixture.sales && eve.lastName == "Ng")
        }
    }

    /// A record type that is no `EntityRecord` needs the entity named, and nothing is inserted without one.
    @Test func insertingARecordOfNoEntityAsksForInto() throws {
        struct Visitor: Codable { var firstName: String }
        let fixture = try CompanyFixture()
        let error = #expect(throws: CDStoreError.self) {
            try fixture.store.write { ctx in try ctx.insert(Visitor(firstName: "Eve")) }
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.hasSuffix("names no entity: pass into: \"Entity\", or make it an EntityRecord") == true)
        #expect(try fixture.store.read { ctx in try ctx.count("Employee") } == 4)
    }

    /// The corpus models' records (every bundle's current version and the compiled models), type-checked together
    /// against the CDStore module of this build.
    @Test func corpusRecordsTypeCheck() throws {
        try Corpus.require()
        let modules = Corpus.packageRoot.appendingPathComponent(".build/debug/Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("CDStore.swiftmodule").path) else {
            Issue.record("skipped: no CDStore module at \(modules.path) (build with `swift build --build-tests` first)")
            return
        }
        let folder = try temporaryDirectory()
        var models = try Corpus.modelBundles()
        models += try Corpus.compiledModels()
        var files: [String] = []
        for (index, model) in models.enumerated() {
            let output = CodeGenerator.generate(try ModelFile(contentsOf: model.path), language: .codable, namespace: "Model\(index)")
            files += try CodeGenerator.write(output, to: folder).map(\.path)
        }
        #expect(models.count >= 20 && files.count > 100)
        let result = try ProcessRunner.run("/usr/bin/env", ["swiftc", "-typecheck", "-I", modules.path]
            + Self.clangModuleFlags() + files)
        #expect(result.status == 0, "swiftc -typecheck failed:\n\(result.stderr.prefix(4000))")
    }

    /// The C modules CDStore's dependencies import, for a compiler run outside SwiftPM.
    static func clangModuleFlags() -> [String] {
        var flags: [String] = []
        for folder in ["Sources/CZlib", "Sources/CReadline"] {
            flags += ["-Xcc", "-fmodule-map-file=" + Corpus.packageRoot.appendingPathComponent(folder + "/module.modulemap").path]
        }
        let checkouts = Corpus.packageRoot.appendingPathComponent(".build/checkouts")
        if let maps = FileManager.default.enumerator(atPath: checkouts.path) {
            for case let path as String in maps where path.hasSuffix("module.modulemap") && (path.contains("GRDBSQLite") || path.contains("_SwiftSyntaxCShims")) {
                flags += ["-Xcc", "-fmodule-map-file=" + checkouts.appendingPathComponent(path).path]
            }
        }
        return flags
    }
}
