import CDStoreModel
import Foundation
import Testing

@Suite struct JSONModelCodecTests {
    let file = URL(fileURLWithPath: "Model.json")

    func decodeError(_ json: String) throws -> ModelError {
        do {
            _ = try JSONModelCodec.decode(Data(json.utf8), file: file)
        } catch let error as ModelError {
            return error
        }
        Issue.record("decoding succeeded")
        return ModelError(.malformedJSON, "")
    }

    func model(_ entities: String) -> String {
        "{\n  \"format\": \"cdstore-model\",\n  \"formatVersion\": 1,\n  \"entities\": [\n" + entities + "\n  ]\n}\n"
    }

    @Test func unknownKeyIsNamedWithSuggestion() throws {
        let error = try decodeError(model(#"    {"name": "Person", "attributes": [{"name": "age", "type": "Integer 16", "optinal": true}]}"#))
        #expect(error.description == "Model.json:5:88: entity 'Person', property 'age': unknown key 'optinal' in "
                + "entities[0].attributes[0]; did you mean 'optional'?")
        #expect(error.code == .malformedJSON)
    }

    @Test func unknownTopLevelKey() throws {
        let error = try decodeError(#"{"format": "cdstore-model", "formatVersion": 1, "entities": [], "entites": []}"#)
        #expect(error.description == "Model.json:1:76: unknown key 'entites' in the top-level object; did you mean 'entities'?")
    }

    @Test func unknownAttributeType() throws {
        let error = try decodeError(model(#"    {"name": "Person", "attributes": [{"name": "age", "type": "Int"}]}"#))
        #expect(error.code == .invalidValue)
        #expect(error.entity == "Person")
        #expect(error.property == "age")
        #expect(error.description == "Model.json:5:63: entity 'Person', property 'age': unknown attribute type 'Int' at "
                + "entities[0].attributes[0].type (expected one of 'Undefined', 'Integer 16', 'Integer 32', 'Integer 64', "
                + "'Decimal', 'Double', 'Float', 'String', 'Boolean', 'Date', 'Binary', 'UUID', 'URI', 'Transformable', "
                + "'ObjectID', 'Composite')")
    }

    @Test func unknownDeleteRule() throws {
        let error = try decodeError(model(#"    {"name": "A", "relationships": [{"name": "b", "destination": "A", "deleteRule": "Delete"}]}"#))
        #expect(error.description.hasPrefix("Model.json:5:85: entity 'A', property 'b': unknown delete rule 'Delete' at "
                                            + "entities[0].relationships[0].deleteRule"))
    }

    @Test func malformedJSON() throws {
        let error = try decodeError("{\n  \"format\": \"cdstore-model\",\n  \"entities\": [,]\n}")
        #expect(error.description == "Model.json:3:16: not valid JSON: unexpected character ','")
        #expect(try decodeError(#"{"a": 1,}"#).description == "Model.json:1:9: not valid JSON: trailing comma in object")
        #expect(try decodeError(#"{"a": 1, "a": 2}"#).description == "Model.json:1:10: not valid JSON: duplicate key 'a'")
        #expect(try decodeError("{\"a\": \"x").description == "Model.json:1:9: not valid JSON: unterminated string")
    }

    @Test func missingRequiredKeys() throws {
        #expect(try decodeError(#"{"format": "cdstore-model", "formatVersion": 1}"#).description
                == "Model.json:1:1: missing required key 'entities' in the top-level object")
        #expect(try decodeError(model(#"    {"name": "A", "attributes": [{"name": "x"}]}"#)).description
                == "Model.json:5:34: entity 'A', property 'x': missing required key 'type' in entities[0].attributes[0]")
    }

    @Test func wrongValueTypes() throws {
        #expect(try decodeError(model(#"    {"name": "A", "abstract": "yes"}"#)).description
                == "Model.json:5:31: entity 'A': entities[0].abstract must be true or false, not a string")
        #expect(try decodeError(model(#"    {"name": "A", "relationships": [{"name": "b", "destination": "A", "minCount": 1.5}]}"#))
                .description == "Model.json:5:83: entity 'A', property 'b': entities[0].relationships[0].minCount must be "
                + "a whole number, not the number 1.5")
    }

    @Test func wrongFormat() throws {
        #expect(try decodeError(#"{"format": "other", "formatVersion": 1, "entities": []}"#).description
                == "Model.json:1:12: 'format' is 'other', expected 'cdstore-model'")
        #expect(try decodeError(#"{"format": "cdstore-model", "formatVersion": 2, "entities": []}"#).description
                == "Model.json:1:46: unsupported formatVersion 2 (this cdstore reads version 1)")
    }

    /// A model with every field set to a non-default value survives a round trip.
    @Test func everyFieldRoundTrips() throws {
        var attribute = Attribute(name: "a", type: .binary, isOptional: true)
        attribute.isTransient = true
        attribute.isReadOnly = true
        attribute.defaultValue = "x"
        attribute.defaultDateTimeInterval = 737057646.84
        attribute.minValue = "1"
        attribute.maxValue = "2"
        attribute.minDateTimeInterval = -1.5
        attribute.maxDateTimeInterval = 1e10
        attribute.regularExpression = "[a-z]+/\\d"
        attribute.usesScalarValueType = false
        attribute.valueTransformerName = "T"
        attribute.customClassName = "C"
        attribute.allowsExternalBinaryDataStorage = true
        attribute.preservesValueInHistoryOnDeletion = true
        attribute.isIndexedBySpotlight = true
        attribute.isStoredInExternalRecord = true
        attribute.allowsCloudEncryption = true
        attribute.isIndexed = true
        attribute.compositeName = "Comp"
        attribute.renamingIdentifier = "old"
        attribute.versionHashModifier = "v2"
        attribute.syncable = true
        attribute.userInfo = ["k": "v", "emoji": "é😀\n\"q\""]
        var derived = Attribute(name: "d", type: .integer64)
        derived.derivationExpression = "items.@count"
        derived.isReadOnly = false
        var relationship = Relationship(name: "r", destination: "E", inverseName: "r", isToMany: true)
        relationship.inverseEntity = nil
        relationship.isOrdered = true
        relationship.isOptional = true
        relationship.isTransient = true
        relationship.minCount = 1
        relationship.maxCount = 5
        relationship.deleteRule = .noAction
        relationship.renamingIdentifier = "old"
        relationship.versionHashModifier = "m"
        relationship.syncable = false
        relationship.userInfo = ["a": "b"]
        var toOne = Relationship(name: "one", destination: "E")
        toOne.maxCount = 0
        var entity = Entity(name: "E", parentName: "P", isAbstract: true, attributes: [attribute, derived],
                            relationships: [relationship, toOne])
        entity.className = "MyE"
        entity.renamingIdentifier = "OldE"
        entity.versionHashModifier = "h"
        entity.codeGenerationType = "class"
        entity.spotlightDisplayNameExpression = "name"
        entity.syncable = true
        entity.userInfo = ["x": "y"]
        var fetched = FetchedProperty(name: "f", fetchRequest: FetchRequestTemplate(name: "fetchedPropertyFetchRequest",
                                                                                    entity: "E", predicate: "a == 1"))
        fetched.isOptional = true
        fetched.userInfo = ["u": "v"]
        entity.fetchedProperties = [fetched]
        entity.uniquenessConstraints = [["a"], ["a", "r"]]
        var index = FetchIndex(name: "i", elements: [
            .init(property: "a"),
            .init(property: nil, expression: "a + 1", expressionType: "Integer 64", type: "RTree", isAscending: false),
        ])
        index.partialIndexPredicate = "a > 0"
        entity.fetchIndexes = [index]
        entity.compoundIndexes = [["a", "d"]]
        var request = FetchRequestTemplate(name: "all", entity: "E", predicate: nil)
        request.options = ["fetchLimit": "10"]
        var configuration = Configuration(name: "C", entities: ["E"])
        configuration.usedWithCloudKit = true
        let model = ManagedObjectModel(entities: [Entity(name: "P"), entity], versionIdentifiers: [""],
                                       fetchRequests: [request], configurations: [configuration],
                                       fileSettings: ["sourceLanguage": "Swift"])
        let data = try JSONModelCodec.encode(model)
        let back = try JSONModelCodec.decode(data, file: file)
        #expect(back.model == model)
        #expect(back.format == .json)
        #expect(back.sourceMap.entities["E"] != nil)
        #expect(back.sourceMap.properties["E.f"] != nil)
    }

    /// Defaults are left out, keys are sorted, and the source map points at each entity and property.
    @Test func canonicalOutput() throws {
        var name = Attribute(name: "name", type: .string)
        name.defaultValue = "n/a"
        let model = ManagedObjectModel(entities: [
            Entity(name: "Person", attributes: [name],
                   relationships: [Relationship(name: "pets", destination: "Pet", inverseName: "owner", isToMany: true)]),
            Entity(name: "Pet", relationships: [Relationship(name: "owner", destination: "Person", inverseName: "pets")]),
        ])
        let text = String(decoding: try JSONModelCodec.encode(model), as: UTF8.self)
        #expect(text == """
        {
          "entities" : [
            {
              "attributes" : [
                {
                  "default" : "n/a",
                  "name" : "name",
                  "type" : "String"
                }
              ],
              "name" : "Person",
              "relationships" : [
                {
                  "destination" : "Pet",
                  "inverse" : "owner",
                  "name" : "pets",
                  "toMany" : true
                }
              ]
            },
            {
              "name" : "Pet",
              "relationships" : [
                {
                  "destination" : "Person",
                  "inverse" : "pets",
                  "name" : "owner"
                }
              ]
            }
          ],
          "format" : "cdstore-model",
          "formatVersion" : 1
        }

        """)
        let loaded = try JSONModelCodec.decode(Data(text.utf8), file: file)
        #expect(loaded.sourceMap.entities["Pet"] == .init(line: 21, column: 5))
        #expect(loaded.sourceMap.properties["Person.pets"] == .init(line: 13, column: 9))
    }

    /// `ModelLoader` reads `.json` files through the codec.
    @Test func loaderReadsJSONFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdstore-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("M.json")
        try Data(model(#"    {"name": "A"}"#).utf8).write(to: path)
        let loaded = try ModelLoader.load(path.path)
        #expect(loaded.format == .json)
        #expect(loaded.model.entities.map(\.name) == ["A"])
    }
}
