import CDStoreModel
import Foundation
import Testing

/// SwiftData output for what the Schemas/ golden files do not show: storage options, hash modifiers, derived and
/// transient attributes, fetched properties and configurations, and the exact list of what was lost.
@Suite("SwiftData @Model output")
struct SwiftDataWriterTests {
    static func model() -> ManagedObjectModel {
        var photo = Attribute(name: "photo", type: .binary, isOptional: true)
        photo.allowsExternalBinaryDataStorage = true
        var title = Attribute(name: "title", type: .string)
        title.versionHashModifier = "v2"
        title.preservesValueInHistoryOnDeletion = true
        title.renamingIdentifier = "name"
        var wordCount = Attribute(name: "wordCount", type: .integer64, isOptional: true)
        wordCount.derivationExpression = "body.length"
        wordCount.isReadOnly = true
        var draft = Attribute(name: "draft", type: .string, isOptional: true)
        draft.isTransient = true
        var colour = Attribute(name: "colour", type: .transformable, isOptional: true)
        colour.customClassName = "UIColor"
        colour.valueTransformerName = "ColourTransformer"
        var note = Entity(name: "Note", attributes: [title, photo, wordCount, draft, colour],
                          relationships: [Relationship(name: "tags", destination: "Tag", inverseName: "notes", isToMany: true)])
        note.relationships[0].isOptional = true
        note.fetchedProperties = [FetchedProperty(name: "recent", fetchRequest: FetchRequestTemplate(name: "recent", entity: "Note"))]
        note.uniquenessConstraints = [["title", "photo"]]
        var tag = Entity(name: "Tag", attributes: [Attribute(name: "label", type: .string)],
                         relationships: [Relationship(name: "notes", destination: "Note", inverseName: "tags", isToMany: true)])
        tag.relationships[0].isOptional = true
        return ManagedObjectModel(entities: [note, tag], fetchRequests: [], configurations: [Configuration(name: "Cloud", entities: ["Note"])])
    }

    @Test func noteClass() throws {
        let code = ModelCodeWriter.generate(Self.model(), source: .init(path: "Notes.json"), options: .init(language: .swiftdata))
        let note = try #require(code.files.first { $0.name == "Note.swift" })
        let body = note.text.components(separatedBy: "import Foundation\n").last ?? ""
        #expect(body == #"""
            import SwiftData

            @available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *)
            @Model
            final class Note {
                #Unique<Note>([\.title, \.photo])

                @Attribute(.preserveValueOnDeletion, originalName: "name", hashModifier: "v2")
                var title: String
                @Attribute(.externalStorage)
                var photo: Data?
                var wordCount: Int?
                @Transient var draft: String? = nil
                @Attribute(.transformable(by: "ColourTransformer"))
                var colour: UIColor?
                @Relationship(inverse: \Tag.notes)
                var tags: [Tag]?

                init(title: String, photo: Data? = nil, wordCount: Int? = nil, colour: UIColor? = nil, tags: [Tag]? = nil) {
                    self.title = title
                    self.photo = photo
                    self.wordCount = wordCount
                    self.colour = colour
                    self.tags = tags
                }
            }

            """#)
        // Many-to-many: the inverse is named on one side only.
        let tag = try #require(code.files.first { $0.name == "Tag.swift" })
        #expect(tag.text.contains("    var notes: [Note]?\n") && !tag.text.contains("inverse:"))
    }

    @Test func lossesNameEntityPropertyAndHashEffect() {
        let code = ModelCodeWriter.generate(Self.model(), source: .init(path: "Notes.json"), options: .init(language: .swiftdata))
        #expect(code.losses == [
            "configuration 'Cloud' (Note): SwiftData models have no configurations; give each store a ModelConfiguration instead",
            "entity 'Note', fetched property 'recent': SwiftData has no fetched properties (left out)",
            "entity 'Note', attribute 'wordCount': derived (body.length); SwiftData has no derived attributes, so it is stored (the version hash changes)",
            "entity 'Note', attribute 'colour': Transformable of custom class 'UIColor'; the class is only named as the property's type: the app must declare it (NSObject & NSSecureCoding) and its transformer",
        ])
        // The other languages lose nothing worth a message.
        for language in [ModelCodeLanguage.swift, .objc, .codable] {
            #expect(ModelCodeWriter.generate(Self.model(), source: .init(path: "Notes.json"), options: .init(language: language)).losses == [])
        }
    }
}
