import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import Testing

/// `model generate --language swiftdata` over every model version of the corpus: the classes written read back
/// (through cdstore's own SwiftData reader) with the model's entity hashes, or the generator names each entity
/// whose hash changes in a loss line that says so.
@Suite struct SwiftDataRoundTripTests {

    /// Every `.xcdatamodel` version folder under the corpus (models, mapping and code-generation bundles).
    static func corpusVersions() throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: Corpus.root, includingPropertiesForKeys: nil) else { return [] }
        var versions: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "xcdatamodel" {
            versions.append(url)
            enumerator.skipDescendants()
        }
        return versions.sorted { $0.path < $1.path }
    }

    /// The entities whose hash differs after the round trip without a loss line saying so, with what differs.
    static func unexplained(_ version: URL) throws -> [String] {
        let loaded = try ModelLoader.load(version.path)
        let code = ModelCodeWriter.generate(loaded.model, source: .init(path: version.lastPathComponent),
                                            options: .init(language: .swiftdata))
        let readBack = try SwiftModelReader.read(code.files.map { ($0.name, $0.text) },
                                                 origin: URL(fileURLWithPath: "Generated.swift"))
        let before = VersionHasher.entityHashes(of: loaded.model), after = VersionHasher.entityHashes(of: readBack.model)
        var problems: [String] = []
        for (entity, hash) in before.sorted(by: { $0.key < $1.key }) where after[entity] != hash {
            let stated = code.losses.contains { $0.hasPrefix("entity '\(entity)'") && $0.contains("the version hash changes") }
            if !stated { problems.append(entity) }
        }
        for entity in after.keys where before[entity] == nil { problems.append("\(entity) (not in the model)") }
        return problems
    }

    @Test func everyCorpusVersionReadsBackWithItsHashesOrStatesTheLoss() throws {
        try Corpus.require()
        let versions = try Self.corpusVersions()
        #expect(versions.count >= 200, "only \(versions.count) model versions found under \(Corpus.root.path)")
        var failures: [String] = []
        for version in versions {
            let name = version.path.replacingOccurrences(of: Corpus.root.path + "/", with: "")
            do {
                let problems = try Self.unexplained(version)
                if !problems.isEmpty { failures.append("\(name): \(problems.joined(separator: ", "))") }
            } catch {
                failures.append("\(name): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) versions:\n\(failures.joined(separator: "\n"))")
    }

    /// A Transformable attribute without a custom class is written `NSObject?` with `.transformable(by:)`, which
    /// SwiftData stores (the class is the value's), and reads back as the same Transformable attribute.
    @Test func aTransformableWithoutCustomClassReadsBack() throws {
        var colour = Attribute(name: "colour", type: .transformable, isOptional: true)
        colour.valueTransformerName = "NSSecureUnarchiveFromData"
        var custom = Attribute(name: "tint", type: .transformable)
        custom.customClassName = "UIColor"
        let model = ManagedObjectModel(entities: [Entity(name: "Swatch", attributes: [colour, custom])])
        let code = ModelCodeWriter.generate(model, source: .init(path: "S.json"), options: .init(language: .swiftdata))
        let readBack = try SwiftModelReader.read(code.files.map { ($0.name, $0.text) }, origin: URL(fileURLWithPath: "S.swift"))
        #expect(VersionHasher.entityHashes(of: readBack.model) == VersionHasher.entityHashes(of: model))
        let swatch = try #require(readBack.model.entity(named: "Swatch"))
        #expect(swatch.attribute(named: "colour")?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(swatch.attribute(named: "tint")?.customClassName == "UIColor")
    }

    /// CartKit's `CDCartItem.modifiers` and `CDCartItemModifier.item` are not inverses in the model, but each is
    /// the only relationship between the two classes, so SwiftData pairs them: the generator says so.
    @Test func relationshipsSwiftDataWouldPairAreStatedAsLosses() throws {
        let version = Corpus.models.appendingPathComponent(
            "Karim-ezzedine__CartKit__CartStorage-48ffe53.xcdatamodeld/CartStorage.xcdatamodel")
        let loaded = try ModelLoader.load(version.path)
        let code = ModelCodeWriter.generate(loaded.model, source: .init(path: "CartStorage"), options: .init(language: .swiftdata))
        #expect(code.losses.contains(
            "entity 'CDCartItem', relationship 'modifiers': no inverse in the model; SwiftData reads the generated class "
            + "with inverse CDCartItemModifier.item (the version hash changes)"))
        #expect(try Self.unexplained(version).isEmpty)
    }
}
