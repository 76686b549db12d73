import CDStoreModel
import CDStoreSQLite
import CDStoreTestSupport
import Foundation
import Testing

/// Every model cdstore knows, for round trips: every version of every corpus bundle, `Schemas/` (bundles,
/// every version, and JSON models) and the test fixtures.
enum ArchiverModels {
    static func all() throws -> [(name: String, loaded: LoadedModel)] {
        var result: [(String, LoadedModel)] = []
        for version in try Corpus.allModelVersions() {
            result.append((version.deletingLastPathComponent().lastPathComponent + "/" + version.lastPathComponent,
                           try ModelLoader.load(version.path)))
        }
        for folder in [Corpus.schemas, Fixtures.root] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let url = folder.appendingPathComponent(name)
                if url.pathExtension == "json" {
                    result.append((name, try ModelLoader.load(url.path)))
                } else if url.pathExtension == "xcdatamodeld" {
                    for version in try Corpus.versions(of: url) {
                        result.append((name + "/" + version.lastPathComponent, try ModelLoader.load(version.path)))
                    }
                }
            }
        }
        return result
    }
}

/// ``ModelArchiver``: the model cache cdstore writes decodes, with cdstore's own decoder, to the model it was
/// written from, and looks like the caches Apple writes.
@Suite(.serialized) struct ModelArchiverTests {
    init() {
        VersionHasher.derivationFormatter = { foundationFormat($0, false) }
    }

    /// The woocommerce versions whose `Site.visibility` (Integer 64) has the default "NO".
    var woocommerceVersions: [String] {
        let bundle = Corpus.models.appendingPathComponent("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld")
        return ((try? Corpus.versions(of: bundle)) ?? []).map { $0.deletingPathExtension().lastPathComponent }.filter { name in
            let contents = bundle.appendingPathComponent(name + ".xcdatamodel/contents")
            let xml = (try? String(contentsOf: contents, encoding: .utf8)) ?? ""
            return xml.contains(#"name="visibility" attributeType="Integer 64" defaultValueString="NO""#)
        }
    }

    static func roundTrip(_ model: ManagedObjectModel) throws -> (LoadedModel, ModelCacheEncoder.Result) {
        let encoded = try ModelCacheEncoder.encode(model, predicates: PredicateArchiver())
        return (try ModelCacheDecoder.decode(encoded.data), encoded)
    }

    /// The archive of every model decodes to the same model: equal entity version hashes, and equal in the
    /// comparison form momc's output is checked in (``ModelComparison``: order, defaults as numbers, predicates
    /// in Foundation's form), with no decoder warnings.
    @Test func everyModelRoundTrips() throws {
        let models = try ArchiverModels.all()
        #expect(models.count == CorpusModelTests.versionCount + 10)
        var archiverWarnings: [String] = []
        for (name, loaded) in models {
            let (decoded, encoded) = try Self.roundTrip(loaded.model)
            archiverWarnings += encoded.warnings.map { "\(name): \($0)" }
            #expect(decoded.warnings == [], "\(name)")
            #expect(base64Hashes(VersionHasher.entityHashes(of: decoded.model))
                    == base64Hashes(VersionHasher.entityHashes(of: loaded.model)), "\(name)")
            let differences = modelDifferences(decoded.model, Self.comparable(loaded.model, warnings: encoded.warnings))
            #expect(differences.isEmpty, "\(name):\n\(differences.joined(separator: "\n"))")
        }
        // Defaults that are not values of their attribute's type (real corpus models) are left out, with a warning.
        var expected: [String] = [
            "moonlight-stream__moonlight-ios__Limelight.xcdatamodeld/Moonlight v1.10.xcdatamodel: entity 'Settings', "
                + "attribute 'preferredCodec': default value 'YES' of a Integer 32 attribute is not kept in the model cache",
            "nightscout__Trio__TrioCoreDataPersistentContainer.xcdatamodeld/TrioCoreDataPersistentContainer.xcdatamodel: "
                + "entity 'TempTargetRunStored', attribute 'id': default value 'empy' of a UUID attribute is not kept in the "
                + "model cache",
        ]
        for version in woocommerceVersions {
            expected.append("woocommerce__woocommerce-ios__WooCommerce.xcdatamodeld/\(version).xcdatamodel: entity 'Site', "
                            + "attribute 'visibility': default value 'NO' of a Integer 64 attribute is not kept in the model cache")
        }
        #expect(woocommerceVersions.count == 6)
        #expect(archiverWarnings == expected)
    }

    /// What the cache does not hold, taken out of the source model before comparing (see ``ModelArchiver``):
    /// Spotlight display names, composite type names, configurations' CloudKit flag and the defaults the archiver
    /// warned about. A Boolean default is an NSNumber in the archive, read back as YES/NO.
    static func comparable(_ model: ManagedObjectModel, warnings: [String] = []) -> ManagedObjectModel {
        var m = model
        m.entities = m.entities.map { e in
            var e = e
            e.spotlightDisplayNameExpression = nil
            e.attributes = e.attributes.map { a in
                var a = a
                a.compositeName = nil
                if warnings.contains(where: { $0.hasPrefix("entity '\(e.name)', attribute '\(a.name)': default value") }) {
                    a.defaultValue = nil
                }
                if a.type == .boolean, let text = a.defaultValue {
                    a.defaultValue = ["YES", "TRUE"].contains(text.uppercased()) || (Double(text) ?? 0) != 0 ? "YES" : "NO"
                }
                return a
            }
            return e
        }
        m.configurations = m.configurations.map { c in
            var c = c
            c.usedWithCloudKit = false
            return c
        }
        return m
    }
}
