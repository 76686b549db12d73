import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// A model read back from the tables of a store that carries none (``TableModelInference``).
@Suite("Inferring a model from the tables")
struct TableModelInferenceTests {
    /// Items (Books and Films) on ordered shelves, tagged many-to-many, lent by loans; shelves have labels (tags,
    /// a to-many without inverse).
    static let libraryModel: ManagedObjectModel = {
        func attribute(_ name: String, _ type: AttributeType) -> Attribute { Attribute(name: name, type: type, isOptional: true) }
        func relationship(_ name: String, _ destination: String, inverse: String? = nil, toMany: Bool = false,
                          ordered: Bool = false) -> Relationship {
            var r = Relationship(name: name, destination: destination, inverseName: inverse, isToMany: toMany)
            r.isOrdered = ordered
            r.isOptional = true
            return r
        }
        return ManagedObjectModel(entities: [
            Entity(name: "Item", attributes: [attribute("title", .string)],
                   relationships: [relationship("shelf", "Shelf", inverse: "items"),
                                   relationship("tags", "Tag", inverse: "items", toMany: true)]),
            Entity(name: "Book", parentName: "Item", attributes: [attribute("pages", .integer32)]),
            Entity(name: "Film", parentName: "Item", attributes: [attribute("minutes", .double)]),
            Entity(name: "Loan", attributes: [attribute("due", .date)], relationships: [relationship("item", "Item")]),
            Entity(name: "Shelf", attributes: [attribute("name", .string)],
                   relationships: [relationship("items", "Item", inverse: "shelf", toMany: true, ordered: true),
                                   relationship("labels", "Tag", toMany: true)]),
            Entity(name: "Tag", attributes: [attribute("name", .string)],
                   relationships: [relationship("items", "Item", inverse: "tags", toMany: true)]),
        ])
    }()

    /// What the tables of a library store give back: upper-case names, every property optional, sub-entity
    /// columns on the sub-entity whose rows fill them, the ordered to-many named after its to-one.
    static let inferredLibraryModel: ManagedObjectModel = {
        func attribute(_ name: String, _ type: AttributeType) -> Attribute { Attribute(name: name, type: type, isOptional: true) }
        func relationship(_ name: String, _ destination: String, inverse: String? = nil, toMany: Bool = false,
                          ordered: Bool = false) -> Relationship {
            var r = Relationship(name: name, destination: destination, inverseName: inverse, isToMany: toMany)
            r.isOrdered = ordered
            r.isOptional = true
            return r
        }
        return ManagedObjectModel(entities: [
            Entity(name: "Item", attributes: [attribute("TITLE", .string)],
                   relationships: [relationship("SHELF", "Shelf", inverse: "ITEM_SHELF"),
                                   relationship("TAGS", "Tag", inverse: "ITEMS", toMany: true)]),
            Entity(name: "Book", parentName: "Item", attributes: [attribute("PAGES", .integer64)]),
            Entity(name: "Film", parentName: "Item", attributes: [attribute("MINUTES", .double)]),
            Entity(name: "Loan", attributes: [attribute("DUE", .date)], relationships: [relationship("ITEM", "Item")]),
            Entity(name: "Shelf", attributes: [attribute("NAME", .string)],
                   relationships: [relationship("ITEM_SHELF", "Item", inverse: "SHELF", toMany: true, ordered: true),
                                   relationship("LABELS", "Tag", toMany: true)]),
            Entity(name: "Tag", attributes: [attribute("NAME", .string)],
                   relationships: [relationship("ITEMS", "Item", inverse: "TAGS", toMany: true)]),
        ])
    }()

    /// A library store with a book and a film on one shelf, a lent book, two tags; then its model removed.
    static func libraryStore() throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("Library.sqlite").path
        let store = try Store.open(at: path, model: libraryModel)
        let shelf = #"{"name": "S1", "labels": [{"name": "new"}], "items": [{"_entity": "Book", "title": "Dune", "pages": 412, "tags": [{"name": "sf"}]}, {"_entity": "Film", "title": "Alien", "minutes": 117.5}]}"#
        let loan = #"{"due": "2026-03-01T00:00:00Z", "item": {"_entity": "Book", "title": "Emma", "pages": 320}}"#
        for (json, entity) in [(shelf, "Shelf"), (loan, "Loan")] {
            guard case .object(let fields) = try JSONReader.parse(json) else { throw StoreError(.invalidInput, "fixture") }
            try store.insert([InputRecord(fields: fields)], into: entity)
        }
        try store.close()
        try removeModel(from: path)
        return path
    }

    /// Leaves a store with neither cdstore's JSON model nor a `Z_MODELCACHE` row.
    static func removeModel(from path: String) throws {
        try DatabaseQueue(path: path).write { db in
            var metadata = try StoreMetadata.decode(uuid: "", plist: try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            metadata.plist?.removeValue(forKey: StoreMetadata.cachedModelKey)
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try metadata.encodedPlist()])
            if try db.tableExists("Z_MODELCACHE") { try db.execute(sql: "DELETE FROM Z_MODELCACHE") }
        }
    }

    static func json(_ model: ManagedObjectModel) -> String {
        String(decoding: (try? JSONModelCodec.encode(model)) ?? Data(), as: UTF8.self)
    }

    @Test func infersInheritanceToOnesOrderedToManysAndJoinTables() throws {
        let inferred = try TableModelInference.infer(storeAt: try Self.libraryStore())
        #expect(Self.json(inferred.model) == Self.json(Self.inferredLibraryModel))
        #expect(inferred.model == Self.inferredLibraryModel)
        #expect(inferred.ancillaryEntities.isEmpty && inferred.entitiesLeftOut.isEmpty && inferred.undeterminedForeignKeys.isEmpty)
    }

    /// The inferred layout names exactly the columns Core Data's layout of the real model gives.
    @Test func theLayoutIsTheStoresLayout() throws {
        let inferred = try TableModelInference.infer(storeAt: try Self.libraryStore()).layout
        let real = StoreLayout(model: Self.libraryModel)
        func upper(_ name: String) -> String { name.uppercased() }
        for entity in real.entities {
            let other = try #require(inferred.entity(named: entity.name))
            #expect(other.number == entity.number && other.superNumber == entity.superNumber
                    && other.subtreeMax == entity.subtreeMax && other.table == entity.table, "\(entity.name)")
            #expect(Dictionary(uniqueKeysWithValues: entity.attributeColumns.map { (upper($0.key), $0.value) }) == other.attributeColumns,
                    "\(entity.name)")
            #expect(Dictionary(uniqueKeysWithValues: entity.toOnes.map { (upper($0.key), $0.value) }) == other.toOnes, "\(entity.name)")
            #expect(Array(entity.hiddenToOnes.values) == Array(other.hiddenToOnes.values), "\(entity.name)")
        }
        // The to-manys: Shelf.items is read back as ITEM_SHELF; the rest keep their (upper-case) names.
        #expect(inferred.entity(named: "Shelf")?.toManys == [
            "ITEM_SHELF": real.entity(named: "Shelf")!.toManys["items"]!, "LABELS": real.entity(named: "Shelf")!.toManys["labels"]!,
        ])
        #expect(inferred.entity(named: "Book")?.toManys == ["TAGS": real.entity(named: "Book")!.toManys["tags"]!])
        #expect(inferred.entity(named: "Tag")?.toManys == ["ITEMS": real.entity(named: "Tag")!.toManys["items"]!])
        #expect(inferred.tables.map(\.name) == real.tables.map(\.name))
        for table in real.tables {
            #expect(Set(inferred.table(named: table.name)?.columns.map(\.name) ?? []) == Set(table.columns.map(\.name)), "\(table.name)")
        }
    }

    /// Opened without a model, the store reads through the inferred one, says so once, and refuses writes.
    @Test func readsThroughTheInferredModelAndRefusesWrites() throws {
        let store = try Store.open(at: try Self.libraryStore(), loaded: nil)
        #expect(store.modelSource == .inferredFromTables)
        // cdstore writes Z_MODELCACHE (decision 0008); removeModel left the table without its row.
        #expect(store.warnings.map(\.description) == ["the store's Z_MODELCACHE is empty and none was given: the model was inferred "
                                   + "from the tables (names as the columns give them); reading works, writing needs a model"])
        let books = try store.fetch(ObjectFetchRequest(entity: "Book", predicate: try PredicateParserShim.parse("PAGES > 400"),
                                                       relationships: .none))
        #expect(books.map(\.entity) == ["Book"] && books.first?["TITLE"] == .string("Dune") && books.first?["PAGES"] == .integer(412))
        let shelves = try store.fetch(ObjectFetchRequest(entity: "Shelf", relationships: .counts))
        #expect(shelves.first?["ITEM_SHELF"] == .integer(2) && shelves.first?["LABELS"] == .integer(1))
        #expect(try store.count(ObjectFetchRequest(entity: "Item", predicate: try PredicateParserShim.parse("ANY TAGS.NAME == 'sf'"))) == 1)
        #expect(try store.count(ObjectFetchRequest(entity: "Loan", predicate: try PredicateParserShim.parse("ITEM.TITLE == 'Emma'"))) == 1)
        #expect(try store.verify() == [])
        let error = #expect(throws: StoreError.self) {
            try store.insert([InputRecord(fields: [("NAME", .string("x"))])], into: "Tag")
        }
        #expect(error?.code == .modelInferred)
        #expect(error?.description == "the store carries no model, and the one inferred from its tables is enough to read it "
                + "but not to write: give the model the store was saved with")
        #expect(try store.count(ObjectFetchRequest(entity: "Tag")) == 2)
    }

    /// A NULL, empty or unreadable model cache is no model either.
    @Test(arguments: ["UPDATE Z_MODELCACHE SET Z_CONTENT = NULL", "UPDATE Z_MODELCACHE SET Z_CONTENT = x''",
                      "UPDATE Z_MODELCACHE SET Z_CONTENT = x'00112233'"])
    func aModelCacheThatGivesNoModelIsInferredAround(sql: String) throws {
        let path = try Self.libraryStore()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (NULL)")
            try db.execute(sql: sql)
        }
        let store = try Store.open(at: path, loaded: nil, options: .init(readOnly: true))
        #expect(store.modelSource == .inferredFromTables && store.warnings.count == 1, "\(store.warnings)")
        #expect(store.model == Self.inferredLibraryModel)
    }

    /// Every corpus store, its model cache removed, infers a model whose layout names only real tables and
    /// columns, and every entity table and join table is reached.
    @Test(arguments: try Corpus.manifestItems(kind: "store").compactMap { $0["path"] as? String })
    func everyCorpusStoreInfersAModelThatFitsItsTables(path: String) throws {
        let copy = try Corpus.copyStore(Corpus.root.appendingPathComponent(path)).path
        try Self.removeModel(from: copy)
        let inferred = try TableModelInference.infer(storeAt: copy)
        let store = try Store.open(at: copy, loaded: nil, options: .init(readOnly: true))
        #expect(store.model == inferred.model)
        let tables = try DatabaseQueue(path: copy).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
                .reduce(into: [String: Set<String>]()) { result, table in
                    result[table] = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String })
                }
        }
        #expect(Set(inferred.layout.tables.map(\.name)) == Set(tables.keys), "\(path)")
        for entity in inferred.layout.entities {
            var columns = Array(entity.attributeColumns.values)
            for toOne in Array(entity.toOnes.values) + Array(entity.hiddenToOnes.values) {
                columns += [toOne.foreignKey] + [toOne.entityKey, toOne.orderKey].compactMap { $0 }
            }
            #expect(Set(columns).isSubset(of: tables[entity.table] ?? []), "\(path): \(entity.name)")
            for case .joinTable(let table, let source, let destination, let order) in entity.toManys.values {
                #expect(Set([source, destination] + [order].compactMap { $0 }).isSubset(of: tables[table] ?? []), "\(path): \(table)")
            }
        }
        // Artsy 1.3 and 2.0 hold rows another tool wrote: a dangling artist, a Z_MAX behind the largest key.
        #expect(try store.verify().filter { $0.severity == .problem }.map(\.kind)
                    .allSatisfy { $0 == .danglingReference || $0 == .maxPrimaryKey }, "\(path)")
    }

    /// What the corpus's SwiftData store gives: its to-manys without inverse come back from Core Data's hidden
    /// columns (`Z3ITEMS`, `Z1MODIFIERS`), its history entities are set apart.
    @Test func theSwiftDataStoreOfTheCorpus() throws {
        let copy = try Corpus.copyStore(Corpus.stores.appendingPathComponent(
            "Karim-ezzedine__CartKit__CartKitSwiftData_v1/CartKitSwiftData_v1.sqlite")).path
        try Self.removeModel(from: copy)
        let inferred = try TableModelInference.infer(storeAt: copy)
        #expect(inferred.ancillaryEntities.map(\.table) == ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"])
        let relationships = inferred.model.entities.flatMap { entity in
            entity.relationships.map { "\(entity.name).\($0.name) -> \($0.destination)\($0.isToMany ? " (to-many)" : "")" }
        }
        #expect(relationships == ["CartItemModel.MODIFIERS -> CartItemModifierModel (to-many)", "CartModel.ITEMS -> CartItemModel (to-many)"])
        #expect(inferred.layout.entity(named: "CartModel")?.toManys["ITEMS"]
                == .foreignKey(table: "ZCARTITEMMODEL", foreignKey: "Z3ITEMS", entityKey: nil, orderKey: nil))
    }

    /// A foreign key named like no entity (`owner` → Person) is told by its values when they fit one entity
    /// only; with no values it stays a number, listed as undetermined.
    @Test(arguments: [true, false])
    func aForeignKeyNamedLikeNoEntityIsToldByItsValues(filled: Bool) throws {
        var owner = Relationship(name: "owner", destination: "Person")
        owner.isOptional = true
        let model = ManagedObjectModel(entities: [
            Entity(name: "Person", attributes: [Attribute(name: "name", type: .string, isOptional: true)]),
            Entity(name: "Pet", attributes: [Attribute(name: "name", type: .string, isOptional: true)], relationships: [owner]),
        ])
        let path = try temporaryDirectory().appendingPathComponent("Pets.sqlite").path
        let store = try Store.open(at: path, model: model)
        if filled {
            try store.insert(["Ann", "Bo", "Cy"].map { InputRecord(fields: [("name", .string($0))]) }, into: "Person")
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: "INSERT INTO ZPET (Z_PK, Z_ENT, Z_OPT, ZNAME, ZOWNER) VALUES (1, 2, 1, 'Rex', 3), (2, 2, 1, 'Tom', NULL)")
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'Pet'")
            }
        }
        try store.close()
        try Self.removeModel(from: path)
        let inferred = try TableModelInference.infer(storeAt: path)
        let pet = try #require(inferred.model.entity(named: "Pet"))
        if filled {
            #expect(pet.relationships.map(\.name) == ["OWNER"] && pet.relationships.first?.destination == "Person")
            #expect(inferred.undeterminedForeignKeys.isEmpty)
        } else {
            #expect(pet.relationships.isEmpty && pet.attribute(named: "OWNER")?.type == .integer64)
            #expect(inferred.undeterminedForeignKeys == ["ZPET.ZOWNER"])
        }
    }

    @Test(arguments: [("INTEGER", AttributeType.integer64), ("FLOAT", .double), ("DECIMAL", .decimal), ("VARCHAR", .string),
                      ("TIMESTAMP", .date), ("BLOB", .binary), ("VARCHAR(255)", .string), ("REAL", .double),
                      ("NUMERIC", .decimal), ("", .binary)] as [(String, AttributeType)])
    func declaredTypesGiveAttributeTypes(declared: String, type: AttributeType) {
        #expect(TableInference.attributeType(declared: declared) == type)
    }
}
