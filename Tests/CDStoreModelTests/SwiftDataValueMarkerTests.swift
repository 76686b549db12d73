import CDStoreModel
import CDStoreSwiftSource
import Foundation
import Testing

/// The Swift reader marks what the app's Swift types make of SwiftData's columns (``SwiftDataValue``): an enum with a
/// raw value is a composite giving the raw value, a collection inside a `Codable` struct a Binary element holding
/// JSON. The marks survive cdstore's JSON model and leave the version hashes alone.
@Suite struct SwiftDataValueMarkerTests {
    static let source = """
        enum Tier: Int, Codable { case one = 1, two = 2 }
        enum Folder: Codable { case inbox, archive }
        struct Garnish: Codable { var name: String; var grams: Double }
        struct Profile: Codable {
            var botanicals: [String]
            var garnishes: [Garnish]
            var photo: Data?
            var tier: Tier?
        }
        @Model final class Recipe {
            var title: String
            var tier: Tier?
            var folder: Folder?
            var profile: Profile?
            var tags: [String] = []
            init(title: String) { self.title = title }
        }
        """

    func recipe() throws -> (Entity, LoadedModel) {
        let loaded = try SwiftModelReader.read([("Recipe.swift", Self.source)], origin: URL(fileURLWithPath: "Recipe.swift"))
        return (try #require(loaded.model.entity(named: "Recipe")), loaded)
    }

    @Test func theReaderMarksEnumsAndJSONElements() throws {
        let (recipe, _) = try recipe()
        func marks(_ attribute: Attribute?) -> [String] {
            guard let attribute else { return ["missing"] }
            return [attribute.name + ":" + (attribute.swiftDataValue?.rawValue ?? "-")]
                + attribute.compositeElements.flatMap { marks($0).map { attribute.name + "." + $0 } }
        }
        #expect(marks(recipe.attribute(named: "title")) == ["title:-"])
        #expect(marks(recipe.attribute(named: "tier")) == ["tier:rawValue", "tier.tier:-"])
        #expect(marks(recipe.attribute(named: "folder")) == ["folder:-", "folder.inbox:-", "folder.archive:-"])
        #expect(marks(recipe.attribute(named: "profile")) == [
            "profile:-", "profile.botanicals:json", "profile.garnishes:json", "profile.photo:-",
            "profile.tier:rawValue", "profile.tier.tier:-",
        ])
        // A collection of the class itself is Transformable, archived whole: not JSON.
        #expect(marks(recipe.attribute(named: "tags")) == ["tags:-"])
        // Records name an enum's raw value after the property.
        let names = recipe.attributes.flatMap(\.recordAttributes).map(\.name)
        #expect(names == ["title", "tier", "folder.inbox", "folder.archive", "profile.botanicals", "profile.garnishes",
                          "profile.photo", "profile.tier", "tags"])
        #expect(recipe.attributes.flatMap(\.columnAttributes).count == names.count)
    }

    @Test func theMarksSurviveTheJSONModelAndLeaveTheHashesAlone() throws {
        let (_, loaded) = try recipe()
        let json = try JSONModelCodec.encode(loaded.model)
        #expect(String(decoding: json, as: UTF8.self).contains(#""swiftDataValue" : "json""#))
        let back = try JSONModelCodec.decode(json, file: URL(fileURLWithPath: "Recipe.json")).model
        #expect(back == loaded.model)
        var unmarked = loaded.model
        for e in unmarked.entities.indices {
            for a in unmarked.entities[e].attributes.indices { Self.unmark(&unmarked.entities[e].attributes[a]) }
        }
        #expect(unmarked != loaded.model)
        #expect(VersionHasher.entityHashes(of: unmarked) == VersionHasher.entityHashes(of: loaded.model))

        let bad = #"{"format": "cdstore-model", "formatVersion": 1, "entities": [{"name": "R", "attributes": [{"name": "t", "type": "Binary", "swiftDataValue": "JSON"}]}]}"#
        #expect(throws: ModelError.self) { try JSONModelCodec.decode(Data(bad.utf8), file: URL(fileURLWithPath: "R.json")) }
    }

    static func unmark(_ attribute: inout Attribute) {
        attribute.swiftDataValue = nil
        for i in attribute.compositeElements.indices { unmark(&attribute.compositeElements[i]) }
    }
}
