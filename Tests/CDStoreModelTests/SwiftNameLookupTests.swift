import CDStoreModel
import CDStoreSwiftSource
import Foundation
import Testing

/// Type names in `@Model` sources resolve as Swift resolves them. Each case is the shape of a real app's sources
/// that cdstore once refused: aliases of standard types (Northwind's `Money = Decimal`), the versioned-schema
/// alias idiom (Apple's SwiftDataAnimals sample, bunnydex), an extension of an alias (heck-yeah-tv), a module
/// prefix (Northwind) and nested enums of the same name in two classes.
@Suite struct SwiftNameLookupTests {
    func read(_ files: [(String, String)], version: String? = nil) throws -> ManagedObjectModel {
        try SwiftModelReader.read(files, origin: URL(fileURLWithPath: "Sources"), version: version).model
    }

    func attributeTypes(_ model: ManagedObjectModel, _ entity: String) throws -> [String: String] {
        let found = try #require(model.entity(named: entity))
        return Dictionary(uniqueKeysWithValues: found.attributes.map { ($0.name, $0.type.rawValue) })
    }

    @Test func aliasesOfStandardTypesAndCollectionsAreFollowed() throws {
        let model = try read([("Channel.swift", """
            typealias ChannelId = String
            typealias Money = Decimal
            typealias ChannelIds = [ChannelId]
            @Model final class Channel {
                var id: ChannelId = ""
                var price: Money?
                var related: ChannelIds = []
                init() {}
            }
            """)])
        #expect(try attributeTypes(model, "Channel") == ["id": "String", "price": "Decimal", "related": "Transformable"])
        let channel = try #require(model.entity(named: "Channel"))
        #expect(channel.attribute(named: "price")?.isOptional == true)
        #expect(channel.attribute(named: "id")?.isOptional == false)
    }

    @Test func aCurrentVersionAliasNamesThatVersionsClass() throws {
        let model = try read([("Schemas.swift", """
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
                static var models: [any PersistentModel.Type] { [CardModel.self] }
                @Model final class CardModel { var title: String = "" }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
                static var models: [any PersistentModel.Type] { [CardModel.self, DieModel.self] }
                @Model final class CardModel { var title: String = ""; var dice: [DieModel] = [] }
            }
            """), ("Latest.swift", """
            typealias SchemaLatest = SchemaV2
            typealias CardModel = SchemaLatest.CardModel
            @Model final class DieModel { var sides: Int = 6; var cards: [CardModel] = [] }
            """)])
        #expect(model.versionIdentifiers == ["2.0.0"])
        let die = try #require(model.entity(named: "DieModel"))
        #expect(die.relationship(named: "cards")?.destination == "CardModel")
        #expect(die.relationship(named: "cards")?.inverseName == "dice")
        #expect(try #require(model.entity(named: "CardModel")).relationship(named: "dice") != nil)
    }

    @Test func aContainerNamesItsModelsThroughAliases() throws {
        let model = try read([("App.swift", """
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
                static var models: [any PersistentModel.Type] { [Animal.self] }
                @Model final class Animal { var name: String = "" }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
                static var models: [any PersistentModel.Type] { [Animal.self] }
                @Model final class Animal { var name: String = ""; var legs: Int = 4 }
            }
            typealias SchemaLatest = SchemaV2
            typealias Animal = SchemaLatest.Animal
            let container = try ModelContainer(for: Animal.self)
            """)])
        #expect(try attributeTypes(model, "Animal") == ["name": "String", "legs": "Integer 64"])
    }

    @Test func anExtensionOfAnAliasDeclaresInTheAliasedType() throws {
        let model = try read([("Current.swift", """
            typealias CurrentSchema = SchemaV1
            typealias SchemaVersion = CurrentSchema.SchemaVersion
            """), ("SchemaV1.swift", """
            enum SchemaV1: VersionedSchema {
                static let versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Channel.self, SchemaVersion.self] }
                @Model final class Channel { var name: String = "" }
            }
            """), ("SchemaVersion.swift", """
            extension CurrentSchema {
                @Model final class SchemaVersion { var number: Int = 1 }
            }
            """)])
        #expect(Set(model.entities.map(\.name)) == ["Channel", "SchemaVersion"])
    }

    @Test func aModulePrefixIsDropped() throws {
        let model = try read([("Schema.swift", """
            public enum NorthwindSchema {
                public typealias Product = NorthwindSwiftData.Product
                public static let models: [any PersistentModel.Type] = [Product.self]
            }
            @Model public final class Product { public var name: String = "" }
            let schema = Schema([NorthwindSchema.Product.self])
            """)])
        #expect(model.entities.map(\.name) == ["Product"])
    }

    @Test func aClassesOwnNestedTypeComesFirst() throws {
        let model = try read([("Model.swift", """
            @Model final class Animal {
                var diet: Diet
                init(diet: Diet) { self.diet = diet }
                enum Diet: String, Codable { case herbivorous, carnivorous }
            }
            @Model final class Plant {
                var diet: Diet?
                init(diet: Diet?) { self.diet = diet }
                enum Diet: Int, Codable { case sunlight }
            }
            """)])
        #expect(try #require(model.entity(named: "Animal")).attribute(named: "diet")?.compositeElements.map(\.type)
                == [.string])
        #expect(try #require(model.entity(named: "Plant")).attribute(named: "diet")?.compositeElements.map(\.type)
                == [.integer64])
    }

    @Test func aTypeTheSourcesDoNotDeclareIsNamedAsSuch() throws {
        #expect {
            try read([("Profile.swift", """
                @Model final class Profile { var selection: FamilyActivitySelection = .init(); init() {} }
                """)])
        } throws: { error in
            "\(error)".contains("'selection' has type 'FamilyActivitySelection', which cdstore cannot map to columns: "
                                + "these sources do not declare it")
        }
    }

    /// A Codable class that is not a model (BedtimeBully's `NotificationItem`): an array of it is archived whole like
    /// any collection; as a property of its own it is refused by name, no store having shown its columns.
    @Test func aCodableClassIsStoredInsideACollection() throws {
        let note = "public class Note: Codable { public let id: Double; public init(id: Double) { self.id = id } }\n"
        let model = try read([("Notes.swift", note + "@Model final class A { var notes: [Note] = [] }")])
        #expect(try attributeTypes(model, "A") == ["notes": "Transformable"])
        #expect {
            try read([("Notes.swift", note + "@Model final class A { var note: Note? }")])
        } throws: { error in
            "\(error)".contains("'note' has type 'Note', which cdstore cannot map to columns: it is a Codable class")
        }
    }

    /// A schema listing a class the sources lack (one from another file the user left out) says where it lists it.
    @Test func aSchemaNamingAnUnknownClassSaysWhere() throws {
        #expect {
            try read([("App.swift", """
                @Model final class Transcript { var text: String = "" }
                let schema = Schema([Transcript.self, SessionMetric.self])
                """)])
        } throws: { error in
            (error as? ModelError)?.description == "App.swift:2:14: 'SessionMetric.self' names no @Model class of these sources"
        }
    }

    /// Cycles are compile errors in Swift, but the reader sees sources that never compiled: each ends in an
    /// error (`typealias D = [D]` overflowed the stack, and `A = B.X` with `B = A.Y` grew a name without bound).
    @Test(arguments: [
        "typealias A = B\ntypealias B = A\n@Model final class C { var a: A? ; init() {} }",
        "typealias D = [D]\n@Model final class C { var d: D = [] ; init() {} }",
        "typealias F = G\ntypealias G = [F: F]\n@Model final class C { var f: F = [:] ; init() {} }",
        "typealias A = B.X\ntypealias B = A.Y\n@Model final class C { var a: A? ; init() {} }",
        "typealias E = E.E\n@Model final class C { var e: E? ; init() {} }",
    ])
    func aliasCyclesEndInAnError(source: String) throws {
        #expect {
            try read([("Cycle.swift", source)])
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .unsupportedSwiftType && error.description.count < 600
        }
    }
}
