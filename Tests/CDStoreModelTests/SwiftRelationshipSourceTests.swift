import CDStoreModel
import CDStoreSwiftSource
import Foundation
import Testing

/// `@Relationship` and `@Attribute` as real apps write them, each case from an app whose sources cdstore once
/// misread: an inverse pointing at the wrong entity (TravelBuddy), a fully qualified inverse key path and
/// `Self.` in a schema's models (Tone), the beta-era `@Relationship(.cascade)` (Backyard Birds), `.codable`
/// (Apple's WWDC25 trips sample), and validation inside a folder of sources.
@Suite struct SwiftRelationshipSourceTests {
    func read(_ files: [(String, String)]) throws -> LoadedModel {
        try SwiftModelReader.read(files, origin: URL(fileURLWithPath: "Sources"))
    }

    @Test func anInverseThatDoesNotPointBackIsAnError() throws {
        #expect {
            try read([("Trip.swift", """
                @Model final class Folder { var parent: Folder?; @Relationship(inverse: \\Folder.parent) var children: [Folder] = [] }
                @Model final class Trip { @Relationship(inverse: \\Folder.parent) var folders: [Folder] = [] }
                """)])
        } throws: { error in
            (error as? ModelError)?.description == "Trip.swift:2:70: entity 'Trip', relationship 'folders': "
                + "@Relationship(inverse: \\Folder.parent) on 'folders' names a relationship to 'Folder', not to 'Trip': "
                + "the inverse must point back"
        }
    }

    @Test func anInverseOnASubentityOrParentIsAccepted() throws {
        let model = try read([("Trips.swift", """
            @Model class Trip { @Relationship(inverse: \\Stop.trip) var stops: [Stop] = [] }
            @Model final class BusinessTrip: Trip { var company: String = "" }
            @Model final class Stop { var trip: Trip? }
            """)]).model
        #expect(model.relationship("stops", of: try #require(model.entity(named: "Trip")))?.inverseName == "trip")
    }

    @Test func aQualifiedInverseKeyPathAndSelfInModelsResolve() throws {
        let model = try read([("Schemas.swift", """
            enum Schemas {}
            extension Schemas {
                enum V3: VersionedSchema {
                    static var versionIdentifier: Schema.Version { .init(3, 0, 0) }
                    static var models: [any PersistentModel.Type] { [Self.Item.self, Self.Tag.self] }
                }
            }
            extension Schemas.V3 {
                @Model final class Item { var tags: [Schemas.V3.Tag] = [] }
                @Model final class Tag {
                    @Relationship(deleteRule: .nullify, inverse: \\Schemas.V3.Item.tags) var items: [Schemas.V3.Item] = []
                }
            }
            """)]).model
        #expect(model.versionIdentifiers == ["3.0.0"])
        #expect(model.relationship("items", of: try #require(model.entity(named: "Tag")))?.inverseName == "tags")
    }

    @Test func theBetaDeleteRuleOptionIsTheDeleteRule() throws {
        let model = try read([("Birds.swift", """
            @Model final class Species { @Relationship(.cascade, inverse: \\Bird.species) var birds: [Bird] = [] }
            @Model final class Bird { var species: Species? }
            """)]).model
        #expect(model.relationship("birds", of: try #require(model.entity(named: "Species")))?.deleteRule == .cascade)
    }

    @Test func theCodableOptionIsRefusedNamingIt() throws {
        #expect {
            try read([("Trip.swift", """
                struct Place: Codable { var x: Double; var y: Double }
                @Model final class Trip { @Attribute(.codable) var place: Place? }
                """)])
        } throws: { error in
            (error as? ModelError)?.description.hasPrefix("Trip.swift:2:52: entity 'Trip', property 'place': "
                                                          + "@Attribute(.codable) on 'place'") == true
        }
    }

    /// In a folder of sources a problem is reported at the file that has it, not at the folder.
    @Test func validationNamesTheFileOfAFolder() throws {
        let loaded = try read([("Sources/Yard.swift", """
            @Model class Yard {
                @Relationship(inverse: \\Plant.yard) var leading: [Plant] = []
                @Relationship(inverse: \\Plant.yard) var trailing: [Plant] = []
            }
            """), ("Sources/Plant.swift", "@Model class Plant { var yard: Yard? }\n")])
        #expect(ModelValidator.validate(loaded).map(\.description) == [
            "Sources/Yard.swift:2:45: warning: entity 'Yard', property 'leading': inverse 'Plant.yard' does not point "
                + "back (its inverse is 'trailing')",
        ])
    }
}
