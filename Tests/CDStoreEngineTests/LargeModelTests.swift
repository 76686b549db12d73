import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// A model of thousands of entities loads, validates, lays out and stores objects; entity lookups by name
/// are constant time (they were linear, and laying out a model took quadratic time). `make test` uses 2,000
/// entities; `make reliability` 10,000 (`CDSTORE_LARGE_MODEL_ENTITIES`).
@Suite("A model of thousands of entities")
struct LargeModelTests {
    @Test func thousandsOfEntitiesLoadValidateAndStore() throws {
        let count = ProcessInfo.processInfo.environment["CDSTORE_LARGE_MODEL_ENTITIES"].flatMap(Int.init) ?? 2_000
        let entities = (0..<count).map { i in
            #"{"name": "Entity\#(i)", "attributes": [{"name": "name", "type": "String", "optional": true}], "#
                + #""relationships": [{"name": "next", "destination": "Entity\#((i + 1) % count)", "inverse": "previous", "optional": true}, "#
                + #"{"name": "previous", "destination": "Entity\#((i + count - 1) % count)", "inverse": "next", "optional": true}]}"#
        }
        let model = try Org.jsonModel("[" + entities.joined(separator: ",") + "]")
        #expect(model.entities.count == count)
        #expect(model.entity(named: "Entity\(count - 1)")?.relationships.map(\.destination) == ["Entity0", "Entity\(count - 2)"])
        #expect(ModelValidator.validate(LoadedModel(model: model, file: URL(fileURLWithPath: "Model.json"), format: .json))
            .filter { $0.severity == .error }.isEmpty)
        let store = try Org.store(model, name: "Large.sqlite")
        #expect(store.layout.entities.count == count)
        #expect(store.layout.entity(named: "Entity1234")?.table == "ZENTITY1234")
        try store.insertJSON("Entity5", #"{"name": "a", "next": {"name": "b"}}"#)
        #expect(try store.count(ObjectFetchRequest(entity: "Entity6")) == 1)
        #expect(try store.rows("SELECT ZNAME, ZNEXT FROM ZENTITY5") == ["a|1"])
    }
}
