import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// Mapping models given by path (`--mapping`) are matched to hops exactly as those found beside the model: by the
/// entity hashes of the versions they name, wherever they sit; one that matches no hop is left alone with a note.
@Suite struct MappingGivenByPathTests {
    static let polite = Corpus.root.appendingPathComponent("mapping/shakurocom__PoliteCoreData__PoliteCoreDataTests")
    static let mage = Corpus.root.appendingPathComponent("mapping/ngageoint__mage-ios__sdk")

    let folder: URL

    init() throws {
        try Corpus.require()
        folder = try temporaryDirectory()
    }

    /// `bundle` copied alone into `name/` (discovery finds nothing beside it), and the mapping models copied alone
    /// into `mappings/` (nothing they name is beside them); returns the copied bundle and mapping models.
    func separate(bundle: URL, mappings: [URL], name: String) throws -> (bundle: URL, mappings: [String]) {
        let modelFolder = folder.appendingPathComponent(name)
        let mappingFolder = folder.appendingPathComponent(name + "-mappings")
        for made in [modelFolder, mappingFolder] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        let copy = modelFolder.appendingPathComponent(bundle.lastPathComponent)
        try FileManager.default.copyItem(at: bundle, to: copy)
        var given: [String] = []
        for mapping in mappings {
            let target = mappingFolder.appendingPathComponent(mapping.lastPathComponent)
            try FileManager.default.copyItem(at: mapping, to: target)
            given.append(target.path)
        }
        return (copy, given)
    }

    func store(_ name: String, bundle: URL, version: String, _ fill: (CDStore.Context) throws -> Void) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let store = try CDStore(path: path, model: .path(bundle.path, version: version), options: [.create])
        try store.write { ctx throws in try fill(ctx) }
        return path
    }

    /// PoliteCoreData: a MigrationTestNames_2 store to _3 runs v2_to_v3 (its $entityPolicy call refused, or run
    /// with the default policy), found beside the bundle or given by path alike; v1_to_v2 is for another hop.
    @Test func politeCoreDataGivenMappingsPlanAsDiscoveryDoes() throws {
        let bundle = Self.polite.appendingPathComponent("MigrationTestNames.xcdatamodeld")
        let mappings = ["MigrationTestNames_v1_to_v2", "MigrationTestNames_v2_to_v3"]
            .map { Self.polite.appendingPathComponent($0 + ".xcmappingmodel") }
        let alone = try separate(bundle: bundle, mappings: mappings, name: "Names")
        func namesStore(_ name: String, bundle: URL) throws -> String {
            try store(name, bundle: bundle, version: "MigrationTestNames_2") { ctx in
                _ = try ctx.insert("CDTest", ["identifier": 7])
            }
        }
        let discovered = try namesStore("Discovered.sqlite", bundle: bundle)
        let given = try namesStore("Given.sqlite", bundle: alone.bundle)
        let discoveredError = #expect(throws: CDStoreError.self) {
            try CDStore.migrate(storeAt: discovered, to: .path(bundle.path, version: "MigrationTestNames_3"), dryRun: true)
        }
        let givenError = #expect(throws: CDStoreError.self) {
            try CDStore.migrate(storeAt: given, to: .path(alone.bundle.path, version: "MigrationTestNames_3"),
                                mappingModels: alone.mappings, dryRun: true)
        }
        #expect(discoveredError?.message.contains("cannot run mapping model MigrationTestNames_v2_to_v3.xcmappingmodel") == true)
        #expect(givenError?.message == discoveredError?.message)
        let discoveredPlan = try CDStore.migrate(storeAt: discovered, to: .path(bundle.path, version: "MigrationTestNames_3"),
                                                 dryRun: true, withoutPolicies: true)
        let givenPlan = try CDStore.migrate(storeAt: given, to: .path(alone.bundle.path, version: "MigrationTestNames_3"),
                                            mappingModels: alone.mappings, dryRun: true, withoutPolicies: true)
        #expect(discoveredPlan.summary.first?.hasPrefix(
            "step \"MigrationTestNames_2\" → \"MigrationTestNames_3\" by mapping model MigrationTestNames_v2_to_v3.xcmappingmodel:") == true)
        #expect(givenPlan.summary == discoveredPlan.summary)
        #expect(givenPlan.warnings.contains(
            "the mapping model MigrationTestNames_v1_to_v2.xcmappingmodel was not used: its source and destination entity "
            + "hashes match no hop of the migration from \"MigrationTestNames_2\""))
    }

    /// Mapping models given for other hops are left alone: MigrationTestNames → _1 (an attribute removed) is
    /// inferred, with a note for each, although both name the same entity as that hop.
    @Test func givenMappingsForOtherHopsAreLeftAloneWithANote() throws {
        let bundle = Self.polite.appendingPathComponent("MigrationTestNames.xcdatamodeld")
        let mappings = ["MigrationTestNames_v1_to_v2", "MigrationTestNames_v2_to_v3"]
            .map { Self.polite.appendingPathComponent($0 + ".xcmappingmodel") }
        let alone = try separate(bundle: bundle, mappings: mappings, name: "First")
        let path = try store("First.sqlite", bundle: alone.bundle, version: "MigrationTestNames") { ctx in
            _ = try ctx.insert("CDTest", ["identifier": "7", "field": 3])
        }
        let plan = try CDStore.migrate(storeAt: path, to: .path(alone.bundle.path, version: "MigrationTestNames_1"),
                                       mappingModels: alone.mappings, backup: false)
        #expect(plan.summary.first?.hasPrefix("step \"MigrationTestNames\" → \"MigrationTestNames_1\" (inferred):") == true)
        #expect(plan.warnings == ["MigrationTestNames_v1_to_v2", "MigrationTestNames_v2_to_v3"].map {
            "the mapping model \($0).xcmappingmodel was not used: its source and destination entity hashes match no hop of "
                + "the migration from \"MigrationTestNames\""
        })
        let store = try CDStore(path: path, model: .path(alone.bundle.path, version: "MigrationTestNames_1"), options: [.readOnly])
        #expect(try store.read { try $0.fetch("CDTest").map { $0.string("identifier") } } == ["7"])
    }

    /// MAGE's six mapping models (versions 1…6 → 15): given by path, every version migrates by the same plan as
    /// with the files beside the bundle.
    @Test func mageSixHopsGivenByPathPlanAsDiscoveryDoes() throws {
        let bundle = Self.mage.appendingPathComponent("mage-ios-sdk.xcdatamodeld")
        let mappings = (1...6).map { Self.mage.appendingPathComponent("Model\($0)To15.xcmappingmodel") }
        let alone = try separate(bundle: bundle, mappings: mappings, name: "Mage")
        let versions = ["mage-ios-sdk"] + (2...6).map { "mage-ios-sdk \($0)" }
        for (index, version) in versions.enumerated() {
            func mageStore(_ name: String, bundle: URL) throws -> String {
                try store(name, bundle: bundle, version: version) { ctx in
                    _ = try ctx.insert("Layer", ["name": "L1", "remoteId": 3, "type": "Feature", "loaded": true])
                }
            }
            let discovered = try CDStore.migrate(storeAt: try mageStore("D\(index).sqlite", bundle: bundle),
                                                 to: .path(bundle.path, version: "mage-ios-sdk 15"), dryRun: true)
            let given = try CDStore.migrate(storeAt: try mageStore("G\(index).sqlite", bundle: alone.bundle),
                                            to: .path(alone.bundle.path, version: "mage-ios-sdk 15"),
                                            mappingModels: alone.mappings, dryRun: true)
            #expect(discovered.summary.first?.hasPrefix("step \"\(version)\" → \"mage-ios-sdk 15\" by mapping model Model\(index + 1)To15.xcmappingmodel:") == true,
                    "\(version): \(discovered.summary.first ?? "")")
            #expect(given.summary == discovered.summary, "\(version)")
            #expect(given.warnings.count == 5, "\(version): \(given.warnings)")
        }
    }
}
