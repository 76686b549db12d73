import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

@Suite struct MappingModelReaderTests {
    static let mapping = Corpus.root.appendingPathComponent("mapping")
    static let plus = mapping.appendingPathComponent("richardpiazza__CoreDataPlus__CoreDataPlusTests/Resources")

    @Test(arguments: [
        ("ngageoint__mage-ios__sdk/Model1To15.xcmappingmodel", 12, [String]()),
        ("ngageoint__mage-ios__sdk/Model2To15.xcmappingmodel", 12, []),
        ("ngageoint__mage-ios__sdk/Model3To15.xcmappingmodel", 12, []),
        ("ngageoint__mage-ios__sdk/Model4To15.xcmappingmodel", 12, []),
        ("ngageoint__mage-ios__sdk/Model5To15.xcmappingmodel", 12, []),
        ("ngageoint__mage-ios__sdk/Model6To15.xcmappingmodel", 12, []),
        ("peripheryapp__periphery__UIKitProject/ModelMapping.xcmappingmodel", 2, ["CustomEntityMigrationPolicy"]),
        ("richardpiazza__CoreDataPlus__CoreDataPlusTests/Resources/Model_1_0_to_1_1.xcmappingmodel", 2, []),
        ("richardpiazza__CoreDataPlus__CoreDataPlusTests/Resources/Model_1_0_to_1_1.cdm_precompiled", 2, []),
        ("shakurocom__PoliteCoreData__PoliteCoreDataTests/MigrationTestNames_v1_to_v2.xcmappingmodel", 1, ["V1_to_V2_MigrationPolicy"]),
        ("shakurocom__PoliteCoreData__PoliteCoreDataTests/MigrationTestNames_v2_to_v3.xcmappingmodel", 1, []),
        ("shakurocom__PoliteCoreData__PoliteCoreDataTests/Model_v1_to_v2_ids.xcmappingmodel", 1, []),
        ("shakurocom__PoliteCoreData__PoliteCoreDataTests/Model_v2_to_v3_ids.xcmappingmodel", 1, []),
    ])
    func everyCorpusMappingModelReads(path: String, mappings: Int, policies: [String]) throws {
        // Detached entity mappings (mage: GPSLocation and Location; periphery and shakuro: stale copies) are not counted.
        let model = try MappingModelReader.read(Self.mapping.appendingPathComponent(path).path)
        #expect(model.entityMappings.count == mappings)
        #expect(model.entityMappings.compactMap(\.policyClassName) == policies)
        #expect(Set(model.entityMappings.map(\.name)).count == mappings)
    }

    @Test func mageMappingsRunInMappingNumberOrderAndLeaveOutDetachedOnes() throws {
        let model = try MappingModelReader.read(Self.mapping.appendingPathComponent("ngageoint__mage-ios__sdk/Model1To15.xcmappingmodel").path)
        #expect(!model.entityMappings.contains { $0.sourceEntityName == "Location" || $0.sourceEntityName == "GPSLocation" })
        let user = try #require(model.entityMapping(named: "UserToUser"))
        #expect(user.relationshipMappings.isEmpty)
        #expect(user.type == .transform)
        #expect(model.entityMappings.filter { $0.sourceEntityName == nil }.allSatisfy { $0.type == .add })
    }

    @Test func anEditedExpressionIsReadFromItsArchiveAndTheStaleMappingIgnored() throws {
        let model = try MappingModelReader.read(
            Self.mapping.appendingPathComponent("shakurocom__PoliteCoreData__PoliteCoreDataTests/MigrationTestNames_v1_to_v2.xcmappingmodel").path)
        #expect(model.entityMappings == [MappingModel.EntityMapping(
            name: "CDTestToCDTest", sourceEntityName: "CDTest", destinationEntityName: "CDTest", type: .transform,
            policyClassName: "V1_to_V2_MigrationPolicy",
            attributeMappings: [.init(name: "identifier", valueExpression: "FUNCTION($entityPolicy, \"changeIdentifierType:\", $source.identifier)",
                                      isGenerated: false)])])
    }

    /// The one mapping model with its compiled form beside it: what cdstore fills in for the Xcode form is what
    /// momc wrote into the .cdm, mapping for mapping, expression for expression.
    @Test func theXcodeFormResolvedEqualsTheCompiledForm() throws {
        let xcode = try MappingModelReader.read(Self.plus.appendingPathComponent("Model_1_0_to_1_1.xcmappingmodel").path)
        let compiled = try MappingModelReader.read(Self.plus.appendingPathComponent("Model_1_0_to_1_1.cdm_precompiled").path)
        let (source, destination) = xcode.modelVersionFiles()
        let from = try ModelLoader.load(try #require(source).path)
        let to = try ModelLoader.load(try #require(destination).path)
        let resolved = xcode.resolved(source: from.model, destination: to.model)
        var stripped = compiled.entityMappings
        for index in stripped.indices {
            stripped[index].sourceEntityVersionHash = nil
            stripped[index].destinationEntityVersionHash = nil
        }
        let generated = resolved.entityMappings.map { m -> MappingModel.EntityMapping in
            var m = m
            m.attributeMappings = m.attributeMappings.map { .init(name: $0.name, valueExpression: $0.valueExpression, isGenerated: false) }
            m.relationshipMappings = m.relationshipMappings.map { .init(name: $0.name, valueExpression: $0.valueExpression, isGenerated: false) }
            return m
        }
        #expect(generated == stripped)
        #expect(compiled.entityMappings[0].sourceExpression
                == "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\", \"Book\", \"TRUEPREDICATE\"), $manager.sourceContext, NO)")
        // The compiled form's entity hashes are the models' (Apple's own hashes: exact ground truth).
        let sourceHashes = VersionHasher.entityHashes(of: from.model)
        let destinationHashes = VersionHasher.entityHashes(of: to.model)
        for mapping in compiled.entityMappings {
            #expect(mapping.sourceEntityVersionHash == sourceHashes[mapping.sourceEntityName!])
            #expect(mapping.destinationEntityVersionHash == destinationHashes[mapping.destinationEntityName!])
        }
        #expect(compiled.mismatches(source: from.model, destination: to.model).isEmpty)
        #expect(compiled.mismatches(source: to.model, destination: to.model) == ["BookToBook: source entity Book has another version hash",
                                                                                 "AuthorToAuthor: source entity Author has another version hash"])
    }

    static func xml(_ objects: String) -> Data {
        Data("<?xml version=\"1.0\"?>\n<database>\n\(objects)\n</database>\n".utf8)
    }

    @Test func damagedXcodeFormsNameTheFileAndTheObject() throws {
        func failure(_ data: Data) -> ModelError? {
            do { _ = try MappingModelReader.read(data, file: "M.xcmappingmodel"); return nil } catch { return error as? ModelError }
        }
        let missing = failure(Self.xml("""
            <object type="XDDEVMAPPINGMODEL" id="z1"><relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z9"></relationship></object>
            """))
        #expect(missing?.code == .malformedXML)
        #expect(missing?.description == "M.xcmappingmodel:3: the mapping model lists entity mapping z9, which is not an XDDEVENTITYMAPPING object of the file")
        let badExpression = failure(Self.xml("""
            <object type="XDDEVMAPPINGMODEL" id="z1"><relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2"></relationship></object>
            <object type="XDDEVENTITYMAPPING" id="z2"><attribute name="sourcename" type="string">A</attribute><attribute name="destinationname" type="string">A</attribute><relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3"></relationship></object>
            <object type="XDDEVATTRIBUTEMAPPING" id="z3"><attribute name="name" type="string">n</attribute><attribute name="valueexpressiondata" type="binary">YnBsaXN0MDA=</attribute></object>
            """))
        #expect(badExpression?.code == .damagedArchive)
        #expect(badExpression?.description.hasPrefix("M.xcmappingmodel:5: attribute mapping 'n' (z3) of entity mapping 'AToA' (z2): its archived value expression cannot be read") == true)
        #expect(failure(Data("<database><object".utf8))?.code == .malformedXML)
        #expect(failure(Self.xml(""))?.description == "M.xcmappingmodel: an Xcode mapping model holds one XDDEVMAPPINGMODEL object; this file has 0")
    }

    @Test func damagedCompiledFormsAreErrorsNotCrashes() throws {
        let good = try Data(contentsOf: Self.plus.appendingPathComponent("Model_1_0_to_1_1.cdm_precompiled"))
        for length in stride(from: 0, to: good.count, by: 97) {
            // A binary plist's trailer is at its end, so every cut is an error naming the file, never a read.
            let error = #expect(throws: ModelError.self) { try MappingModelReader.read(good.prefix(length), file: "M.cdm") }
            #expect(error?.file == "M.cdm", "cut at \(length)")
        }
        // A keyed archive of something else.
        let model = try Data(contentsOf: Corpus.root.appendingPathComponent(
            "mapping/richardpiazza__CoreDataPlus__CoreDataPlusTests/PrecompiledResources/CoreDataPlus_1.0.momd_precompiled/Model.mom"))
        #expect(throws: ModelError.self) { try MappingModelReader.read(model, file: "M.cdm") }
        do {
            _ = try MappingModelReader.read(model, file: "M.cdm")
        } catch let error as ModelError {
            #expect(error.code == .unsupportedFormat)
            #expect(error.description.hasPrefix("M.cdm: not a compiled mapping model: the archive's root is NSManagedObjectModel #"))
        }
    }
}
