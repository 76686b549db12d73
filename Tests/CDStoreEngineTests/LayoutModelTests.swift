import CDStoreModel
import Testing
@testable import CDStoreEngine

/// Whole layouts of small models built in code: the worked examples of coredata-format.md §1.6 and §1.11 and
/// the relationship cases no corpus store has.
@Suite("Store layout of models built in code")
struct LayoutModelTests {
    static func toMany(_ name: String, _ destination: String, inverse: String? = nil,
                       ordered: Bool = false) -> Relationship {
        var relationship = Relationship(name: name, destination: destination, inverseName: inverse, isToMany: true)
        relationship.isOrdered = ordered
        return relationship
    }

    static func toOne(_ name: String, _ destination: String, inverse: String? = nil) -> Relationship {
        Relationship(name: name, destination: destination, inverseName: inverse)
    }

    static func transient(_ attribute: Attribute) -> Attribute {
        var attribute = attribute
        attribute.isTransient = true
        return attribute
    }

    @Test("§1.11 SampleModel: exact DDL, indexes and entity numbers")
    func sampleModel() {
        var car = Entity(name: "Car", attributes: [
            Attribute(name: "color", type: .transformable),
            Self.transient(Attribute(name: "currentDrivingSpeed", type: .integer64)),
            Attribute(name: "maker", type: .string), Attribute(name: "model", type: .string),
            Attribute(name: "numberPlate", type: .string), Attribute(name: "markedForDeletionAsOf", type: .date),
        ], relationships: [Self.toOne("owner", "Person", inverse: "cars")])
        car.uniquenessConstraints = [["numberPlate"]]
        var person = Entity(name: "Person", attributes: [
            Attribute(name: "firstName", type: .string), Attribute(name: "lastName", type: .string),
            Attribute(name: "id", type: .uuid), Attribute(name: "updatedAt", type: .date),
            Self.transient(Attribute(name: "isDriving", type: .boolean)),
        ], relationships: [Self.toMany("cars", "Car", inverse: "owner")])
        person.uniquenessConstraints = [["lastName", "firstName"]]
        let model = ManagedObjectModel(entities: [
            person, Entity(name: "SportCar", parentName: "Car"),
            Entity(name: "ExpensiveSportCar", parentName: "SportCar",
                   attributes: [Attribute(name: "isLimitedEdition", type: .boolean)]),
            car,
        ])
        let layout = StoreLayout(model: model)
        #expect(layout.entities.map { "\($0.number) \($0.name) \($0.superNumber)" }
                == ["1 Car 0", "2 SportCar 1", "3 ExpensiveSportCar 2", "4 Person 0"])
        #expect(layout.createStatements == [
            "CREATE TABLE ZCAR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, "
                + "ZISLIMITEDEDITION INTEGER, ZMARKEDFORDELETIONASOF TIMESTAMP, ZMAKER VARCHAR, ZMODEL VARCHAR, "
                + "ZNUMBERPLATE VARCHAR, ZCOLOR BLOB )",
            "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUPDATEDAT TIMESTAMP, "
                + "ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR, ZID BLOB )",
            "CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER)",
            "CREATE INDEX ZCAR_Z_ENT_INDEX ON ZCAR (Z_ENT)",
            "CREATE UNIQUE INDEX Z_Car_UNIQUE_numberPlate ON ZCAR (ZNUMBERPLATE COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Person_UNIQUE_firstName_lastName ON ZPERSON "
                + "(ZFIRSTNAME COLLATE BINARY ASC, ZLASTNAME COLLATE BINARY ASC)",
        ])
        let expensive = layout.entity(named: "ExpensiveSportCar")
        #expect(expensive?.attributeColumns == ["color": "ZCOLOR", "maker": "ZMAKER", "model": "ZMODEL",
                                                "numberPlate": "ZNUMBERPLATE",
                                                "markedForDeletionAsOf": "ZMARKEDFORDELETIONASOF",
                                                "isLimitedEdition": "ZISLIMITEDEDITION"])
        #expect(expensive?.toOnes["owner"] == ToOneLayout(destination: "Person", foreignKey: "ZOWNER",
                                                          entityKey: nil, orderKey: nil))
        #expect(layout.entity(named: "Person")?.toManys
                == ["cars": .foreignKey(table: "ZCAR", foreignKey: "ZOWNER", entityKey: nil, orderKey: nil)])
        #expect(layout.entity(named: "Person")?.attributeColumns["isDriving"] == nil)
    }

    /// The bookmarks store of §1.6: `favorites` (ordered) ↔ `favoriteFolders` on one entity.
    static func bookmarks() -> ManagedObjectModel {
        ManagedObjectModel(entities: [Entity(name: "BookmarkEntity", attributes: [
            Attribute(name: "title", type: .string), Attribute(name: "url", type: .string),
            Attribute(name: "dateAdded", type: .date), Attribute(name: "guid", type: .uuid),
            Attribute(name: "isFolder", type: .boolean), Attribute(name: "isFavorite", type: .boolean),
        ], relationships: [
            toOne("parent", "BookmarkEntity", inverse: "children"),
            toMany("children", "BookmarkEntity", inverse: "parent", ordered: true),
            toMany("favorites", "BookmarkEntity", inverse: "favoriteFolders", ordered: true),
            toMany("favoriteFolders", "BookmarkEntity", inverse: "favorites"),
        ])])
    }

    @Test("§1.6 worked example: the hash order, not the name, picks Z_1FAVORITES")
    func bookmarksJoinTable() throws {
        let layout = StoreLayout(model: Self.bookmarks())
        let join = try #require(layout.table(named: "Z_1FAVORITES"))
        #expect(join.createSQL == "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, "
                + "Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )")
        #expect(layout.table(named: "Z_1FAVORITEFOLDERS") == nil)
        let entity = try #require(layout.entity(named: "BookmarkEntity"))
        // Z_1FAVORITEFOLDERS = the folder (which has `favorites`), Z_1FAVORITES = the bookmark,
        // Z_FOK_1FAVORITES = the bookmark's position in the folder's favorites.
        #expect(entity.toManys["favorites"] == .joinTable(table: "Z_1FAVORITES", sourceColumn: "Z_1FAVORITEFOLDERS",
                                                           destinationColumn: "Z_1FAVORITES",
                                                           orderColumn: "Z_FOK_1FAVORITES"))
        #expect(entity.toManys["favoriteFolders"] == .joinTable(table: "Z_1FAVORITES", sourceColumn: "Z_1FAVORITES",
                                                                 destinationColumn: "Z_1FAVORITEFOLDERS",
                                                                 orderColumn: nil))
        #expect(entity.toOnes["parent"] == ToOneLayout(destination: "BookmarkEntity", foreignKey: "ZPARENT",
                                                       entityKey: nil, orderKey: "Z_FOK_PARENT"))
        #expect(entity.toManys["children"] == .foreignKey(table: "ZBOOKMARKENTITY", foreignKey: "ZPARENT",
                                                          entityKey: nil, orderKey: "Z_FOK_PARENT"))
        #expect(layout.indexes.map(\.createSQL) == [
            "CREATE INDEX ZBOOKMARKENTITY_ZPARENT_INDEX ON ZBOOKMARKENTITY (ZPARENT)",
            "CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS)",
        ])
    }

    @Test("An archive property order can be passed; name order is the default for XML models")
    func propertyOrderHook() {
        let model = Self.bookmarks()
        let names = model.entities[0].attributes.map(\.name) + model.entities[0].relationships.map(\.name)
        let byName = StoreLayout(model: model, options: .init(propertyOrder: ["BookmarkEntity": names.sorted()]))
        let reversed = StoreLayout(model: model, options: .init(propertyOrder: ["BookmarkEntity": names.reversed()]))
        #expect(byName.tables == StoreLayout(model: model).tables)
        // The join table is decided by the T-table walk; only collisions in the L-tables could change it.
        #expect(reversed.table(named: "Z_1FAVORITES") != nil)
    }

    @Test("Reflexive many-to-many: Z_<n>R and REFLEXIVE, with FOK columns when ordered")
    func reflexive() throws {
        let plain = StoreLayout(model: ManagedObjectModel(entities: [
            Entity(name: "Person", relationships: [Self.toMany("friends", "Person", inverse: "friends")]),
        ]))
        #expect(plain.table(named: "Z_1FRIENDS")?.createSQL
                == "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )")
        #expect(plain.entity(named: "Person")?.toManys["friends"]
                == .joinTable(table: "Z_1FRIENDS", sourceColumn: "Z_1FRIENDS", destinationColumn: "REFLEXIVE",
                              orderColumn: nil))
        #expect(plain.indexes.map(\.createSQL)
                == ["CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)"])
        let ordered = StoreLayout(model: ManagedObjectModel(entities: [
            Entity(name: "Person", relationships: [Self.toMany("friends", "Person", inverse: "friends", ordered: true)]),
        ]))
        #expect(ordered.table(named: "Z_1FRIENDS")?.columns.map(\.name)
                == ["Z_1FRIENDS", "REFLEXIVE", "Z_FOK_1FRIENDS", "FOK_REFLEXIVE"])
        #expect(ordered.entity(named: "Person")?.toManys["friends"]
                == .joinTable(table: "Z_1FRIENDS", sourceColumn: "Z_1FRIENDS", destinationColumn: "REFLEXIVE",
                              orderColumn: "FOK_REFLEXIVE"))
    }

    @Test("To-many without inverse: hidden Z<n>NAME column in the destination's table")
    func hiddenToOne() throws {
        let layout = StoreLayout(model: ManagedObjectModel(entities: [
            Entity(name: "Cart", relationships: [Self.toMany("items", "Item")]),
            Entity(name: "Item", attributes: [Attribute(name: "name", type: .string)]),
            Entity(name: "Box", relationships: [Self.toMany("items", "Item", ordered: true)]),
            Entity(name: "BigBox", parentName: "Box"),
        ]))
        // Box 1, BigBox 2, Cart 3, Item 4.
        #expect(layout.table(named: "ZITEM")?.columns.map(\.name)
                == ["Z_PK", "Z_ENT", "Z_OPT", "Z1ITEMS", "Z1_1ITEMS", "Z_FOK_1ITEMS", "Z3ITEMS", "ZNAME"])
        #expect(layout.entity(named: "Cart")?.toManys["items"]
                == .foreignKey(table: "ZITEM", foreignKey: "Z3ITEMS", entityKey: nil, orderKey: nil))
        #expect(layout.entity(named: "BigBox")?.toManys["items"]
                == .foreignKey(table: "ZITEM", foreignKey: "Z1ITEMS", entityKey: "Z1_1ITEMS", orderKey: "Z_FOK_1ITEMS"))
        #expect(layout.entity(named: "Item")?.hiddenToOnes["3items"]
                == ToOneLayout(destination: "Cart", foreignKey: "Z3ITEMS", entityKey: nil, orderKey: nil))
        #expect(layout.entity(named: "Item")?.toOnes.isEmpty == true)
        let indexes = layout.indexes.map(\.name)
        #expect(indexes == ["ZBOX_Z_ENT_INDEX", "ZITEM_Z1ITEMS_INDEX", "ZITEM_Z3ITEMS_INDEX"])
    }

    @Test("Ordered to-many with to-one inverse: Z_FOK_ column; to-one into a hierarchy: entity-key column")
    func orderedAndEntityKey() throws {
        let layout = StoreLayout(model: ManagedObjectModel(entities: [
            Entity(name: "Playlist", relationships: [Self.toMany("songs", "Song", inverse: "playlist", ordered: true)]),
            Entity(name: "Song", relationships: [Self.toOne("playlist", "Playlist", inverse: "songs"),
                                                 Self.toOne("media", "Media")]),
            Entity(name: "Media", isAbstract: true),
            Entity(name: "Audio", parentName: "Media"),
        ]))
        // Media 1, Audio 2 (numbered inside Media's subtree), Playlist 3, Song 4.
        #expect(layout.entity(named: "Media")?.number == 1)
        #expect(layout.table(named: "ZSONG")?.columns.map(\.name)
                == ["Z_PK", "Z_ENT", "Z_OPT", "ZMEDIA", "Z1_MEDIA", "ZPLAYLIST", "Z_FOK_PLAYLIST"])
        #expect(layout.entity(named: "Song")?.toOnes["media"]
                == ToOneLayout(destination: "Media", foreignKey: "ZMEDIA", entityKey: "Z1_MEDIA", orderKey: nil))
        #expect(layout.entity(named: "Song")?.toOnes["playlist"]
                == ToOneLayout(destination: "Playlist", foreignKey: "ZPLAYLIST", entityKey: nil,
                               orderKey: "Z_FOK_PLAYLIST"))
        #expect(layout.entity(named: "Playlist")?.toManys["songs"]
                == .foreignKey(table: "ZSONG", foreignKey: "ZPLAYLIST", entityKey: nil, orderKey: "Z_FOK_PLAYLIST"))
        #expect(layout.indexes.map(\.name) == ["ZMEDIA_Z_ENT_INDEX", "ZSONG_ZMEDIA_INDEX", "ZSONG_ZPLAYLIST_INDEX"])
    }

    @Test("Same-named relationships into one entity get suffixed join columns")
    func joinColumnSuffixes() throws {
        let layout = StoreLayout(model: ManagedObjectModel(entities: [
            Entity(name: "Reaction", relationships: [Self.toMany("users", "User", inverse: "reactions")]),
            Entity(name: "SystemMessage", relationships: [Self.toMany("users", "User", inverse: "systemMessages")]),
            Entity(name: "User", relationships: [Self.toMany("reactions", "Reaction", inverse: "users"),
                                                 Self.toMany("systemMessages", "SystemMessage", inverse: "users")]),
        ]))
        // Reaction (#1) is visited first and names Z_1USERS; User's columns Z_3USERS, then Z_3USERS1.
        #expect(layout.table(named: "Z_1USERS")?.columns.map(\.name) == ["Z_1REACTIONS", "Z_3USERS"])
        #expect(layout.table(named: "Z_2USERS")?.columns.map(\.name) == ["Z_2SYSTEMMESSAGES", "Z_3USERS1"])
        #expect(layout.entity(named: "User")?.toManys["systemMessages"]
                == .joinTable(table: "Z_2USERS", sourceColumn: "Z_3USERS1", destinationColumn: "Z_2SYSTEMMESSAGES",
                              orderColumn: nil))
    }

    @Test("Fetch indexes, indexed attributes and the legacy index style")
    func indexStyles() {
        var entity = Entity(name: "Event", attributes: [
            Attribute(name: "start", type: .date), Attribute(name: "title", type: .string),
        ])
        entity.attributes[1].isIndexed = true
        entity.fetchIndexes = [FetchIndex(name: "byStart", elements: [
            .init(property: "start", isAscending: false), .init(property: "title"),
        ])]
        let model = ManagedObjectModel(entities: [entity])
        #expect(StoreLayout(model: model).indexes.map(\.createSQL) == [
            "CREATE INDEX Z_Event_byStart ON ZEVENT (ZSTART COLLATE BINARY DESC, ZTITLE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Event_title ON ZEVENT (ZTITLE COLLATE BINARY ASC)",
        ])
        #expect(StoreLayout(model: model, options: .init(indexStyle: .legacy)).indexes.map(\.createSQL)
                == ["CREATE INDEX ZEVENT_ZTITLE_INDEX ON ZEVENT (ZTITLE)"])
        #expect(StoreLayout.IndexStyle.forFrameworkVersion(519) == .legacy)
        #expect(StoreLayout.IndexStyle.forFrameworkVersion(637) == .current)
    }
}
