import CDStoreModel
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// The meanings of ``ToManyLayout`` and ``ToOneLayout`` checked on corpus stores that hold data: the column
/// called `sourceColumn` must hold primary keys of the declaring side's objects, and so on (§1.6).
@Suite("Relationship layout semantics on stores with data")
struct LayoutDataTests {
    /// Primary keys of the rows of `entity` and its sub-entities.
    static func primaryKeys(_ db: Database, _ entity: EntityLayout) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(entity.table) WHERE Z_ENT BETWEEN ? AND ?",
                               arguments: [entity.number, entity.subtreeMax]))
    }

    static func values(_ db: Database, _ column: String, in table: String) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db, sql: "SELECT \(column) FROM \(table) WHERE \(column) IS NOT NULL"))
    }

    struct Outcome {
        var checked = 0
        /// Relationships whose rows would not fit if source and destination columns were swapped.
        var discriminating = 0
    }

    /// Checks every to-many of every entity of `store` against the rows; returns how many were checked.
    static func check(_ store: LayoutCorpus.StoreItem) throws -> Outcome {
        let model = try ModelLoader.load(LayoutCorpus.folder.appendingPathComponent(store.modelVersion).path).model
        let layout = StoreLayout(model: model)
        let (queue, directory) = try LayoutCorpus.openCopy(of: store)
        defer { try? FileManager.default.removeItem(at: directory) }
        var outcome = Outcome()
        try queue.read { db in
            for entity in layout.entities {
                guard let modelEntity = model.entity(named: entity.name) else { continue }
                let own = try primaryKeys(db, entity)
                for (name, storage) in entity.toManys {
                    guard let relationship = model.relationship(name, of: modelEntity),
                          let destination = layout.entity(named: relationship.destination) else { continue }
                    let targets = try primaryKeys(db, destination)
                    switch storage {
                    case .joinTable(let table, let sourceColumn, let destinationColumn, _):
                        let sources = try values(db, sourceColumn, in: table)
                        let destinations = try values(db, destinationColumn, in: table)
                        guard !sources.isEmpty else { continue }
                        outcome.checked += 1
                        // Rows may also link sub-entity objects of a sibling declaring the inverse; a row's
                        // source must at least be a row of this entity's table.
                        let sourceTable = try Set(Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(entity.table)"))
                        #expect(sources.isSubset(of: sourceTable), "\(store.name) \(entity.name).\(name) source \(sourceColumn)")
                        #expect(destinations.isSubset(of: targets),
                                "\(store.name) \(entity.name).\(name) destination \(destinationColumn)")
                        if !destinations.isSubset(of: own) || !sources.isSubset(of: targets) {
                            outcome.discriminating += 1
                        }
                    case .foreignKey(let table, let foreignKey, _, _):
                        let keys = try values(db, foreignKey, in: table)
                        guard !keys.isEmpty else { continue }
                        outcome.checked += 1
                        #expect(keys.isSubset(of: own), "\(store.name) \(entity.name).\(name) \(table).\(foreignKey)")
                    }
                }
            }
        }
        try queue.close()
        return outcome
    }

    @Test("Join-table and foreign-key columns hold the objects the layout says", arguments: [
        "ArtsyPartner_1.4.sqlite", "oss_stubbed_data.sqlite", "ArtsyPartner_1.3.5.sqlite",
    ])
    func semantics(_ storeName: String) throws {
        let store = try #require(LayoutCorpus.stores().first { $0.name == storeName })
        let outcome = try Self.check(store)
        #expect(outcome.checked >= 2, "\(storeName): \(outcome.checked) relationships with rows")
        #expect(outcome.discriminating >= 1, "\(storeName): swapping the join columns must be detectable")
    }

    @Test("Album.artworks in Artsy 1.4: Z_1COLLECTIONS holds album keys, Z_3ARTWORKS artwork keys")
    func albumArtworks() throws {
        let store = try #require(LayoutCorpus.stores().first { $0.name == "ArtsyPartner_1.4.sqlite" })
        let model = try ModelLoader.load(LayoutCorpus.folder.appendingPathComponent(store.modelVersion).path).model
        let layout = StoreLayout(model: model)
        #expect(layout.entity(named: "Album")?.toManys["artworks"]
                == .joinTable(table: "Z_1ARTWORKS", sourceColumn: "Z_1COLLECTIONS", destinationColumn: "Z_3ARTWORKS",
                              orderColumn: nil))
        #expect(layout.entity(named: "Artwork")?.toManys["collections"]
                == .joinTable(table: "Z_1ARTWORKS", sourceColumn: "Z_3ARTWORKS", destinationColumn: "Z_1COLLECTIONS",
                              orderColumn: nil))
        let (queue, directory) = try LayoutCorpus.openCopy(of: store)
        defer { try? FileManager.default.removeItem(at: directory) }
        try queue.read { db in
            let albums = try Set(Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZALBUM"))
            let linked = try Set(Int64.fetchAll(db, sql: "SELECT Z_1COLLECTIONS FROM Z_1ARTWORKS"))
            #expect(!linked.isEmpty && linked.isSubset(of: albums))
            let artworks = try Set(Int64.fetchAll(db, sql: "SELECT Z_3ARTWORKS FROM Z_1ARTWORKS"))
            #expect(!artworks.isSubset(of: albums), "artwork keys go beyond the album keys, so the test discriminates")
        }
        try queue.close()
    }
}
