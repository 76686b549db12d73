import CDStoreTestSupport
import Foundation
import Testing

@Suite struct MappingCommandTests {
    static let plus = Corpus.root.appendingPathComponent("mapping/richardpiazza__CoreDataPlus__CoreDataPlusTests/Resources")

    static let compiled = """
        mapping model Model_1_0_to_1_1.cdm_precompiled (cdm), 2 entity mappings
        1. BookToBook: Book → Book (Transform)
           policy: NSEntityMigrationPolicy (default)
           filter: TRUEPREDICATE
           attribute id = $source.id
           attribute isbn = $source.isbn
           attribute published = $source.published
           attribute title = $source.title
           relationship author = FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AuthorToAuthor", $source.author)
           relationship coAuthors = (none)
        2. AuthorToAuthor: Author → Author (Transform)
           policy: NSEntityMigrationPolicy (default)
           filter: TRUEPREDICATE
           attribute id = $source.id
           attribute name = $source.name
           relationship authoredBooks = FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)
           relationship coAuthoredBooks = (none)

        """

    @Test func showPrintsEveryEntityMappingInOrder() throws {
        let result = try CLIRunner.run(["mapping", "show", Self.plus.appendingPathComponent("Model_1_0_to_1_1.cdm_precompiled").path])
        #expect(result.status == 0)
        #expect(result.stdout == Self.compiled)
        // The Xcode form, completed against the model versions beside it, says the same below its heading.
        let xcode = try CLIRunner.run(["mapping", "show", Self.plus.appendingPathComponent("Model_1_0_to_1_1.xcmappingmodel").path])
        #expect(xcode.stdout.split(separator: "\n").dropFirst(3) == Self.compiled.split(separator: "\n").dropFirst())
    }

    @Test func showAsJSONCarriesTheHashesOfTheCompiledForm() throws {
        let result = try CLIRunner.run(["mapping", "show", "--format", "json",
                                        Self.plus.appendingPathComponent("Model_1_0_to_1_1.cdm_precompiled").path])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let mappings = try #require(object["entityMappings"] as? [[String: Any]])
        #expect(mappings.map { $0["name"] as? String } == ["BookToBook", "AuthorToAuthor"])
        #expect(mappings.first?["sourceEntityVersionHash"] as? String == "Ccb6jV4uIbGFcm97WVXvtqsPzvXlt09s41VgZFnNODU=")
    }

    @Test func inferShowsWhatInferenceWouldLoseAgainstTheShippedMapping() throws {
        let result = try CLIRunner.run(["mapping", "infer", "--from", Self.plus.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld").path,
                                        "--to", Self.plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path])
        #expect(result.status == 0)
        // Author.books was renamed authoredBooks without a renaming identifier: inference has no source for it.
        #expect(result.stdout.contains("   relationship authoredBooks = (none)\n"))
        #expect(result.stdout.contains("2. BookToBook: Book → Book (Transform)\n"))
    }

    @Test func aDamagedMappingModelNamesTheFileAndExits1() throws {
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("Bad.cdm")
        try Data("bplist00garbage".utf8).write(to: file)
        let result = try CLIRunner.run(["mapping", "show", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: \(file.path): not a compiled mapping model"))
    }

    @Test func migrateRefusesAPolicyClassWithExit3() throws {
        let store = try temporaryDirectory().appendingPathComponent("names.sqlite").path
        let bundle = Corpus.root.appendingPathComponent("mapping/shakurocom__PoliteCoreData__PoliteCoreDataTests/MigrationTestNames.xcdatamodeld").path
        #expect(try CLIRunner.run(["insert", "CDTest", "identifier=7", "--store", store, "--model", bundle,
                                   "--model-version", "MigrationTestNames_1"]).status == 0)
        let result = try CLIRunner.run(["migrate", "--store", store, "--model", bundle, "--model-version", "MigrationTestNames_2"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("names the migration policy class V1_to_V2_MigrationPolicy"))
        let without = try CLIRunner.run(["migrate", "--store", store, "--model", bundle, "--model-version", "MigrationTestNames_2",
                                         "--without-policies", "--dry-run"])
        #expect(without.status == 0)
        #expect(without.stderr.hasPrefix("warning: entity mapping 'CDTestToCDTest' of MigrationTestNames_v1_to_v2.xcmappingmodel"))
        #expect(without.stdout.contains("  CDTestToCDTest (CDTest → CDTest): 1 taken, 1 created, 0 left behind\n"))
    }

    /// Periphery's mapping adds both entities to a store of an empty model, and names a policy class on an Add
    /// mapping: refused with the store's bytes unchanged, then run without the policy.
    @Test func aPolicyOnAnAddMappingFromAnEmptyModel() throws {
        let corpus = Corpus.root.appendingPathComponent("mapping/peripheryapp__periphery__UIKitProject")
        let store = try temporaryDirectory().appendingPathComponent("old.sqlite").path
        let old = corpus.appendingPathComponent("OldModel.xcdatamodeld").path
        let new = corpus.appendingPathComponent("Model.xcdatamodeld").path
        let mapping = corpus.appendingPathComponent("ModelMapping.xcmappingmodel").path
        #expect(try CLIRunner.run(["seed", "--model", old, "--out", store]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let refused = try CLIRunner.run(["migrate", "--store", store, "--model", new, "--mapping", mapping])
        #expect(refused.status == 3)
        #expect(refused.stderr == "error: cannot run mapping model ModelMapping.xcmappingmodel: it needs the app's custom "
                + "migration code, which cdstore cannot run (Core Data error 134110): entity mapping 'EntityOne' names "
                + "the migration policy class CustomEntityMigrationPolicy (running without policies uses the default "
                + "NSEntityMigrationPolicy instead and leaves those values out); the store is unchanged\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let without = try CLIRunner.run(["migrate", "--store", store, "--model", new, "--mapping", mapping,
                                         "--without-policies", "--no-backup"])
        #expect(without.stderr == "warning: entity mapping 'EntityOne' of ModelMapping.xcmappingmodel: ran the default "
                + "NSEntityMigrationPolicy without policy class CustomEntityMigrationPolicy\n")
        #expect(without.status == 0)
        #expect(try CLIRunner.run(["count", "EntityOne", "--store", store, "--model", new]).stdout == "0\n")
    }

    /// MAGE's other five mapping models (N → 15, N = 2…6), each found beside the model and run in the chain to the
    /// current version; on a version-6 store with data, every object crosses with its values.
    @Test(arguments: 2...6)
    func mageMappingsFromEveryVersionRun(version: Int) throws {
        let bundle = Corpus.root.appendingPathComponent("mapping/ngageoint__mage-ios__sdk/mage-ios-sdk.xcdatamodeld").path
        let store = try temporaryDirectory().appendingPathComponent("v\(version).sqlite").path
        let old = ["--store", store, "--model", bundle, "--model-version", "mage-ios-sdk \(version)"]
        #expect(try CLIRunner.run(["seed", "--model", bundle, "--model-version", "mage-ios-sdk \(version)", "--out", store]).status == 0)
        for n in 1...3 {
            #expect(try CLIRunner.run(["insert", "Layer", "name=L\(n)", "remoteId=\(n)"] + old).status == 0)
        }
        let plan = try CLIRunner.run(["migrate", "--store", store, "--model", bundle, "--dry-run"])
        #expect(plan.status == 0)
        #expect(plan.stdout.hasPrefix("step \"mage-ios-sdk \(version)\" → \"mage-ios-sdk 15\" by mapping model Model\(version)To15.xcmappingmodel"))
        #expect(plan.stdout.contains("  LayerToLayer (Layer → Layer): 3 taken, 3 created, 0 left behind\n"))
        #expect(try CLIRunner.run(["migrate", "--store", store, "--model", bundle, "--no-backup"]).status == 0)
        let layers = try CLIRunner.run(["project", "Layer", "--store", store, "--model", bundle, "--sort", "remoteId",
                                        "--properties", "name,remoteId", "--format", "csv"])
        #expect(layers.stdout == "name,remoteId\nL1,1\nL2,2\nL3,3\n")
    }

    /// PoliteCoreData's v2 → v3 mappings: the ids one changes Integer 64 to String and keeps every object; the
    /// names one calls `$entityPolicy` and is refused naming the selector.
    @Test func politeCoreDataVersion2To3() throws {
        let corpus = Corpus.root.appendingPathComponent("mapping/shakurocom__PoliteCoreData__PoliteCoreDataTests")
        let ids = corpus.appendingPathComponent("MigrationTestIds.xcdatamodeld").path
        let store = try temporaryDirectory().appendingPathComponent("ids.sqlite").path
        #expect(try CLIRunner.run(["seed", "--model", ids, "--model-version", "MigrationTestIds_2", "--out", store]).status == 0)
        for n in [5, 6] {
            #expect(try CLIRunner.run(["insert", "TestEntity", "identifier=\(n)", "--store", store, "--model", ids,
                                       "--model-version", "MigrationTestIds_2"]).status == 0)
        }
        #expect(try CLIRunner.run(["migrate", "--store", store, "--model", ids, "--model-version", "MigrationTestIds_3",
                                   "--no-backup"]).status == 0)
        let rows = try CLIRunner.run(["project", "TestEntity", "--store", store, "--model", ids, "--model-version",
                                      "MigrationTestIds_3", "--properties", "identifier", "--sort", "identifier", "--format", "json"])
        #expect(rows.stdout == "[\n{\"identifier\":\"5\"},\n{\"identifier\":\"6\"}\n]\n")

        let names = corpus.appendingPathComponent("MigrationTestNames.xcdatamodeld").path
        let named = try temporaryDirectory().appendingPathComponent("names.sqlite").path
        #expect(try CLIRunner.run(["seed", "--model", names, "--model-version", "MigrationTestNames_2", "--out", named]).status == 0)
        let refused = try CLIRunner.run(["migrate", "--store", named, "--model", names, "--model-version", "MigrationTestNames_3"])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("entity mapping 'CDTestToCDTest', property 'identifier' calls $entityPolicy \"changeIdentifierType:\""))
    }
}
