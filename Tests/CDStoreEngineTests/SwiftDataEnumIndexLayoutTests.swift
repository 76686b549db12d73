import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A store made from `@Model` sources of the shape a real SwiftData store showed (coredata-format.md §1.5 and
/// §1.8): enums with `String` and `Int` raw values, a `Codable` struct holding arrays, `#Index` with three
/// key-path lists and `@Attribute(.unique)`. Its columns, index names and hashes are the ones the spec records.
@Suite struct SwiftDataEnumIndexLayoutTests {

    static let source = SwiftDataRecipeSource.text

    /// The model the spec gives for those sources, written out by hand.
    static var specModel: ManagedObjectModel {
        func composite(_ name: String, _ type: String, optional: Bool, _ elements: [Attribute]) -> Attribute {
            var attribute = Attribute(name: name, type: .composite, isOptional: optional)
            attribute.compositeName = type
            attribute.compositeElements = elements
            return attribute
        }
        var recipe = Entity(name: "Recipe", attributes: [
            Attribute(name: "title", type: .string), Attribute(name: "bookName", type: .string),
            composite("level", "Level", optional: true, [Attribute(name: "level", type: .string, isOptional: true)]),
            composite("tier", "Tier", optional: true, [Attribute(name: "tier", type: .integer64, isOptional: true)]),
            composite("shape", "Shape", optional: false, [Attribute(name: "shape", type: .string, isOptional: true)]),
            composite("profile", "Profile", optional: true, [
                Attribute(name: "botanicals", type: .binary, isOptional: true),
                Attribute(name: "garnishes", type: .binary, isOptional: true),
                Attribute(name: "strength", type: .double, isOptional: true),
            ]),
        ])
        recipe.uniquenessConstraints = [["title"]]
        return ManagedObjectModel(entities: [recipe])
    }

    func read() throws -> LoadedModel {
        try SwiftModelReader.read([("Recipe.swift", Self.source)], origin: URL(fileURLWithPath: "Recipe.swift"))
    }

    @Test func enumsAreOneElementCompositesNamedAfterTheProperty() throws {
        let loaded = try read()
        let recipe = try #require(loaded.model.entity(named: "Recipe"))
        func elements(_ name: String) -> [String] {
            recipe.attribute(named: name)?.compositeElements.map { "\($0.name):\($0.type.rawValue)\($0.isOptional ? "?" : "")" } ?? []
        }
        #expect(elements("level") == ["level:String?"])
        #expect(elements("tier") == ["tier:Integer 64?"])
        #expect(elements("shape") == ["shape:String?"])
        #expect(elements("profile") == ["botanicals:Binary?", "garnishes:Binary?", "strength:Double?"])
        #expect(VersionHasher.entityHashes(of: loaded.model) == VersionHasher.entityHashes(of: Self.specModel))
    }

    @Test func columnsAndIndexNamesAreSwiftDatas() throws {
        let path = try temporaryDirectory().appendingPathComponent("Recipes.sqlite").path
        _ = try Store.open(at: path, loaded: try read())
        let db = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let columns = try db.read { db in
            try Row.fetchAll(db, sql: "PRAGMA table_info(ZRECIPE)").map { "\($0["name"] as String) \($0["type"] as String)" }
        }
        #expect(Set(columns) == ["Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZTITLE VARCHAR", "ZBOOKNAME VARCHAR",
                                 "ZLEVEL VARCHAR", "ZTIER INTEGER", "ZSHAPE VARCHAR", "ZBOTANICALS BLOB", "ZGARNISHES BLOB",
                                 "ZSTRENGTH FLOAT"])
        let indexes = try db.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZRECIPE' "
                                + "AND sql IS NOT NULL ORDER BY name")
        }
        #expect(indexes == [
            "CREATE INDEX Z_Recipe_SwiftDataIndexOnBinarybookName ON ZRECIPE (ZBOOKNAME COLLATE BINARY ASC)",
            "CREATE INDEX Z_Recipe_SwiftDataIndexOnBinarytitle ON ZRECIPE (ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Recipe_SwiftDataIndexOnBinarytitlebookName ON ZRECIPE (ZTITLE COLLATE BINARY ASC, ZBOOKNAME COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Recipe_UNIQUE_title ON ZRECIPE (ZTITLE COLLATE BINARY ASC)",
        ])
    }
}
