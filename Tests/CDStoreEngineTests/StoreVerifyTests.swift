import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// `verify` finds each kind of damage, and `info` reports what a store is.
@Suite("Verifying stores")
struct StoreVerifyTests {
    let model = try! ModelLoader.load(Corpus.packageRoot.appendingPathComponent("Schemas/Organization.xcdatamodeld").path).model

    /// A store with an organization, two people (one with a badge, friends with each other) and a project.
    func filledStore() throws -> Store {
        let store = try Store.open(at: try temporaryDirectory().appendingPathComponent("V.sqlite").path, model: model)
        let json = #"{"name": "Acme", "members": [{"_entity": "Employee", "name": "Ann", "email": "ann@x", "employeeNumber": 1, "badge": {"code": "B1"}}, {"_entity": "Person", "name": "Bo", "email": "bo@x"}], "projects": [{"title": "P"}]}"#
        guard case .object(let fields) = try JSONReader.parse(json) else { throw StoreError(.invalidInput, "fixture") }
        try store.insert([InputRecord(fields: fields)], into: "Organization")
        return store
    }

    func damage(_ store: Store, _ sql: String) throws -> [VerifyProblem] {
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: sql) }
        return try Store.open(at: store.path, model: model, options: .init(readOnly: true)).verify()
    }

    @Test func aSoundStoreVerifies() throws {
        #expect(try filledStore().verify() == [])
    }

    @Test(arguments: [
        ("UPDATE ZPARTY SET Z_ENT = 99 WHERE ZNAME = 'Bo'", VerifyProblem.Kind.entityNumbers),
        ("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Party'", .maxPrimaryKey),
        ("UPDATE ZPARTY SET ZORGANIZATION = 77 WHERE ZNAME = 'Bo'", .danglingReference),
        ("UPDATE ZBADGE SET Z5_HOLDER = 4", .danglingReference),
        ("UPDATE ZBADGE SET ZHOLDER = (SELECT Z_PK FROM ZPARTY WHERE ZNAME = 'Bo')", .inverse),
        ("INSERT INTO Z_5PROJECTS VALUES (55, 1)", .joinTable),
        ("DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'", .primaryKeys),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 0 WHERE Z_NAME = 'Employee'", .primaryKeys),
        ("ALTER TABLE ZTAG DROP COLUMN ZLABEL", .schema),
    ] as [(String, VerifyProblem.Kind)])
    func findsDamage(sql: String, kind: VerifyProblem.Kind) throws {
        let problems = try damage(try filledStore(), sql)
        #expect(problems.contains { $0.kind == kind }, "\(sql): \(problems)")
    }

    /// What Core Data itself leaves in stores, or reads without looking, is not a problem.
    @Test(arguments: [
        // A row of an abstract entity (Party is abstract).
        "UPDATE ZPARTY SET Z_ENT = 3 WHERE ZNAME = 'Bo'",
        // A Z_PRIMARYKEY row of an entity the model no longer has.
        "INSERT INTO Z_PRIMARYKEY VALUES (50, 'Retired', 0, 7)",
        // Persistent history and CloudKit mirroring: ancillary entities and their A… tables.
        "INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 3); INSERT INTO Z_PRIMARYKEY VALUES (16004, 'NSCKRecordMetadata', 0, 2); "
            + "CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER); "
            + "CREATE TABLE ANSCKRECORDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZENTITYID INTEGER, ZENTITYPK INTEGER)",
        // Z_MAX = -1: not recorded (iOS 6-era stores).
        "UPDATE Z_PRIMARYKEY SET Z_MAX = -1 WHERE Z_NAME = 'Party'",
        // Any Z_ENT in a table of one entity, which Core Data reads without looking at Z_ENT.
        "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES (1, 42, 1, 'x'); UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Tag'",
        // A foreign key of 0: no object, like NULL.
        "INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZDONE, ZPROJECT) VALUES (1, 10, 1, 't', 0, 0); "
            + "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Task'",
        // A table that is no entity's.
        "CREATE TABLE ZSOMETHINGELSE (X INTEGER)",
    ])
    func toleratesWhatCoreDataLeaves(sql: String) throws {
        #expect(try damage(try filledStore(), sql) == [])
    }

    /// A Z_MAX below the largest key does not stop Core Data reading, but its next insert would fail: a problem.
    @Test func aLaggingZMaxIsAProblem() throws {
        let problems = try damage(try filledStore(), "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Party'")
        #expect(problems == [VerifyProblem(kind: .maxPrimaryKey, subject: "Party", message: "Z_MAX is 1 but a row has Z_PK 3: "
                                           + "Core Data's next insert into ZPARTY would take a key in use (a repair raises Z_MAX to it)",
                                           severity: .problem)])
        #expect(problems.first?.description == "maxPrimaryKey: Party: Z_MAX is 1 but a row has Z_PK 3: Core Data's next "
                + "insert into ZPARTY would take a key in use (a repair raises Z_MAX to it)")
    }

    /// `repair()` raises a lagging Z_MAX to the largest key, in one transaction, says so, and leaves the store
    /// verifying; a second repair finds nothing to do.
    @Test func repairRaisesALaggingZMax() throws {
        let store = try filledStore()
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Party'")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'Project'")
        }
        let reopened = try Store.open(at: store.path, model: model)
        #expect(try reopened.repair() == [
            VerifyProblem(kind: .maxPrimaryKey, subject: "Party", message: "Z_MAX 1 → 3, the largest Z_PK in ZPARTY"),
            VerifyProblem(kind: .maxPrimaryKey, subject: "Project", message: "Z_MAX 0 → 1, the largest Z_PK in ZPROJECT"),
        ])
        #expect(try reopened.verify() == [])
        #expect(try reopened.repair() == [])
        let zMax = try DatabaseQueue(path: store.path).read {
            try Int.fetchAll($0, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Party', 'Project') ORDER BY Z_NAME")
        }
        #expect(zMax == [3, 1])
    }

    /// A repair leaves alone what needs a decision about data, and a Z_MAX of -1; read-only it refuses.
    @Test func repairLeavesDataDecisionsAlone() throws {
        let store = try filledStore()
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "UPDATE ZPARTY SET ZORGANIZATION = 77 WHERE ZNAME = 'Bo'")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = -1 WHERE Z_NAME = 'Party'")
        }
        let reopened = try Store.open(at: store.path, model: model)
        #expect(try reopened.repair() == [])
        #expect(try reopened.verify().map(\.kind) == [.danglingReference])
        let readOnly = try Store.open(at: store.path, model: model, options: .init(readOnly: true))
        #expect { try readOnly.repair() } throws: { ($0 as? StoreError)?.code == .readOnly }
    }

    @Test func findsAMetadataHashThatDiffersFromTheModel() throws {
        let store = try filledStore()
        var metadata = store.metadata
        var hashes = metadata.plist?["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]
        hashes["Tag"] = Data(repeating: 7, count: 32)
        metadata.plist?["NSStoreModelVersionHashes"] = hashes
        let plist = try metadata.encodedPlist()
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [plist]) }
        // Read with the model cdstore cached in the store (Z_MODELCACHE), whose Tag hash no longer matches the metadata.
        let problems = try Store.open(at: store.path, loaded: nil, options: .init(readOnly: true)).verify()
        #expect(problems.map(\.subject) == ["Tag"] && problems.first?.kind == .metadata, "\(problems)")
    }

    @Test func infoReportsMetadataHashesAndCounts() throws {
        let info = try filledStore().info()
        #expect(info.storeType == "SQLite" && info.frameworkVersion == StoreMetadata.frameworkVersion)
        #expect(info.versionIdentifiers == ["1"] && info.journalMode == "wal" && info.autoVacuum == 2 && info.pageSize == 4096)
        #expect(!info.hasCDStoreModel && info.hasCoreDataModelCache && info.hashesMatch)
        let counts = Dictionary(uniqueKeysWithValues: info.entities.map { ($0.name, $0.objects) })
        #expect(counts == ["Address": 0, "Badge": 1, "Contractor": 0, "Employee": 1, "Organization": 1, "Party": 0,
                           "Person": 1, "Project": 1, "Tag": 0, "Task": 0])
        #expect(info.entities.first { $0.name == "Party" }?.maxPrimaryKey == 3)
    }

    /// A store whose Z_PLIST is NULL (seen in a macOS Notes store) opens with a warning and reads.
    @Test func aNullMetadataPlistIsTolerated() throws {
        let store = try filledStore()
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = NULL") }
        let reopened = try Store.open(at: store.path, model: model)
        #expect(reopened.warnings.map(\.message) == ["the store's metadata plist is NULL, so its model cannot be checked against the one given"])
        #expect(try reopened.count(ObjectFetchRequest(entity: "Party")) == 3)
        #expect(try reopened.verify().map(\.kind) == [.metadata])
    }
}
