import CDStoreModel
import Testing
@testable import CDStoreEngine

/// The pieces of the layout algorithm: numbering (§1.3), the name generator (§1.5), the legacy hash orders (§1.6).
@Suite("Store layout pieces")
struct LayoutPiecesTests {
    // MARK: Entity numbering

    @Test("NoteStore numbering: case-insensitive name sort, depth-first subtrees (§1.3)")
    func noteStoreNumbering() {
        let subs = ["ICAttachment", "ICAttachmentPreviewImage", "ICDeviceMigrationState", "ICHashtag",
                    "ICInlineAttachment", "ICInvitation", "ICMedia", "ICNote", "ICNoteAttachment", "ICNoteContainer"]
        var entities = [Entity(name: "ICServerChangeToken"), Entity(name: "ICNoteData"),
                        Entity(name: "ICAttachmentLocation", parentName: "ICLocation"), Entity(name: "ICLocation"),
                        Entity(name: "ICFolder", parentName: "ICNoteContainer"),
                        Entity(name: "ICAccount", parentName: "ICNoteContainer"),
                        Entity(name: "ICCloudSyncingObject", isAbstract: true), Entity(name: "ICCloudState")]
        entities += subs.reversed().map { Entity(name: $0, parentName: "ICCloudSyncingObject") }
        let layout = StoreLayout(model: ManagedObjectModel(entities: entities))
        let expected = ["ICCloudState", "ICCloudSyncingObject"] + subs
            + ["ICAccount", "ICFolder", "ICLocation", "ICAttachmentLocation", "ICNoteData", "ICServerChangeToken"]
        #expect(layout.entities.map(\.name) == expected)
        #expect(layout.entities.map(\.number) == Array(1...18))
        let account = layout.entity(named: "ICAccount")
        #expect(account?.superNumber == 12)
        #expect(account?.table == "ZICCLOUDSYNCINGOBJECT")
        #expect(layout.entity(named: "ICCloudSyncingObject")?.subtreeNumbers == 2...14)
        #expect(layout.entity(named: "ICNoteContainer")?.subtreeNumbers == 12...14)
        #expect(layout.entity(named: "ICLocation")?.subtreeMax == 16)
        #expect(layout.entity(named: "ICAttachmentLocation")?.superNumber == 15)
        #expect(layout.tables.map(\.name) == ["ZICCLOUDSTATE", "ZICCLOUDSYNCINGOBJECT", "ZICLOCATION", "ZICNOTEDATA",
                                              "ZICSERVERCHANGETOKEN"])
    }

    @Test("Names sort case-insensitively: NetworkAttachment before NWActivityFragment")
    func caseInsensitiveNumbering() {
        let layout = StoreLayout(model: ManagedObjectModel(entities: [Entity(name: "NWActivityFragment"),
                                                                      Entity(name: "NetworkAttachment"),
                                                                      Entity(name: "apple")]))
        #expect(layout.entities.map(\.name) == ["apple", "NetworkAttachment", "NWActivityFragment"])
    }

    @Test("Ancillary models number from 16001")
    func ancillaryOffset() {
        let model = ManagedObjectModel(entities: [Entity(name: "TRANSACTION"), Entity(name: "CHANGE")])
        let layout = StoreLayout(model: model, options: .init(entityNumberOffset: 16000))
        #expect(layout.entities.map(\.number) == [16001, 16002])
        #expect(layout.entity(named: "TRANSACTION")?.subtreeMax == 16002)
    }

    // MARK: Name generator

    @Test("The generator counts per requested base and does not record suffixed results (§1.5)")
    func generatorUniquing() {
        let generator = ColumnNameGenerator()
        #expect((0..<6).map { _ in generator.unique("ZACCOUNT") }
                == ["ZACCOUNT", "ZACCOUNT1", "ZACCOUNT2", "ZACCOUNT3", "ZACCOUNT4", "ZACCOUNT5"])
        let other = ColumnNameGenerator()
        #expect(other.unique("ZA1") == "ZA1")
        #expect(other.unique("ZA") == "ZA")
        #expect(other.unique("ZA") == "ZA2")   // ZA1 was requested as a base: skipped
        #expect(other.unique("ZA3") == "ZA3")  // suffixed results are not recorded
        #expect(other.unique("ZA") == "ZA4")
        #expect(other.unique("ZA2") == "ZA2")  // handed out before, but never requested as a base
    }

    @Test("Upper-casing: attributes by ASCII toupper, relationships by uppercaseString")
    func upperCasing() {
        #expect(ColumnNaming.attributeBase("_CDPortraitMetadataKey__algorithm") == "Z_CDPORTRAITMETADATAKEY__ALGORITHM")
        #expect(ColumnNaming.attributeBase("straße") == "ZSTRAßE")
        #expect(ColumnNaming.upper("straße") == "STRASSE")
    }

    @Test("Sibling sub-entities declaring the same property name share the generator")
    func siblingCollisions() {
        func account() -> Relationship { Relationship(name: "account", destination: "Account") }
        let model = ManagedObjectModel(entities: [
            Entity(name: "Account"),
            Entity(name: "Object", isAbstract: true),
            Entity(name: "Folder", parentName: "Object", attributes: [Attribute(name: "title", type: .string)],
                   relationships: [account()]),
            Entity(name: "Note", parentName: "Object", attributes: [Attribute(name: "title", type: .string)],
                   relationships: [account()]),
        ])
        let layout = StoreLayout(model: model)
        #expect(layout.entity(named: "Folder")?.toOnes["account"]?.foreignKey == "ZACCOUNT")
        #expect(layout.entity(named: "Note")?.toOnes["account"]?.foreignKey == "ZACCOUNT1")
        #expect(layout.entity(named: "Folder")?.attributeColumns["title"] == "ZTITLE")
        #expect(layout.entity(named: "Note")?.attributeColumns["title"] == "ZTITLE1")
        #expect(layout.table(named: "ZOBJECT")?.columns.map(\.name)
                == ["Z_PK", "Z_ENT", "Z_OPT", "ZACCOUNT", "ZACCOUNT1", "ZTITLE", "ZTITLE1"])
    }

    // MARK: Legacy hash orders

    @Test("t() and h() of the §1.6 worked example and of long strings")
    func hashes() {
        #expect(LegacyHash.t("favorites") == 0x80E1_22DC)
        #expect(LegacyHash.t("favoriteFolders") == 0xCBD7_243E)
        #expect(LegacyHash.t("favorites") % 23 == 7)
        #expect(LegacyHash.t("favoriteFolders") % 23 == 19)
        #expect(LegacyHash.l("_ent") == 0x7A62_D14A)
        #expect(LegacyHash.mix(LegacyHash.l("favorites")) == 0xC132_8CA5)
        // Values from the reference checker predict.py.
        let thirty = String(repeating: "a", count: 30)
        #expect(LegacyHash.l(thirty) == 0xEAFE_627C)
        #expect(LegacyHash.t(thirty) == 0x11AB_6D36)
        let umlauts = "ÄußerstLangerName_mit_Ümlauten_und_mehr_Zeichen"
        #expect(LegacyHash.l(umlauts) == 0xB4B2_8F8F)
        #expect(LegacyHash.t(umlauts) == 0x51BF_3BC8)
        let long = String(repeating: "x", count: 40) + String(repeating: "abcdefghij", count: 7)
        #expect(LegacyHash.l(long) == 0x4B9F_3AE4)
        #expect(LegacyHash.t(long) == 0x3CDB_C092)
        #expect(LegacyHash.mix(LegacyHash.l(long)) == 0xDF67_85AF)
    }

    @Test("L-table and T-table orders match the reference checker")
    func tableOrders() {
        let keys = ["_ent", "_pk", "_opt", "title", "url", "dateAdded", "guid", "_ZPARENT", "parent", "children",
                    "favorites", "favoriteFolders"]
        let l = LTable(keys)
        #expect(l.keys == ["parent", "_ent", "url", "dateAdded", "guid", "_pk", "_opt", "favorites", "children",
                           "title", "_ZPARENT", "favoriteFolders"])
        #expect(TTable.order(l.keys, sizedFor: 14) == ["_ent", "_pk", "title", "_opt", "favorites", "url", "_ZPARENT",
                                                       "parent", "guid", "children", "dateAdded", "favoriteFolders"])
        #expect(TTable.slotCount(for: 14) == 23)
        #expect(TTable.slotCount(for: 17) == 23)
        #expect(TTable.slotCount(for: 18) == 41)
        #expect(TTable.slotCount(for: 1) == 5)
    }
}
