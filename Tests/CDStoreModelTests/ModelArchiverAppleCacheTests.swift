@testable import CDStoreModel
import CDStoreEngine
import CDStoreTestSupport
import Foundation
import Testing

/// The classes and keys of the caches cdstore writes against those of the caches Apple wrote into the corpus
/// stores, for the same model versions.
@Suite struct ModelArchiverAppleCacheTests {
    /// For each class of an archive's objects: its `$classes` chain and every distinct set of keys its objects have.
    struct Shape: Equatable, CustomStringConvertible {
        var chains: [String: [String]] = [:]
        var keySets: [String: Set<[String]>] = [:]

        init(_ archive: KeyedArchive) {
            for index in 1..<archive.objects.count where archive.fields(index)["$class"] != nil {
                guard let name = archive.className(index) else { continue }
                chains[name] = archive.classChain(index)
                keySets[name, default: []].insert(archive.fields(index).keys.filter { $0 != "$class" }.sorted())
            }
        }

        var description: String {
            keySets.keys.sorted().map { name in
                "\(name) \(chains[name] ?? []): " + keySets[name]!.map { $0.joined(separator: ",") }.sorted().joined(separator: " | ")
            }.joined(separator: "\n")
        }

        /// Classes only in `self`, only in `other`, and classes whose chains or key sets differ.
        func differences(from other: Shape) -> [String] {
            var result: [String] = []
            for name in Set(keySets.keys).union(other.keySets.keys).sorted() {
                switch (keySets[name], other.keySets[name]) {
                case (nil, _?): result.append("only Apple: \(name)")
                case (_?, nil): result.append("only cdstore: \(name)")
                case let (mine?, theirs?):
                    if chains[name] != other.chains[name] { result.append("\(name): chain \(chains[name]!) vs \(other.chains[name]!)") }
                    for keys in mine.subtracting(theirs).sorted(by: { $0.description < $1.description }) {
                        result.append("\(name): only cdstore writes {\(keys.joined(separator: ", "))}")
                    }
                    for keys in theirs.subtracting(mine).sorted(by: { $0.description < $1.description }) {
                        result.append("\(name): only Apple writes {\(keys.joined(separator: ", "))}")
                    }
                default: break
                }
            }
            return result
        }
    }

    /// Every value of every entity and property, by "Entity.key" and "Entity.property.key", with references
    /// described: strings as text, entities and properties by name, collections by content (dictionary keys and
    /// sets sorted: Apple's are in hash-table order), other objects by class and fields; scalars as written.
    /// `skippingInherited` leaves out the properties a sub-entity inherits (a `.mom` lists own properties only).
    static func values(_ archive: KeyedArchive, skippingInherited: Bool = false) -> [String: String] {
        func name(_ index: Int) -> String? {
            if archive.className(index) == "NSManagedObjectModel" { return "the model" }
            let f = archive.fields(index)
            if let entity = archive.string(f["NSEntityName"]), archive.className(index) == "NSEntityDescription" {
                return "entity " + entity
            }
            if let property = archive.string(f["NSPropertyName"]), let owner = archive.reference(f["NSEntity"]),
               archive.className(owner) == "NSEntityDescription" {
                return "property " + (archive.string(archive.fields(owner)["NSEntityName"]) ?? "?") + "." + property
            }
            return nil
        }
        func describe(_ value: PropertyListValue?, _ depth: Int = 0) -> String {
            guard let value else { return "absent" }
            guard case .uid(let n) = value else { return "\(value)" }
            if n == 0 { return "nil" }
            if let text = archive.string(value) { return "\"" + text + "\"" }
            if let named = name(n) { return named }
            let chain = archive.classChain(n)
            guard depth < 8 else { return "<\(chain.first ?? "?")>" }
            if chain.contains("NSDictionary") {
                let entries = (archive.dictionary(value) ?? []).map { "\($0.key)=\(describe($0.value, depth + 1))" }
                return "{" + entries.sorted().joined(separator: ", ") + "}"
            }
            if chain.contains("NSArray") || chain.contains("NSSet") {
                let items = (archive.array(value) ?? []).map { describe($0, depth + 1) }
                return "[" + (chain.contains("NSSet") ? items.sorted() : items).joined(separator: ", ") + "]"
            }
            let fields = archive.fields(n)
            if fields["$class"] != nil {
                let inner = fields.keys.filter { $0 != "$class" }.sorted().map { key in
                    // An index element points back at its index: name the back reference only.
                    key == "NSFetchIndexDescription" ? key : "\(key)=\(describe(fields[key], depth + 1))"
                }
                return "<\(chain.first ?? "?") " + inner.joined(separator: ", ") + ">"
            }
            return archive.resolve(value).map { "\($0)" } ?? "nil"
        }
        var result: [String: String] = [:]
        for (entity, value) in archive.dictionary(archive.fields(archive.root)["NSEntities"]) ?? [] {
            guard let index = archive.reference(value) else { continue }
            let fields = archive.fields(index)
            var inherited: Set<String> = []
            var parent = archive.reference(fields["NSSuperentity"])
            while skippingInherited, let p = parent {
                for (key, _) in archive.dictionary(archive.fields(p)["NSProperties"]) ?? [] { inherited.insert(key) }
                parent = archive.reference(archive.fields(p)["NSSuperentity"])
            }
            for (key, item) in fields where key != "$class" && key != "NSProperties" { result["\(entity).\(key)"] = describe(item) }
            let properties = (archive.dictionary(fields["NSProperties"]) ?? []).filter { !inherited.contains($0.key) }
            result["\(entity).NSProperties"] = properties.map(\.key).sorted().joined(separator: ",")
            for (property, item) in properties {
                guard let p = archive.reference(item) else { continue }
                for (key, field) in archive.fields(p) where key != "$class" { result["\(entity).\(property).\(key)"] = describe(field) }
            }
        }
        return result
    }

    static func archives(store: String, model: String) throws -> (cdstore: KeyedArchive, apple: KeyedArchive) {
        let cache = try #require(try ModelCacheTests.readCache(Corpus.stores.appendingPathComponent(store)))
        let apple = try KeyedArchive(data: try RawInflate.inflate(cache.blob))
        let loaded = try ModelLoader.load(Corpus.models.appendingPathComponent(model).path)
        let ours = try KeyedArchive(data: try ModelArchiver.archive(loaded.model, predicates: PredicateArchiver()).data)
        return (ours, apple)
    }

    static func shapes(store: String, model: String) throws -> (cdstore: Shape, apple: Shape) {
        let (ours, apple) = try archives(store: store, model: model)
        return (Shape(ours), Shape(apple))
    }

    static func differences(_ ours: [String: String], _ apple: [String: String]) -> [String] {
        Set(ours.keys).union(apple.keys).sorted().compactMap { key in
            ours[key] == apple[key] ? nil : "\(key): cdstore \(ours[key] ?? "absent"), Apple \(apple[key] ?? "absent")"
        }
    }

    @Test func cartStorageMatchesApplesCache() throws {
        let store = "Karim-ezzedine__CartKit__CartStorage_v1/CartStorage_v1.sqlite"
        let archives = try Self.archives(store: store, model: "Karim-ezzedine__CartKit__CartStorage-48ffe53.xcdatamodeld/CartStorage.xcdatamodel")
        #expect(Self.differences(Self.values(archives.cdstore), Self.values(archives.apple)) == [])
        let (ours, apple) = try Self.shapes(store: "Karim-ezzedine__CartKit__CartStorage_v1/CartStorage_v1.sqlite",
                                            model: "Karim-ezzedine__CartKit__CartStorage-48ffe53.xcdatamodeld/CartStorage.xcdatamodel")
        #expect(ours.differences(from: apple) == [], "cdstore:\n\(ours)\nApple:\n\(apple)")
    }

    @Test func contentfulTestMatchesApplesCache() throws {
        let archives = try Self.archives(store: "contentful__contentful-persistence.swift__Test/Test.sqlite",
                                         model: "contentful__contentful-persistence.swift__Test.xcdatamodeld/Test.xcdatamodel")
        #expect(Self.differences(Self.values(archives.cdstore), Self.values(archives.apple)) == [])
        let (ours, apple) = try Self.shapes(store: "contentful__contentful-persistence.swift__Test/Test.sqlite",
                                            model: "contentful__contentful-persistence.swift__Test.xcdatamodeld/Test.xcdatamodel")
        #expect(ours.differences(from: apple) == [], "cdstore:\n\(ours)\nApple:\n\(apple)")
    }

    /// TestModel.sqlite was written by an older Core Data (framework 637): the version identifiers are an
    /// NSMutableSet and an entity's renaming identifier an NSMutableString there. cdstore writes the newer caches'
    /// NSSet and plain string (CartStorage_v1, framework 1523; Test, 1327). It also writes nil rather than an empty
    /// dictionary for an entity without sub-entities.
    @Test func testModelMatchesApplesCacheButForOlderCollectionClasses() throws {
        let archives = try Self.archives(store: "bignerdranch__CoreDataStack__TestModel/TestModel.sqlite",
                                         model: "bignerdranch__CoreDataStack__Sample.xcdatamodeld/TestModel.xcdatamodel")
        #expect(Self.differences(Self.values(archives.cdstore), Self.values(archives.apple))
                == ["Author.NSSubentities: cdstore {}, Apple nil", "Book.NSSubentities: cdstore {}, Apple nil"])
        let (ours, apple) = try Self.shapes(store: "bignerdranch__CoreDataStack__TestModel/TestModel.sqlite",
                                            model: "bignerdranch__CoreDataStack__Sample.xcdatamodeld/TestModel.xcdatamodel")
        #expect(ours.differences(from: apple) == ["only Apple: NSMutableSet", "only Apple: NSMutableString", "only cdstore: NSSet"],
                "cdstore:\n\(ours)\nApple:\n\(apple)")
    }

    /// No corpus cache has derived attributes, fetch requests, fetched properties, fetch indexes, uniqueness
    /// constraints, configurations or abstract entities; SwiftGen's compiled `Model 2.mom` has them all, with
    /// the classes and keys a cache uses. Every value of its own properties is the same (inherited copies left
    /// out: a `.mom` has none), predicates, expressions and fetch request flags included. The differences are those between a `.mom` and a cache — the cache's
    /// `NSKnownKeysDictionary1` entity dictionary, momc's compiler version keys — and one of momc's: it also marks
    /// `NewEntity.identifier`, covered by a one-element fetch index, `NSIsIndexed`, which the model does not say
    /// (cdstore writes the model's flag, so that a store laid out from its cache gets no extra index).
    @Test func swiftGenModelMatchesTheCompiledModelsClassesAndKeys() throws {
        let momd = Corpus.compiled.appendingPathComponent("SwiftGen__SwiftGen__Model.momd")
        let mom = try KeyedArchive(data: try Data(contentsOf: momd.appendingPathComponent("Model 2.mom")))
        let loaded = try ModelLoader.load(Corpus.models.appendingPathComponent("SwiftGen__SwiftGen__Model.xcdatamodeld").path,
                                          version: "Model 2")
        let ours = Shape(try KeyedArchive(data: try ModelArchiver.archive(loaded.model, predicates: PredicateArchiver()).data))
        let apple = Shape(mom)
        let ourArchive = try KeyedArchive(data: try ModelArchiver.archive(loaded.model, predicates: PredicateArchiver()).data)
        let valueDifferences = Self.differences(Self.values(ourArchive, skippingInherited: true), Self.values(mom))
        #expect(valueDifferences == ["NewEntity.identifier.NSIsIndexed: cdstore absent, Apple bool(true)"])
        let model = "NSConfigurations, NSEntities, NSFetchRequestTemplates, NSVersionIdentifiers"
        #expect(ours.differences(from: apple) == [
            "NSAttributeDescription: only Apple writes {NSAttributeType, NSAttributeValueClassName, NSDefaultValue, NSEntity, "
                + "NSFlagsKey, NSIsIndexed, NSIsOptional, NSPropertyName, NSRenamingIdentifier, NSValueTransformerName, _P}",
            "only cdstore: NSKnownKeysDictionary1",
            "only cdstore: NSKnownKeysMappingStrategy1",
            "NSManagedObjectModel: only cdstore writes {\(model)}",
            "NSManagedObjectModel: only Apple writes {CDMCompilerToolVersion, CDMCompilerXcodeVersion, \(model)}",
        ], "cdstore:\n\(ours)\nApple:\n\(apple)")
    }
}
