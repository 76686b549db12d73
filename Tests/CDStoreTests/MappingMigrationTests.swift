import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// Heavyweight migration: source-version stores made with cdstore, migrated with the corpus' mapping
/// models, every object and value checked on the other side.
@Suite struct MappingMigrationTests {
    static let mapping = Corpus.root.appendingPathComponent("mapping")
    static let plus = mapping.appendingPathComponent("richardpiazza__CoreDataPlus__CoreDataPlusTests/Resources")
    static let polite = mapping.appendingPathComponent("shakurocom__PoliteCoreData__PoliteCoreDataTests")
    static let mage = mapping.appendingPathComponent("ngageoint__mage-ios__sdk")

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdstore-mapping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A CoreDataPlus 1.0 store: Ann wrote One and Two, Bo wrote nothing.
    func booksStore(model: URL) throws -> String {
        let path = folder.appendingPathComponent("Books.sqlite").path
        let store = try CDStore(path: path, model: .path(model.path), options: [.create])
        try store.write { ctx throws in
            let ann = try ctx.insert("Author", ["id": UUID(uuidString: "11111111-1111-1111-1111-111111111111")!, "name": "Ann"])
            _ = try ctx.insert("Author", ["id": UUID(uuidString: "44444444-4444-4444-4444-444444444444")!, "name": "Bo"])
            _ = try ctx.insert("Book", ["id": UUID(uuidString: "22222222-2222-2222-2222-222222222222")!, "title": "One", "isbn": "123",
                                        "published": Date(timeIntervalSinceReferenceDate: 600_000_000), "author": ann])
            _ = try ctx.insert("Book", ["id": UUID(uuidString: "33333333-3333-3333-3333-333333333333")!, "title": "Two", "author": ann])
        }
        return path
    }

    func checkBooks(_ path: String, model: URL) throws {
        let store = try CDStore(path: path, model: .path(model.path), options: [.readOnly])
        try store.read { ctx throws in
            let books = try ctx.fetch("Book").sorted { ($0.string("title") ?? "") < ($1.string("title") ?? "") }
            let authors = try ctx.fetch("Author").sorted { ($0.string("name") ?? "") < ($1.string("name") ?? "") }
            #expect(books.map { $0.string("title") } == ["One", "Two"])
            #expect(books.map { $0.string("isbn") } == ["123", nil])
            #expect(books.map { $0.date("published") } == [Date(timeIntervalSinceReferenceDate: 600_000_000), nil])
            #expect(books.map { $0["id"]?.description } == ["\"22222222-2222-2222-2222-222222222222\"", "\"33333333-3333-3333-3333-333333333333\""])
            #expect(authors.map { $0.string("name") } == ["Ann", "Bo"])
            // Author.books became authoredBooks without a renaming identifier: inference would drop the links, the
            // mapping model keeps them.
            #expect(books.map { $0.related("author") } == [authors[0].objectID, authors[0].objectID])
            #expect(Set(authors[0].relatedMany("authoredBooks")) == Set(books.map(\.objectID)))
            #expect(authors[1].relatedMany("authoredBooks").isEmpty)
            #expect(books.allSatisfy { $0.relatedMany("coAuthors").isEmpty })
        }
    }

    @Test func theMappingModelBesideTheModelKeepsWhatInferenceWouldDrop() throws {
        let path = try booksStore(model: Self.plus.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld"))
        let dry = try CDStore.migrate(storeAt: path, to: .path(Self.plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path),
                                      dryRun: true)
        #expect(dry.isDryRun && dry.warnings.isEmpty)
        #expect(Array(dry.summary.prefix(3)) == [
            "step the model in Z_MODELCACHE [\"\"] → \"Model\" by mapping model Model_1_0_to_1_1.xcmappingmodel: 5 changes, 6 SQL statements",
            "  BookToBook (Book → Book): 2 taken, 2 created, 0 left behind",
            "  AuthorToAuthor (Author → Author): 2 taken, 2 created, 0 left behind",
        ])
        let plan = try CDStore.migrate(storeAt: path, to: .path(Self.plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path))
        #expect(plan.summary == dry.summary)
        #expect(plan.backupPath != nil)
        try checkBooks(path, model: Self.plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld"))
    }

    /// The mapping model beside the model, given by path as well (relative to the working directory, as a shell
    /// passes it): one mapping model, used, and no note that it was not.
    @Test func theMappingModelBesideTheModelGivenByPathToo() throws {
        let path = try booksStore(model: Self.plus.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld"))
        let mappingModel = Self.plus.appendingPathComponent("Model_1_0_to_1_1.xcmappingmodel").path
        let relative = String(repeating: "../", count: FileManager.default.currentDirectoryPath.split(separator: "/").count)
            + mappingModel.dropFirst()
        #expect(FileManager.default.fileExists(atPath: relative))
        let dry = try CDStore.migrate(storeAt: path, to: .path(Self.plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path),
                                      mappingModels: [relative, mappingModel], dryRun: true)
        #expect(dry.warnings.isEmpty)
        #expect(dry.steps.map(\.mappingModel) == [mappingModel])
    }

    /// A source filter (`sourcefilterpredicatestring`, here added to CoreDataPlus's own mapping) keeps the objects it
    /// accepts; the plan counts the one it rejects as left behind, and that object is gone after the migration.
    @Test func aSourceFilterLeavesTheRejectedObjectsBehind() throws {
        let copy = folder.appendingPathComponent("Filtered")
        try FileManager.default.copyItem(at: Self.plus, to: copy)
        try FileManager.default.removeItem(at: copy.appendingPathComponent("Model_1_0_to_1_1.cdm_precompiled"))
        let mappingFile = copy.appendingPathComponent("Model_1_0_to_1_1.xcmappingmodel/xcmapping.xml")
        let original = try String(contentsOf: mappingFile, encoding: .utf8)
        let bookMapping = #"<attribute name="sourcename" type="string">Book</attribute>"#
        #expect(original.contains(bookMapping))
        try original.replacingOccurrences(of: bookMapping, with: bookMapping
            + #"<attribute name="sourcefilterpredicatestring" type="string">title == &quot;One&quot;</attribute>"#)
            .write(to: mappingFile, atomically: true, encoding: .utf8)
        let path = try booksStore(model: copy.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld"))
        let target = CDStore.Model.path(copy.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path)
        let plan = try CDStore.migrate(storeAt: path, to: target, dryRun: true)
        #expect(plan.summary.contains("  BookToBook (Book → Book): 1 taken, 1 created, 1 left behind"))
        _ = try CDStore.migrate(storeAt: path, to: target)
        let store = try CDStore(path: path, model: target, options: [.readOnly])
        #expect(try store.read { try $0.fetch("Book").map { $0.string("title") } } == ["One"])
    }

    @Test func theCompiledMappingModelGivenWithItsPathDoesTheSame() throws {
        // The bundles alone in a folder: only the .cdm given can map the hop.
        for name in ["CoreDataPlus_1.0.xcdatamodeld", "CoreDataPlus_1.1.xcdatamodeld"] {
            try FileManager.default.copyItem(at: Self.plus.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let path = try booksStore(model: folder.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld"))
        let plan = try CDStore.migrate(storeAt: path, to: .path(folder.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path),
                                       mappingModels: [Self.plus.appendingPathComponent("Model_1_0_to_1_1.cdm_precompiled").path],
                                                      backup: false)
        #expect(plan.summary.first?.contains("by mapping model Model_1_0_to_1_1.cdm_precompiled") == true)
        try checkBooks(path, model: folder.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld"))
    }

    /// A PoliteCoreData MigrationTestNames_1 store copied while open, so that its -wal and -shm hold data.
    func walStore() throws -> String {
        let original = folder.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: original, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("Names.sqlite").path
        let store = try CDStore(path: original.appendingPathComponent("Names.sqlite").path,
                                model: .path(Self.polite.appendingPathComponent("MigrationTestNames.xcdatamodeld").path,
                                             version: "MigrationTestNames_1"), options: [.create])
        // A new store's first write goes to the database file itself (a rollback journal): the objects are written
        // in the second, which leaves them in the WAL.
        try store.write { _ throws in }
        try store.write { ctx throws in
            _ = try ctx.insert("CDTest", ["identifier": "7"])
            _ = try ctx.insert("CDTest", ["identifier": "12"])
        }
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: original.appendingPathComponent("Names.sqlite").path + suffix, toPath: copy + suffix)
        }
        _ = store
        return copy
    }

    func contents(_ path: String) -> [Data?] {
        ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: path + $0) }
    }

    @Test func aPolicyClassIsRefusedAndEveryFileLeftByteForByte() throws {
        let path = try walStore()
        let before = contents(path)
        #expect(!before.contains(nil))
        #expect((before[1]?.count ?? 0) > 0)
        let error = #expect(throws: CDStoreError.self) {
            try CDStore.migrate(storeAt: path, to: .path(Self.polite.appendingPathComponent("MigrationTestNames.xcdatamodeld").path,
                                                         version: "MigrationTestNames_2"))
        }
        #expect(error?.code == .modelMismatch)
        #expect(error?.message == "cannot run mapping model MigrationTestNames_v1_to_v2.xcmappingmodel: it needs the app's custom "
                + "migration code, which cdstore cannot run (Core Data error 134110): entity mapping 'CDTestToCDTest' names the "
                + "migration policy class V1_to_V2_MigrationPolicy; entity mapping 'CDTestToCDTest', property 'identifier' calls "
                + "$entityPolicy \"changeIdentifierType:\" (running without policies uses the default NSEntityMigrationPolicy instead and "
                + "leaves those values out); the store is unchanged")
        #expect(contents(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup") }.isEmpty)
    }

    @Test func withoutPoliciesRunsTheDefaultPolicyAndWarnsOncePerMapping() throws {
        let path = try walStore()
        let model = CDStore.Model.path(Self.polite.appendingPathComponent("MigrationTestNames.xcdatamodeld").path, version: "MigrationTestNames_2")
        let plan = try CDStore.migrate(storeAt: path, to: model, withoutPolicies: true, backup: false)
        #expect(plan.warnings == ["entity mapping 'CDTestToCDTest' of MigrationTestNames_v1_to_v2.xcmappingmodel: ran the default "
                                  + "NSEntityMigrationPolicy without policy class V1_to_V2_MigrationPolicy, $entityPolicy "
                                  + "\"changeIdentifierType:\" for 'identifier'"])
        let store = try CDStore(path: path, model: model, options: [.readOnly])
        try store.read { ctx throws in
            let objects = try ctx.fetch("CDTest")
            #expect(objects.count == 2)
            // The default policy leaves the value out: the new objects get the attribute's default, 0.
            #expect(objects.map { $0.int64("identifier") } == [0, 0])
        }
    }

    @Test func aPlainMappingConvertsTheChangedType() throws {
        let path = folder.appendingPathComponent("Ids.sqlite").path
        let bundle = Self.polite.appendingPathComponent("MigrationTestIds.xcdatamodeld").path
        do {
            let store = try CDStore(path: path, model: .path(bundle, version: "MigrationTestIds_1"), options: [.create])
            try store.write { ctx throws in
                _ = try ctx.insert("TestEntity", ["identifier": "7"])
                _ = try ctx.insert("TestEntity", ["identifier": "12"])
            }
        }
        let plan = try CDStore.migrate(storeAt: path, to: .path(bundle, version: "MigrationTestIds_2"), backup: false)
        #expect(plan.summary.first?.contains("by mapping model Model_v1_to_v2_ids.xcmappingmodel") == true)
        let store = try CDStore(path: path, model: .path(bundle, version: "MigrationTestIds_2"), options: [.readOnly])
        try store.read { ctx throws in
            #expect(try ctx.fetch("TestEntity").map { $0.int64("identifier") }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [7, 12])
        }
    }

    /// MAGE version 1 → 22: Model1To15 maps the first hop (dropping Location, which it leaves out), inference the
    /// rest; the dry run says so per hop.
    @Test func aChainMixesAMappedHopWithInferredOnes() throws {
        let path = folder.appendingPathComponent("Mage.sqlite").path
        let bundle = Self.mage.appendingPathComponent("mage-ios-sdk.xcdatamodeld").path
        do {
            let store = try CDStore(path: path, model: .path(bundle, version: "mage-ios-sdk"), options: [.create])
            try store.write { ctx throws in
                _ = try ctx.insert("Layer", ["name": "L1", "remoteId": 3, "type": "Feature", "loaded": true])
                _ = try ctx.insert("Observation", ["deviceId": "d1", "dirty": false, "remoteId": "o1", "state": 1,
                                                   "timestamp": Date(timeIntervalSinceReferenceDate: 610_000_000)])
                _ = try ctx.insert("Location", ["remoteId": "loc1", "type": "Feature"])
            }
        }
        let plan = try CDStore.migrate(storeAt: path, to: .path(bundle), backup: false)
        let steps = plan.summary.filter { $0.hasPrefix("step ") }
        #expect(steps.count == 2)
        #expect(steps.first?.hasPrefix("step \"mage-ios-sdk\" → \"mage-ios-sdk 15\" by mapping model Model1To15.xcmappingmodel:") == true)
        #expect(steps.last?.hasPrefix("step \"mage-ios-sdk 15\" → \"mage-ios-sdk 22\" (inferred):") == true)
        #expect(plan.summary.contains("  !! Location: 1 objects dropped — no entity mapping takes them"))
        #expect(plan.summary.contains("  LayerToLayer (Layer → Layer): 1 taken, 1 created, 0 left behind"))
        let store = try CDStore(path: path, model: .path(bundle), options: [.readOnly])
        try store.read { ctx throws in
            let layers = try ctx.fetch("Layer")
            #expect(layers.map { $0.string("name") } == ["L1"])
            #expect(layers.map { $0.int64("remoteId") } == [3])
            let observations = try ctx.fetch("Observation")
            #expect(observations.map { $0.string("remoteId") } == ["o1"])
            #expect(observations.map { $0.date("timestamp") } == [Date(timeIntervalSinceReferenceDate: 610_000_000)])
            #expect(try ctx.count("Location") == 0)
        }
    }
}

/// Mapping models as values (`mapping show` and `mapping infer` print them).
@Suite struct MappingModelValueTests {
    @Test func aShippedMappingModelReadsAsEntityMappingsWithTheirExpressions() throws {
        let mapping = try MappingModel(contentsOf: MappingMigrationTests.plus.appendingPathComponent("Model_1_0_to_1_1.xcmappingmodel").path)
        #expect(mapping.format == .xcmapping)
        #expect(mapping.entityMappings.map(\.name) == ["BookToBook", "AuthorToAuthor"])
        let author = try #require(mapping.entityMappings.last)
        #expect(author.type == .transform && author.sourceEntityName == "Author" && author.destinationEntityName == "Author")
        #expect(author.relationshipMappings.first { $0.name == "authoredBooks" }?.valueExpression
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "BookToBook", $source.books)"#)
    }

    @Test func inferenceHasNoSourceForARenameWithoutAnIdentifier() throws {
        let plus = MappingMigrationTests.plus
        let mapping = try MappingModel.inferred(from: .path(plus.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld").path),
                                                to: .path(plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path))
        #expect(mapping.format == .inferred)
        let author = try #require(mapping.entityMappings.first { $0.name == "AuthorToAuthor" })
        let authored = try #require(author.relationshipMappings.first { $0.name == "authoredBooks" })
        #expect(authored.valueExpression == nil)
    }
}
