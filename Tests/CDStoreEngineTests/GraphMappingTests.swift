import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// JSON from APIs: Groot's user info in a corpus model, and `--map` files for models without mapping.
@Suite("Graph JSON mapping")
struct GraphMappingTests {
    static let grootURL = Corpus.models.appendingPathComponent("gonzalezreal__Groot__Model.xcdatamodeld")

    func grootStore() throws -> (Store, JSONMapping) {
        let model = try ModelLoader.load(Self.grootURL.path).model
        return (try Org.store(model, name: "Groot.sqlite"), JSONMapping.fromModel(model))
    }

    @Test("Groot user info: JSONKeyPath renames, identityAttribute(s)")
    func grootMappingIsRead() throws {
        let (_, mapping) = try grootStore()
        #expect(mapping.entities["Character"]?.keyPaths["realName"] == ["real_name"])
        #expect(mapping.entities["Character"]?.identity == ["identifier"])
        #expect(mapping.entities["Card"]?.identity == ["suit", "value"])
        #expect(mapping.entities["Card"]?.keyPaths["numberOfTimesPlayed"] == ["played"])
        #expect(mapping.entities["Abstract"]?.identity == ["identifier"])
    }

    /// Groot's own test fixture shape (characters.json): renamed keys, nested related objects, and related
    /// objects named by their identity value.
    @Test("API JSON into the Groot model: renames, nested objects merged by identity, scalar references")
    func grootCharacters() throws {
        let (store, mapping) = try grootStore()
        try store.insertJSON("Character", #"""
            [{"id":"1699","name":"Batman","real_name":"Bruce Wayne",
              "powers":[{"id":"4","name":"Agility"},{"id":"9","name":"Insanely Rich"}],
              "publisher":{"id":"10","name":"DC Comics"}},
             {"id":"1455","name":"Iron Man","real_name":"Tony Stark",
              "powers":[{"id":"31","name":"Power Suit"},9],"publisher":10}]
            """#, mapping: mapping)
        #expect(try store.rows("SELECT ZIDENTIFIER, ZNAME, ZREALNAME, ZPUBLISHER FROM ZCHARACTER ORDER BY Z_PK")
                == ["1699|Batman|Bruce Wayne|1", "1455|Iron Man|Tony Stark|1"])
        #expect(try store.rows("SELECT ZIDENTIFIER, ZNAME FROM ZPOWER ORDER BY Z_PK") == ["4|Agility", "9|Insanely Rich", "31|Power Suit"])
        #expect(try store.rows("SELECT ZIDENTIFIER FROM ZPUBLISHER") == ["10"])
        #expect(try store.values(ObjectFetchRequest(entity: "Power", relationships: .counts), "characters")
                == ["1", "2", "1"])
        // The same API objects again, changed: merged by identity (with upsert), nothing duplicated.
        try store.insertJSON("Character", #"[{"id":1699,"name":"The Batman","powers":[4],"publisher":{"id":10,"name":"DC"}}]"#,
                             upsert: true, mapping: mapping)
        #expect(try store.rows("SELECT ZNAME, ZREALNAME FROM ZCHARACTER WHERE ZIDENTIFIER = 1699") == ["The Batman|Bruce Wayne"])
        #expect(try store.rows("SELECT ZNAME FROM ZPUBLISHER") == ["DC"])
        #expect(try store.count(ObjectFetchRequest(entity: "Power")) == 3)
        #expect(try store.values(ObjectFetchRequest(entity: "Power", relationships: .counts), "characters")
                == ["1", "1", "1"])
        // Identity attributes merge even without upsert, as Groot uniques objects by them.
        try store.insertJSON("Character", #"{"id":1455,"name":"Iron Man 2"}"#, mapping: mapping)
        #expect(try store.rows("SELECT ZNAME, ZREALNAME FROM ZCHARACTER WHERE ZIDENTIFIER = 1455") == ["Iron Man 2|Tony Stark"])
        #expect(try store.count(ObjectFetchRequest(entity: "Character")) == 2)
        // Property names still work as keys when the mapped key is absent (lenient, unlike Groot).
        try store.insertJSON("Character", #"{"identifier":5,"name":"X","realName":"Y"}"#, mapping: mapping)
        #expect(try store.rows("SELECT ZREALNAME FROM ZCHARACTER WHERE ZIDENTIFIER = 5") == ["Y"])
    }

    @Test("Groot: compound identity (Card[suit, value]) and sub-entities of an abstract entity with identity")
    func grootCardsAndAbstract() throws {
        let (store, mapping) = try grootStore()
        try store.insertJSON("Card", #"[{"suit":"H","value":"A","played":1},{"suit":"H","value":"K","played":2},{"suit":"H","value":"A","played":5}]"#,
                             upsert: true, mapping: mapping)
        #expect(try store.rows("SELECT ZSUIT, ZVALUE, ZNUMBEROFTIMESPLAYED FROM ZCARD ORDER BY Z_PK") == ["H|A|5", "H|K|2"])
        try store.insertJSON("Container", #"{"abstracts":[{"_entity":"ConcreteA","id":1,"foo":"f"},{"_entity":"ConcreteB","id":2,"bar":"b"}]}"#,
                             mapping: mapping)
        try store.insertJSON("Container", #"{"abstracts":[1]}"#, mapping: mapping)
        #expect(try store.rows("SELECT Z_ENT, ZIDENTIFIER, ZCONTAINER FROM ZABSTRACT ORDER BY Z_PK") == ["2|1|2", "3|2|1"])
    }

    /// The Organization model has no mapping: a `--map` file supplies one.
    static let mapFile = #"""
        {"Person": {"keys": {"name": "user.name", "email": "user.contact.mail", "organization": "org"},
                    "relatedBy": {"organization": "name", "projects": "title"}},
         "Employee": {"keys": {"employeeNumber": "staff_no"}, "identity": ["employeeNumber"]},
         "Organization": {"keys": {"name": "org_name"}}}
        """#

    @Test("--map: renamed keys, nested key paths, related objects matched by a key attribute instead of duplicated")
    func mapFile() throws {
        let store = try Org.store()
        let mapping = try JSONMapping.fromFile(Data(Self.mapFile.utf8), model: store.model)
        try store.insertJSON("Organization", #"{"org_name":"Acme","projects":[{"title":"Apollo"}]}"#, mapping: mapping)
        try store.insertJSON("Employee", #"""
            [{"staff_no":1,"user":{"name":"Ann","contact":{"mail":"ann@x"}},"org":"Acme","projects":["Apollo"]},
             {"staff_no":2,"user":{"name":"Bo"},"org":"Acme"}]
            """#, mapping: mapping)
        #expect(try store.rows("SELECT ZNAME, ZEMAIL, ZEMPLOYEENUMBER, ZORGANIZATION FROM ZPARTY WHERE Z_ENT = 7 ORDER BY Z_PK")
                == ["Ann|ann@x|1|1", "Bo|NULL|2|1"])
        #expect(try store.count(ObjectFetchRequest(entity: "Organization")) == 1)
        #expect(try store.rows("SELECT * FROM Z_5PROJECTS") == ["2|1"])
        // Identity from the map file: upsert merges by staff_no.
        try store.insertJSON("Employee", #"{"staff_no":2,"user":{"name":"Bob"}}"#, upsert: true, mapping: mapping)
        #expect(try store.rows("SELECT ZNAME FROM ZPARTY WHERE ZEMPLOYEENUMBER = 2") == ["Bob"])
        // A related key that matches nothing creates the related object with that key.
        try store.insertJSON("Person", #"{"user":{"name":"Cy"},"org":"Globex"}"#, mapping: mapping)
        #expect(try store.rows("SELECT ZNAME FROM ZPARTY WHERE Z_ENT = 4 ORDER BY Z_PK") == ["Acme", "Globex"])
    }

    @Test func mapFileErrorsNameWhatIsWrong() throws {
        let model = Org.model
        let entity = errorText { _ = try JSONMapping.fromFile(Data(#"{"Persn":{}}"#.utf8), model: model) } ?? ""
        #expect(entity == "mapping file: no entity 'Persn'; did you mean 'Person'?")
        let property = errorText { _ = try JSONMapping.fromFile(Data(#"{"Person":{"keys":{"nme":"x"}}}"#.utf8), model: model) } ?? ""
        #expect(property == "entity 'Person': mapping file: no property 'nme'; did you mean 'name'?")
        let key = errorText { _ = try JSONMapping.fromFile(Data(#"{"Person":{"kes":{}}}"#.utf8), model: model) } ?? ""
        #expect(key == "entity 'Person': mapping file: unknown key 'kes' (expected identity, keys, relatedBy, files)")
    }

    @Test("No mapping: keys are property names, even in the Groot model")
    func noMapping() throws {
        let (store, _) = try grootStore()
        try store.insertJSON("Character", #"{"identifier":7,"name":"N","realName":"R","publisher":{"identifier":3,"name":"P"}}"#)
        #expect(try store.rows("SELECT ZIDENTIFIER, ZREALNAME, ZPUBLISHER FROM ZCHARACTER") == ["7|R|1"])
        let scalar = errorText { try store.insertJSON("Character", #"{"identifier":8,"name":"N","realName":"R","publisher":3}"#) } ?? ""
        #expect(scalar == """
            record 1: entity 'Character', relationship 'publisher': expected a nested object, an object ID \
            (x-coredata://…) or {\"_ref\": {…}}, got 3
            """)
    }
}
