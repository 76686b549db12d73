import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore serve` shows SwiftData values as the app's types hold them, from a model that marks them (cdstore's
/// JSON model keeps the Swift reader's `swiftDataValue`): an enum composite as its raw value and a JSON element as
/// its JSON value, on the object page's JSON (the library's fetch) and in the streamed export.
@Suite struct SwiftDataValuePageTests {
    static let model = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [
          {"name": "Recipe", "attributes": [
             {"name": "title", "type": "String"},
             {"name": "tier", "type": "Composite", "optional": true, "composite": "Tier", "swiftDataValue": "rawValue",
              "elements": [{"name": "tier", "type": "Integer 64", "optional": true}]},
             {"name": "profile", "type": "Composite", "optional": true, "composite": "Profile", "elements": [
                {"name": "botanicals", "type": "Binary", "optional": true, "swiftDataValue": "json"},
                {"name": "strength", "type": "Double", "optional": true}]}]}]}
        """

    @Test func pagesAndExportsShowTheAppsValues() async throws {
        let fixture = try ServerFixture(model: Self.model) { ctx in
            _ = try ctx.insert(.text(#"{"title":"Bramble","tier":2,"profile":{"botanicals":["Grapefruit","Sloe / Anise"],"strength":41.5}}"#,
                                     format: .json), into: "Recipe")
        }
        let json = try await fixture.get("/Recipe/p1.json").json()
        #expect(json["tier"] as? Int == 2)
        let profile = try #require(json["profile"] as? [String: Any], "\(json)")
        #expect(profile["botanicals"] as? [String] == ["Grapefruit", "Sloe / Anise"])
        let export = try await fixture.get("/_export/Recipe?format=ndjson")
        #expect(export.body.contains(#""title":"Bramble","tier":2,"profile":{"botanicals":["Grapefruit","Sloe / Anise"],"strength":41.5}}"#),
                "\(export.body)")
        let page = try await fixture.get("/Recipe/p1")
        #expect(page.body.contains("Grapefruit"), "\(page.body)")
    }
}
