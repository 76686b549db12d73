import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Composite attributes (coredata-format.md §2.2, "Composite"): a composite hashes as the SHA-256 of its elements'
/// attribute hashes in name order, nothing of its own. The expected hashes are what
/// `../shared/tools/coredata/vhash.py` prints for this model's archive (the model cache of a store `cdstore seed`
/// made from it); before the fix cdstore hashed a composite as a plain attribute and gave other values.
@Suite struct CompositeHashTests {
    static func address(_ name: String, optional: Bool, compositeName: String? = "Address") -> Attribute {
        var attribute = Attribute(name: name, type: .composite, isOptional: optional)
        attribute.compositeName = compositeName
        attribute.compositeElements = [
            Attribute(name: "street", type: .string), Attribute(name: "city", type: .string, isOptional: true),
            Attribute(name: "id", type: .integer64), Attribute(name: "Zip", type: .string, isOptional: true),
        ]
        return attribute
    }

    static var model: ManagedObjectModel {
        var work = address("work", optional: false)
        work.defaultValue = "x"
        var folder = Attribute(name: "folder", type: .composite)
        var user = Attribute(name: "user", type: .string, isOptional: true)
        user.preservesValueInHistoryOnDeletion = true
        folder.compositeElements = [Attribute(name: "systemAll", type: .string, isOptional: true), user]
        let person = Entity(name: "Person", attributes: [
            Attribute(name: "id", type: .integer64), Attribute(name: "name", type: .string, isOptional: true),
            address("home", optional: true), work, folder,
        ])
        return ManagedObjectModel(entities: [person, Entity(name: "Empty", attributes: [Attribute(name: "nothing", type: .composite)])])
    }

    static let expected = [
        "Person": "qeZp+ClN1qXQ9Mc4reYjKFaVqvXMTL7CFD1Q7I0o7rc=",
        "Empty": "VUZpFYuiujRAxN2OGqxJYEQjO777jsuzDmmWToyvRHE=",
    ]

    func base64(_ model: ManagedObjectModel) -> [String: String] {
        VersionHasher.entityHashes(of: model).mapValues { Data($0).base64EncodedString() }
    }

    @Test func compositeHashIsItsElementsHashes() {
        #expect(base64(Self.model) == Self.expected)
        // The composite's own name, optionality and default do not count; its elements do.
        let home = Self.address("home", optional: true)
        #expect(VersionHasher.attributeHash(home) == VersionHasher.attributeHash(Self.address("home", optional: false)))
        #expect(VersionHasher.attributeHash(home) == VersionHasher.attributeHash(Self.address("elsewhere", optional: true)))
        var changed = home
        changed.compositeElements[1].isOptional = false
        #expect(VersionHasher.attributeHash(changed) != VersionHasher.attributeHash(home))
    }

    /// The elements survive every model form cdstore writes and reads, with the same hashes.
    @Test func elementsRoundTripThroughEveryForm() throws {
        let model = Self.model
        let archive = try ModelArchiver.archive(model)
        let decoded = try CompiledModelLoader.decode(archive.data, file: URL(fileURLWithPath: "cache.mom"))
        #expect(base64(decoded.model) == Self.expected)
        #expect(decoded.model.entity(named: "Person")?.attribute(named: "home")?.compositeElements.map(\.name)
                == ["street", "city", "id", "Zip"])
        let json = try JSONModelCodec.decode(try JSONModelCodec.encode(model), file: URL(fileURLWithPath: "m.json"))
        #expect(json.model == model)
        let folder = try temporaryDirectory().appendingPathComponent("M.xcdatamodel")
        try XcodeModelWriter.writeVersion(model, to: folder)
        let xml = try ModelLoader.load(folder.path)
        #expect(base64(xml.model) == Self.expected)
        #expect(xml.warnings.isEmpty)
        let text = String(decoding: XcodeModelWriter.contents(of: model), as: UTF8.self)
        #expect(text.contains("<compositeAttribute name=\"Address\">"))
        #expect(text.contains("<attribute name=\"home\" optional=\"YES\" attributeType=\"Composite\" composite=\"Address\"/>"))
    }
}
