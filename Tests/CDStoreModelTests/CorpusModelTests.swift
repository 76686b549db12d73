import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Every version of every real model in `../shared/corpus/models`: it loads, validates without errors,
/// and survives a trip through the JSON model unchanged.
@Suite struct CorpusModelTests {
    static let versionCount = 266

    @Test func everyVersionLoadsValidatesAndRoundTrips() throws {
        let versions = try Corpus.allModelVersions()
        #expect(try Corpus.modelBundles().count == 22)
        #expect(versions.count == Self.versionCount)
        var warnings: [String: Int] = [:], errorCount = 0
        for version in versions {
            let loaded = try ModelLoader.load(version.path)
            let issues = ModelValidator.validate(loaded)
            let errors = issues.filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
            for issue in issues where issue.severity == .warning { warnings[issue.rule.rawValue, default: 0] += 1 }
            errorCount += errors.count

            let json = try JSONModelCodec.encode(loaded.model)
            let back = try JSONModelCodec.decode(json, file: URL(fileURLWithPath: "/tmp/roundtrip.json"))
            #expect(back.model == loaded.model, "\(version.path) changed through JSON")
            // Canonical: writing the decoded model gives the same bytes.
            #expect(try JSONModelCodec.encode(back.model) == json)
        }
        print("CorpusModelTests: \(versions.count) versions loaded, validated with \(errorCount) errors (warnings by rule: \(warnings.sorted { $0.key < $1.key })) "
              + "and round-tripped through JSON")
    }

    /// The loader's counts agree with a plain scan of the XML, for a spread of models.
    @Test(arguments: [
        "JohanDegraeve__xdripswift__xdrip.xcdatamodeld/xdrip v16.xcdatamodel",
        "SwiftGen__SwiftGen__Model.xcdatamodeld/Model 2.xcdatamodel",
        "artsy__energy__ArtsyPartner.xcdatamodeld/ArtsyFolio v2.7.0.xcdatamodel",
        "nightscout__Trio__TrioCoreDataPersistentContainer.xcdatamodeld/TrioCoreDataPersistentContainer.xcdatamodel",
        "brave__brave-ios__Model.xcdatamodeld/Model27.xcdatamodel",
        "project-imas__encrypted-core-data__SubEntitiesModel.xcdatamodeld/SubEntitiesModel.xcdatamodel",
        "woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld",
    ])
    func countsMatchXMLScan(_ path: String) throws {
        var url = Corpus.models.appendingPathComponent(path)
        let loaded = try ModelLoader.load(url.path)
        if url.pathExtension == "xcdatamodeld" {
            url = url.appendingPathComponent(try #require(loaded.versionName) + ".xcdatamodel")
        }
        let xml = try String(contentsOf: url.appendingPathComponent("contents"), encoding: .utf8)
        let model = loaded.model
        #expect(model.entities.count == countElements("entity", in: xml))
        #expect(model.entities.map(\.attributes.count).reduce(0, +) == countElements("attribute", in: xml))
        #expect(model.entities.map(\.relationships.count).reduce(0, +) == countElements("relationship", in: xml))
    }

    /// Hard-coded counts (entities, attributes, relationships) from the corpus README for current versions.
    @Test(arguments: [
        ("JohanDegraeve__xdripswift__xdrip.xcdatamodeld", 17, 95, 26),
        ("artsy__energy__ArtsyPartner.xcdatamodeld", 21, 169, 55),
        ("nightscout__Trio__TrioCoreDataPersistentContainer.xcdatamodeld", 19, 156, 12),
    ])
    func pinnedCounts(_ bundle: String, entities: Int, attributes: Int, relationships: Int) throws {
        let model = try ModelLoader.load(Corpus.models.appendingPathComponent(bundle).path).model
        #expect(model.entities.count == entities)
        #expect(model.entities.map(\.attributes.count).reduce(0, +) == attributes)
        #expect(model.entities.map(\.relationships.count).reduce(0, +) == relationships)
    }

    /// Counts `<name ` and `<name/>`/`<name>` start tags, independently of the loader's XML parser.
    func countElements(_ name: String, in xml: String) -> Int {
        var count = 0
        var rest = Substring(xml)
        while let range = rest.range(of: "<" + name) {
            rest = rest[range.upperBound...]
            if let next = rest.first, next == " " || next == ">" || next == "/" || next == "\n" || next == "\t" {
                count += 1
            }
        }
        return count
    }
}
