import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Entity inheritance deeper than 256 levels is refused when a model is read, whatever its form, instead of
/// making every walk up the tree slow (a 2,000-entity chain took minutes to validate before).
@Suite("Inheritance depth")
struct InheritanceDepthTests {
    /// A JSON model of `count` entities, each the parent of the next.
    func jsonChain(_ count: Int) -> Data {
        let entities = (0..<count).map { n in
            let parent = n == 0 ? "" : #", "parent": "E\#(n - 1)""#
            return #"{"name": "E\#(n)"\#(parent), "attributes": [{"name": "a\#(n)", "type": "String", "optional": true}]}"#
        }
        return Data(#"{"format": "cdstore-model", "formatVersion": 1, "entities": [\#(entities.joined(separator: ","))]}"#.utf8)
    }

    @Test func aJSONChainOf256ParentsLoads() throws {
        let loaded = try JSONModelCodec.decode(jsonChain(257), file: URL(fileURLWithPath: "Chain.json"))
        #expect(loaded.model.entities.count == 257)
        #expect(loaded.model.ancestors(of: loaded.model.entity(named: "E256")!).count == 256)
    }

    @Test func aJSONChainOf257ParentsIsRefusedNamingTheEntity() throws {
        let error = try #require(throws: ModelError.self) {
            try JSONModelCodec.decode(jsonChain(258), file: URL(fileURLWithPath: "Chain.json"))
        }
        #expect(error == ModelError(.invalidValue, "its chain of parent entities is longer than 256 entities",
                                    file: "Chain.json", entity: "E257"))
        #expect(error.description
                == "Chain.json: entity 'E257': its chain of parent entities is longer than 256 entities")
    }

    @Test func anXcodeModelChainIsRefusedThroughTheLoader() throws {
        let folder = try temporaryDirectory().appendingPathComponent("Chain.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let entities = (0..<300).map { n in
            #"<entity name="E\#(n)"\#(n == 0 ? "" : #" parentEntity="E\#(n - 1)""#)/>"#
        }.joined(separator: "\n")
        try Data(#"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel">\#(entities)</model>"#.utf8)
            .write(to: folder.appendingPathComponent("contents"))
        let error = try #require(throws: ModelError.self) { try ModelLoader.load(folder.path) }
        #expect(error.code == .invalidValue)
        #expect(error.entity == "E257")
        #expect(error.message == "its chain of parent entities is longer than 256 entities")
    }

    /// A cycle is not a depth problem: the check stops at it and the validator reports it.
    @Test func aCycleIsLeftToTheValidator() throws {
        let data = Data(#"{"format": "cdstore-model", "formatVersion": 1, "entities": [{"name": "A", "parent": "B"}, {"name": "B", "parent": "A"}]}"#.utf8)
        let loaded = try JSONModelCodec.decode(data, file: URL(fileURLWithPath: "Cycle.json"))
        #expect(ModelValidator.validate(loaded).map(\.rule) == [.inheritanceCycle])
    }
}
