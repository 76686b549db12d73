import CDStoreModel
import CDStoreSwiftSource
import CDStoreTestSupport
import Foundation
import Testing

/// SwiftData `@Model` sources read as a model: the corpus apps' sources give the hashes Apple wrote into the
/// stores they made, and the mapping rules hold on small inline sources.
@Suite struct SwiftModelReaderTests {
    static let swiftData = Corpus.root.appendingPathComponent("swiftdata")
    static let cartKit = swiftData.appendingPathComponent("Karim-ezzedine__CartKit__CartKitSwiftData_v1")
    static let freezeRay = swiftData.appendingPathComponent("TrinsicVentures__FreezeRay__FreezeRayTestApp")

    func base64Hashes(_ model: ManagedObjectModel) -> [String: String] {
        VersionHasher.entityHashes(of: model).mapValues { Data($0).base64EncodedString() }
    }

    func read(_ text: String, version: String? = nil) throws -> LoadedModel {
        try SwiftModelReader.read([("Model.swift", text)], origin: URL(fileURLWithPath: "Model.swift"),
                                  version: version)
    }

    /// `NSStoreModelVersionHashes` of `LegacySwiftData/CartKitSwiftData_v1.sqlite`, written by SwiftData.
    @Test func cartKitSourcesGiveTheStoreHashes() throws {
        let loaded = try ModelLoader.load(Self.cartKit.appendingPathComponent("Models").path, swiftReader: SwiftModelReader.reader)
        #expect(loaded.format == .swiftSource)
        #expect(loaded.model.versionIdentifiers == ["1.0.0"])
        #expect(base64Hashes(loaded.model) == [
            "CartItemModel": "+LsPuwkCTWKueVQ7wDlABSGUbAcxKQVkz1wq3hrjSJ8=",
            "CartItemModifierModel": "LX2czhnKQgRzwVZomaR3+9xokM+gTW6f7GhrIBQCgXo=",
            "CartModel": "Opf+CabYyBfnkrB+8c9UmQVX1Qan26SBEVf/2HRp5ic=",
        ])
        let cart = try #require(loaded.model.entity(named: "CartModel"))
        #expect(cart.uniquenessConstraints == [["id"]])
        let items = try #require(cart.relationship(named: "items"))
        #expect(items.isToMany && items.inverseName == nil && items.deleteRule == .cascade && !items.isOptional)
    }

    /// FreezeRay's stores: 1.0.0 holds `DataV1.User`, 2.0.0 `DataV2.User`, chosen through the versioned schemas.
    @Test func freezeRayVersionsGiveEachStoreItsHashes() throws {
        let folder = Self.freezeRay.path
        let v1 = try ModelLoader.load(folder, version: "1.0.0", swiftReader: SwiftModelReader.reader)
        #expect(base64Hashes(v1.model) == ["User": "u/VOS6KCOojJ17OcBJRQf1kypPHC43idMJ9BdeWvZtI="])
        #expect(v1.model.versionIdentifiers == ["1.0.0"])
        #expect(v1.versionName == "AppSchemaV1")
        let v2 = try ModelLoader.load(folder, version: "AppSchemaV2", swiftReader: SwiftModelReader.reader)
        #expect(v2.model.versionIdentifiers == ["2.0.0"])
        #expect(v2.model.entity(named: "User")?.attributes.map(\.name) == ["name", "email", "createdAt"])
        // The latest version by default: the migration plan's last schema, with Post reached from User.
        let latest = try ModelLoader.load(folder, swiftReader: SwiftModelReader.reader)
        #expect(latest.versionName == "AppSchemaV3")
        #expect(latest.availableVersions == ["AppSchemaV1", "AppSchemaV2", "AppSchemaV3"])
        #expect(latest.model.entities.map(\.name).sorted() == ["Post", "User"])
        let posts = try #require(latest.model.entity(named: "User")?.relationship(named: "posts"))
        #expect(posts.inverseName == "author" && posts.isToMany && posts.isOptional)
        let versions = try ModelLoader.loadVersions(folder, swiftReader: SwiftModelReader.reader)
        #expect(versions.versions.map { $0.model.versionIdentifiers } == [["1.0.0"], ["2.0.0"], ["3.0.0"]])
    }

    @Test func typesMapAsSwiftDataMapsThem() throws {
        let loaded = try read("""
            import SwiftData
            @Model final class Item {
                var count = 0
                var small: Int16
                var ratio: Double? = 0.5
                var title: String = "untitled"
                var done: Bool = false
                var when: Date
                var blob: Data?
                var id: UUID
                var link: URL?
                var price: Decimal
                var tags: [String] = []
                @Transient var cache: String = ""
                var computed: Int { count * 2 }
                @Attribute(.externalStorage, originalName: "photo", hashModifier: "2") var image: Data?
                static var shared = 1
            }
            """)
        let item = try #require(loaded.model.entity(named: "Item"))
        let summary = item.attributes.map { "\($0.name):\($0.type.rawValue)\($0.isOptional ? "?" : "")" }
        #expect(summary == ["count:Integer 64", "small:Integer 16", "ratio:Double?", "title:String", "done:Boolean",
                            "when:Date", "blob:Binary?", "id:UUID", "link:URI?", "price:Decimal", "tags:Transformable",
                            "image:Binary?"])
        #expect(item.attributes.map(\.defaultValue) == ["0", nil, "0.5", "untitled", "NO", nil, nil, nil, nil, nil, nil, nil])
        let image = try #require(item.attribute(named: "image"))
        #expect(image.allowsExternalBinaryDataStorage && image.renamingIdentifier == "photo"
                && image.versionHashModifier == "2")
        #expect(item.attribute(named: "tags")?.valueTransformerName == "NSSecureUnarchiveFromData")
    }

    @Test func codableStructsAndEnumsBecomeComposites() throws {
        let loaded = try read("""
            struct Address: Codable { var street: String; var city: String?; var id: Int }
            enum Kind: String, Codable { case a, b }
            enum Folder: Codable { case systemAll, user }
            @Model class Person {
                var id: Int
                var home: Address?
                var kind: Kind
                var folder: Folder
                init() {}
            }
            """)
        let person = try #require(loaded.model.entity(named: "Person"))
        let home = try #require(person.attribute(named: "home"))
        #expect(home.type == .composite && home.isOptional && home.compositeName == "Address")
        #expect(home.compositeElements.map(\.name) == ["street", "city", "id"])
        // A struct's elements are all optional, whatever their Swift types (coredata-format.md §1.5).
        #expect(home.compositeElements.map(\.isOptional) == [true, true, true])
        // A raw-value enum's one element is named after the property.
        #expect(person.attribute(named: "kind")?.compositeElements.map { "\($0.name):\($0.type.rawValue):\($0.isOptional)" }
                == ["kind:String:true"])
        let folder = try #require(person.attribute(named: "folder"))
        #expect(folder.compositeElements.map { "\($0.name):\($0.type.rawValue):\($0.isOptional)" }
                == ["systemAll:String:true", "user:String:true"])
    }

    @Test func relationshipsUniquesAndIndexes() throws {
        let loaded = try read("""
            @Model class Author {
                #Unique<Author>([\\.first, \\.last])
                #Index<Author>([\\.last], [\\.first, \\.last])
                var first: String
                var last: String
                @Relationship(deleteRule: .cascade, inverse: \\Book.writer) var books: [Book] = []
                var favourite: Book?
            }
            @Model class Book {
                @Attribute(.unique) var isbn: String
                var writer: Author?
                var tags: [Tag] = []
            }
            @Model class Tag {
                var books: [Book] = []
            }
            @Model class Unused { var x: Int }
            let container = try ModelContainer(for: Author.self)
            """)
        #expect(loaded.model.entities.map(\.name) == ["Author", "Book", "Tag"])
        let author = try #require(loaded.model.entity(named: "Author"))
        #expect(author.uniquenessConstraints == [["first", "last"]])
        #expect(author.fetchIndexes.map(\.name) == ["SwiftDataIndexOnBinarylast", "SwiftDataIndexOnBinaryfirstlast"])
        #expect(author.relationship(named: "books")?.inverseName == "writer")
        #expect(author.relationship(named: "books")?.deleteRule == .cascade)
        // Author has two relationships to Book: `favourite` is left without an inverse.
        #expect(author.relationship(named: "favourite")?.inverseName == nil)
        #expect(author.relationship(named: "favourite")?.deleteRule == .nullify)
        // Book.tags ↔ Tag.books: the only pair, inferred; a many-to-many.
        #expect(loaded.model.entity(named: "Book")?.relationship(named: "tags")?.inverseName == "books")
        #expect(loaded.model.entity(named: "Book")?.uniquenessConstraints == [["isbn"]])
    }

    @Test func aFileThatDoesNotParseSaysWhereAndWhat() {
        #expect {
            try read("@Model class A {\n    var x: Int =\n}\n")
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == .malformedSwift && error.description
                == "Model.swift:2:17: expected an expression in a property declaration"
        }
    }

    /// Found by fuzz-swift-model (a timeout): 42 `[` in a row made swift-syntax's parser run for minutes.
    /// Deep bracket nesting is refused before parsing, at once; strings and comments do not count.
    @Test func deeplyNestedBracketsAreRefusedQuickly() throws {
        let deep = "@Model class A {\n    var x: " + String(repeating: "[", count: 42) + "Int\n}\n"
        #expect {
            try read(deep)
        } throws: { error in
            (error as? ModelError)?.description == "Model.swift:2:22: brackets nested more than 10 deep; cdstore reads "
                + "@Model sources with at most 10 levels of '['"
        }
        let quoted = "// " + String(repeating: "[", count: 40) + "\n@Model class A { var s: String = \""
            + String(repeating: "[", count: 40) + "\" }\n"
        #expect(try read(quoted).model.entities.map(\.name) == ["A"])
    }

    @Test func aTypeSwiftDataCannotStoreIsNamedWithWhy() {
        let cases: [(String, String)] = [
            ("struct P { var x: Int }\n@Model class A { var p: P }",
             "Model.swift:2:22: entity 'A', property 'p': 'p' has type 'P', which SwiftData cannot store: a struct must be Codable for SwiftData to store it, and these sources declare no conformance to Codable"),
            ("@Model class A { var pair: (Int, Int) }",
             "Model.swift:1:22: entity 'A', property 'pair': 'pair' has type '(Int, Int)', which SwiftData cannot store: a tuple has no stored form"),
            ("@Model class A { var m: Measurement<UnitLength> }",
             "Model.swift:1:22: entity 'A', property 'm': 'm' has type 'Measurement<UnitLength>', which SwiftData cannot store: a generic type has no single stored form"),
        ]
        for (source, message) in cases {
            #expect {
                try read(source)
            } throws: { error in
                guard let error = error as? ModelError else { return false }
                return error.code == .unsupportedSwiftType && error.description == message
            }
        }
    }
}
