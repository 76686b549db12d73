import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// The sample models shipped in `Schemas/` stay valid, canonical and complete.
@Suite struct SchemasTests {
    @Test func companyJSONIsValidAndCanonical() throws {
        let url = Corpus.schemas.appendingPathComponent("Company.json")
        let loaded = try ModelLoader.load(url.path)
        #expect(loaded.format == .json)
        #expect(ModelValidator.validate(loaded).map(\.description) == [])
        #expect(loaded.model.entities.map(\.name) == ["Company", "Department", "Employee", "Manager", "Badge"])
        // The file is exactly what `cdstore model compile` would write for it.
        #expect(String(decoding: try JSONModelCodec.encode(loaded.model), as: UTF8.self)
                == String(decoding: try Data(contentsOf: url), as: UTF8.self))
        let types = Set(loaded.model.entities.flatMap(\.attributes).map(\.type))
        #expect(types.isSuperset(of: [.string, .integer16, .integer32, .date, .decimal, .boolean, .uuid, .binary]))
    }

    @Test func libraryModelCoversEveryAttributeType() throws {
        let bundle = Corpus.schemas.appendingPathComponent("Library.xcdatamodeld")
        let loaded = try ModelLoader.load(bundle.path)
        #expect(loaded.versionName == "Library")
        #expect(loaded.warnings == [])
        #expect(ModelValidator.validate(loaded).map(\.description) == [])
        #expect(loaded.model.entities.map(\.name) == ["Author", "Book", "Genre"])
        let types = Set(loaded.model.entities.flatMap(\.attributes).map(\.type))
        #expect(types == [.integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
                          .binary, .uuid, .uri, .transformable])

        let json = try JSONModelCodec.encode(loaded.model)
        #expect(try JSONModelCodec.decode(json, file: URL(fileURLWithPath: "Library.json")).model == loaded.model)

        let contents = bundle.appendingPathComponent("Library.xcdatamodel/contents").path
        let oracle = try #require(try OracleHashes.fromXML([contents])[contents])
        #expect(VersionHasher.entityHashes(of: loaded.model).mapValues { Data($0).base64EncodedString() } == oracle)
    }

    /// Every model in `Schemas/` loads without warnings and validates with no issues.
    @Test(arguments: ["Company.json", "People.json", "Library.xcdatamodeld", "Organization.xcdatamodeld",
                      "Staff.xcdatamodeld"])
    func everySampleModelIsValid(name: String) throws {
        let url = Corpus.schemas.appendingPathComponent(name)
        for version in name.hasSuffix(".xcdatamodeld") ? try ModelLoader.versions(ofBundle: url) : [""] {
            let loaded = try ModelLoader.load(url.path, version: version.isEmpty ? nil : version)
            #expect(loaded.warnings == [], "\(name) \(version)")
            #expect(ModelValidator.validate(loaded).map(\.description) == [], "\(name) \(version)")
        }
    }

    /// The example in `Schemas/README.md` is a valid, canonical JSON model.
    @Test func readmeExampleIsValidAndCanonical() throws {
        let readme = try String(contentsOf: Corpus.schemas.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```json\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let example = String(readme[start.upperBound..<end.lowerBound])
        let loaded = try JSONModelCodec.decode(Data(example.utf8), file: URL(fileURLWithPath: "README.md"))
        #expect(ModelValidator.validate(loaded).map(\.description) == [])
        #expect(String(decoding: try JSONModelCodec.encode(loaded.model), as: UTF8.self) == example)
    }
}
