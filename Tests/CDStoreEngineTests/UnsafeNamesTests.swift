import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreEngine

/// Names built to break SQL never reach SQL text. Core Data makes tables and columns of names unquoted,
/// so `model validate` refuses what Xcode refuses, and no store is created or opened for such a model.
@Suite("Names that would break SQL")
struct UnsafeNamesTests {
    static let names = ["na\"me", "first name", "x'); DROP TABLE Z_METADATA; --", "1st", "Ünïcode", "semi;colon"]

    @Test(arguments: names)
    func aStoreIsNeitherCreatedNorOpenedForSuchAName(name: String) throws {
        let escaped = name.replacingOccurrences(of: "\"", with: "\\\"")
        let model = try Org.jsonModel(#"[{"name": "Item", "attributes": [{"name": "ok", "type": "String", "optional": true}, "#
                                      + #"{"name": "\#(escaped)", "type": "String", "optional": true}]}]"#)
        let path = try temporaryDirectory().appendingPathComponent("Unsafe.sqlite").path
        let message = errorText { _ = try Store.open(at: path, model: model) }
        #expect(message == "entity 'Item', attribute '\(name)': '\(name)' is not a name Core Data accepts (letters, digits "
                + "and _, starting with a letter): `cdstore model validate` lists every such name")
        #expect(!FileManager.default.fileExists(atPath: path))
        let issues = ModelValidator.validate(LoadedModel(model: model, file: URL(fileURLWithPath: "M.json"), format: .json))
        #expect(issues.map(\.rule) == [.invalidName])
    }

    @Test func keywordsAndCoreDataColumnNamesAreFineAsTheyArePrefixed() throws {
        let model = try Org.jsonModel(#"[{"name": "Order", "attributes": [{"name": "group", "type": "String", "optional": true}, "#
                                      + #"{"name": "select", "type": "Integer 32", "optional": true}, {"name": "z_pk", "type": "Integer 64", "optional": true}]}]"#)
        let store = try Org.store(model, name: "Keywords.sqlite")
        try store.insertJSON("Order", #"{"group": "a", "select": 2, "z_pk": 7}"#)
        #expect(try store.rows("SELECT Z_PK, ZGROUP, ZSELECT, ZZ_PK FROM ZORDER") == ["1|a|2|7"])
    }
}
