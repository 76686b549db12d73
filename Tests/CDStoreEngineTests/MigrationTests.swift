import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine
@testable import CDStoreMigration

/// Helpers shared by the migration suites: the versioned `Schemas/Staff.xcdatamodeld` and a version-1 store.
enum StaffFixture {
    static let bundle = Corpus.schemas.appendingPathComponent("Staff.xcdatamodeld").path

    static func version(_ name: String) throws -> LoadedModel { try ModelLoader.load(bundle, version: name) }

    /// A store of version 1 ("Staff") with departments, people of every sub-entity, badges, projects, a vendor
    /// and a legacy row.
    static func makeVersion1Store() throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("Staff.sqlite").path
        let store = try Store.open(at: path, loaded: try version("Staff"))
        let ann: [(String, InputValue)] = [
            ("name", .string("Ann")), ("age", .integer(30)), ("score", .double(3)), ("rating", .integer(5)),
            ("nickname", .string("A")), ("salary", .double(10.5)), ("badge", .object([("code", .string("B1"))])),
            ("projects", .array([.object([("title", .string("Apollo"))]), .object([("title", .string("Gemini"))])])),
        ]
        let cy: [(String, InputValue)] = [("name", .string("Cy")), ("age", .integer(41)), ("score", .double(-7)),
                                          ("badge", .object([("code", .string("B2"))]))]
        let bo: [(String, InputValue)] = [("name", .string("Bo")), ("agency", .string("Acme")),
                                          ("projects", .array([.object([("title", .string("Mercury"))])]))]
        try store.insert([
            InputRecord(fields: [("name", .string("R&D")), ("code", .string("RD")), ("budget", .integer(7)),
                                 ("employees", .array([.object(ann + [("_entity", .string("Employee"))]),
                                                       .object(bo + [("_entity", .string("Contractor"))])]))]),
            InputRecord(fields: [("name", .string("Ops")), ("employees", .array([.object(cy)]))]),
        ], into: "Department")
        try store.insert([InputRecord(fields: [("name", .string("Vee"))])], into: "Vendor")
        try store.insert([InputRecord(fields: [("value", .integer(3))])], into: "Legacy")
        return path
    }

    static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.isNull ? "nil" : "\($0.storage.value!)" } }
        }
    }

    /// `type name sql` of every schema object with SQL, sorted: what a layout comparison needs.
    static func schema(_ path: String) throws -> [String] {
        try rows(path, "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name").map { $0.joined(separator: " ") }
    }

    /// The schema of a new store of `version`.
    static func freshSchema(_ version: String) throws -> [String] {
        let path = try temporaryDirectory().appendingPathComponent("Fresh.sqlite").path
        _ = try Store.open(at: path, loaded: try self.version(version))
        return try schema(path)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// Closes every connection so that the store is one file (WAL checkpointed), then returns its bytes.
    static func settledBytes(_ path: String) throws -> Data? {
        try DatabaseQueue(path: path).writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return bytes(path)
    }

    static func backups(_ path: String) throws -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".backup-") }
    }
}

@Suite("Migration: Staff.xcdatamodeld, version by version")
struct MigrationStepsTests {
    @Test func theSchemaHasFourValidVersionsAndTheLastIsCurrent() throws {
        let current = try ModelLoader.load(StaffFixture.bundle)
        #expect(current.versionName == "Staff 4")
        #expect(current.availableVersions == ["Staff", "Staff 2", "Staff 3", "Staff 4"])
        for version in current.availableVersions {
            #expect(ModelValidator.validate(try StaffFixture.version(version)).filter { $0.severity == .error }.isEmpty)
        }
    }

    @Test func version1To2KeepsEveryRowAndEntityNumbers() throws {
        let path = try StaffFixture.makeVersion1Store()
        let uuid = try StaffFixture.rows(path, "SELECT Z_UUID FROM Z_METADATA")
        let report = try Store.migrate(at: path, to: try StaffFixture.version("Staff 2"))
        #expect(report.steps.count == 1)
        #expect(report.steps[0].renumberedEntities == false)
        #expect(report.backupPath != nil && FileManager.default.fileExists(atPath: report.backupPath!))
        // Entity numbers kept; Office gets the next one; Legacy's row is gone.
        #expect(try StaffFixture.rows(path, "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
            ["1", "Badge", "0"], ["2", "Department", "0"], ["4", "Person", "0"], ["5", "Contractor", "4"],
            ["6", "Employee", "4"], ["7", "Assignment", "0"], ["8", "Vendor", "0"], ["9", "Office", "0"],
        ])
        #expect(try StaffFixture.rows(path, "SELECT Z_UUID FROM Z_METADATA") == uuid)
        #expect(try StaffFixture.schema(path) == StaffFixture.freshSchema("Staff 2"))
        let store = try Store.open(at: path, loaded: try StaffFixture.version("Staff 2"))
        #expect(store.modelSource == .given && store.warnings.isEmpty)
        #expect(try store.verify().isEmpty)
        #expect(store.metadata.hashDifferences(from: try StaffFixture.version("Staff 2").model).isEmpty)
        // Attributes: renamed, widened, converted to text, default for a new non-optional, NULL budget → default.
        #expect(try StaffFixture.rows(path, """
            SELECT Z_PK, Z_ENT, ZFULLNAME, ZAGE, ZRATING, ZSCORE, ZLEVEL, ZEMAIL, ZSALARY, ZAGENCY FROM ZPERSON ORDER BY Z_PK
            """) == [["1", "6", "Ann", "30", "5", "3", "1", "nil", "10.5", "nil"],
                     ["2", "5", "Bo", "nil", "nil", "nil", "1", "nil", "nil", "Acme"],
                     ["3", "4", "Cy", "41", "nil", "-7", "1", "nil", "nil", "nil"]])
        #expect(try StaffFixture.rows(path, "SELECT ZNAME, ZBUDGET, ZCODE, ZOFFICE FROM ZDEPARTMENT ORDER BY Z_PK")
                == [["R&D", "7", "RD", "nil"], ["Ops", "1000", "nil", "nil"]])
        // Relationships: renamed to-many (department ↔ staff), one-to-one became one-to-many (FK only on Badge),
        // renamed entity's many-to-many rebuilt under its new join table.
        #expect(try StaffFixture.rows(path, "SELECT Z_PK, ZDEPARTMENT FROM ZPERSON ORDER BY Z_PK") == [["1", "1"], ["2", "1"], ["3", "2"]])
        #expect(try StaffFixture.rows(path, "SELECT ZCODE, ZHOLDER FROM ZBADGE ORDER BY Z_PK") == [["B1", "1"], ["B2", "3"]])
        let apollo = try store.fetch(ObjectFetchRequest(entity: "Assignment", sort: [SortDescriptor("title")]))
        #expect(apollo.map { $0["title"] } == [.string("Apollo"), .string("Gemini"), .string("Mercury")])
        let people = try store.fetch(ObjectFetchRequest(entity: "Person", sort: [SortDescriptor("fullName")]))
        #expect(people.count == 3)
        let ann = try #require(people.first)
        #expect(ann.entity == "Employee")
        if case .array(let ids)? = ann["assignments"] { #expect(ids.count == 2) } else { Issue.record("assignments: \(String(describing: ann["assignments"]))") }
        if case .array(let ids)? = ann["badges"] { #expect(ids.count == 1) } else { Issue.record("badges") }
        #expect(try store.count(ObjectFetchRequest(entity: "Vendor")) == 1)
        // The fetch index was created.
        #expect(try StaffFixture.rows(path, "SELECT name FROM sqlite_master WHERE name = 'Z_Person_byAge'").count == 1)
    }

    @Test func version2To3MovesEntitiesOutOfAndIntoAHierarchy() throws {
        let path = try StaffFixture.makeVersion1Store()
        try Store.migrate(at: path, to: try StaffFixture.version("Staff 2"), options: .init(backup: false))
        #expect(try StaffFixture.backups(path).isEmpty)
        let report = try Store.migrate(at: path, to: try StaffFixture.version("Staff 3"), options: .init(backup: false))
        // Person's sub-tree cannot stay consecutive (Contractor leaves, Vendor joins): renumbered as a new store.
        #expect(report.steps[0].renumberedEntities)
        #expect(try StaffFixture.schema(path) == StaffFixture.freshSchema("Staff 3"))
        let store = try Store.open(at: path, loaded: try StaffFixture.version("Staff 3"))
        #expect(try store.verify().isEmpty)
        // Contractor rows moved to their own table with their keys; the vendor moved into ZPERSON after its rows.
        #expect(try StaffFixture.rows(path, "SELECT Z_PK, ZFULLNAME, ZAGENCY FROM ZCONTRACTOR") == [["2", "Bo", "Acme"]])
        let vendor = try #require(store.layout.entity(named: "Vendor"))
        #expect(try StaffFixture.rows(path, "SELECT Z_PK, Z_ENT, ZFULLNAME, ZLEVEL FROM ZPERSON ORDER BY Z_PK") == [
            ["1", "\(store.layout.entity(named: "Employee")!.number)", "Ann", "1"],
            ["3", "\(store.layout.entity(named: "Person")!.number)", "Cy", "1"],
            ["4", "\(vendor.number)", "Vee", "1"],
        ])
        #expect(try StaffFixture.rows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == [["4"]])
        // Department.office (to-one, no inverse) became many-to-many offices ↔ departments: a join table.
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*) FROM Z_4OFFICES") == [["0"]])
        // New objects get keys after the moved rows.
        try store.insert([InputRecord(fields: [("fullName", .string("Di"))])], into: "Person")
        #expect(try StaffFixture.rows(path, "SELECT MAX(Z_PK) FROM ZPERSON") == [["5"]])
        #expect(try store.verify().isEmpty)
    }

    @Test func version1To4GoesThroughEveryVersion() throws {
        let path = try StaffFixture.makeVersion1Store()
        let report = try Store.migrate(at: path, to: try StaffFixture.version("Staff 4"), options: .init(backup: false))
        // Double → String (score) is not inferable directly; Double → Integer 64 → String is.
        #expect(report.steps.map(\.to) == ["\"Staff 2\"", "\"Staff 3\"", "\"Staff 4\""])
        #expect(try StaffFixture.schema(path) == StaffFixture.freshSchema("Staff 4"))
        let store = try Store.open(at: path, loaded: try ModelLoader.load(StaffFixture.bundle))
        #expect(try store.verify().isEmpty)
        #expect(try StaffFixture.rows(path, "SELECT ZDISPLAYNAME, ZSCORE, ZRATING, ZAGE FROM ZPERSON ORDER BY Z_PK")
                == [["Ann", "3", "5", "30"], ["Cy", "-7", "nil", "41"], ["Vee", "nil", "nil", "nil"]])
        #expect(try store.count(ObjectFetchRequest(entity: "Department")) == 2)
        #expect(try store.count(ObjectFetchRequest(entity: "Badge")) == 2)
        #expect(try store.count(ObjectFetchRequest(entity: "Assignment")) == 3)
        #expect(try store.count(ObjectFetchRequest(entity: "Contractor")) == 1)
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*) FROM Z_1MEMBERS") == [["2"]])
    }

    @Test func version1To3StepsThroughVersion2WhenTheDataNeedsIt() throws {
        let path = try StaffFixture.makeVersion1Store()
        // Directly, Contractor.fullName (declared in Staff 3, no renaming identifier) does not match the inherited
        // `name` of Staff, so Bo's row would be NULL in a non-optional attribute: refused, rolled back, and done
        // through Staff 2, where Person.name was renamed fullName.
        let report = try Store.migrate(at: path, to: try StaffFixture.version("Staff 3"), options: .init(backup: false))
        #expect(report.steps.map(\.to) == ["\"Staff 2\"", "\"Staff 3\""])
        #expect(try StaffFixture.rows(path, "SELECT ZFULLNAME FROM ZCONTRACTOR") == [["Bo"]])
        #expect(try StaffFixture.schema(path) == StaffFixture.freshSchema("Staff 3"))
        let store = try Store.open(at: path, loaded: try StaffFixture.version("Staff 3"))
        #expect(try store.verify().isEmpty)
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 3)
    }

    @Test func dryRunLeavesTheStoreAlone() throws {
        let path = try StaffFixture.makeVersion1Store()
        let before = try StaffFixture.settledBytes(path)
        let report = try Store.migrate(at: path, to: try StaffFixture.version("Staff 4"), options: .init(dryRun: true))
        #expect(report.isDryRun && report.backupPath == nil)
        // The whole plan as `cdstore migrate --dry-run` prints it is MigrateCommandTests' snapshot; here its numbers.
        let step = try #require(report.steps.first)
        #expect(report.steps.map { "\($0.from) → \($0.to)" } == ["\"Staff\" → \"Staff 2\"", "\"Staff 2\" → \"Staff 3\"", "\"Staff 3\" → \"Staff 4\""])
        #expect(report.steps.map(\.changes.count) == [18, 11, 5] && report.steps.map(\.statements.count) == [42, 53, 30])
        #expect(report.steps.map(\.renumberedEntities) == [false, true, false] && report.steps.allSatisfy { $0.mappingFile == nil })
        #expect(step.changes.count == 18 && step.statements.count == 42)
        #expect(step.objectCounts.map { "\($0.mapping ?? "-") \($0.sourceEntity ?? "-") \($0.leftBehind)" } == ["- Legacy 1"])
        let renamed = try #require(step.changes.firstIndex { $0.description == "attribute renamed: Person.fullName (was name)" })
        #expect(step.statementCount(forChange: renamed) == 12)
        #expect(StaffFixture.bytes(path) == before)
        #expect(try StaffFixture.backups(path).isEmpty)
    }
}

@Suite("Migration: refusals and safety")
struct MigrationSafetyTests {
    /// Version 1 with `edit` applied, as a standalone model (the source comes from the store's cached model).
    func variant(_ edit: (inout ManagedObjectModel) -> Void) throws -> LoadedModel {
        var model = try StaffFixture.version("Staff").model
        edit(&model)
        model.versionIdentifiers = ["variant"]
        return LoadedModel(model: model, file: URL(fileURLWithPath: "/tmp/variant.json"), format: .json)
    }

    func entity(_ model: inout ManagedObjectModel, _ name: String, _ edit: (inout Entity) -> Void) {
        let index = model.entities.firstIndex { $0.name == name }!
        edit(&model.entities[index])
    }

    func expectRefusal(_ destination: LoadedModel, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try StaffFixture.makeVersion1Store()
        let before = try StaffFixture.settledBytes(path)
        do {
            try Store.migrate(at: path, to: destination)
            Issue.record("migration was not refused", sourceLocation: sourceLocation)
        } catch let error as StoreError {
            #expect(error.code == .modelMismatch, sourceLocation: sourceLocation)
            for fragment in fragments {
                #expect(error.description.contains(fragment), "\(error.description) lacks \(fragment)", sourceLocation: sourceLocation)
            }
        }
        #expect(StaffFixture.bytes(path) == before, "the store changed", sourceLocation: sourceLocation)
        #expect(try StaffFixture.backups(path).isEmpty, "a backup was left behind", sourceLocation: sourceLocation)
    }

    @Test func nonOptionalWithoutDefaultAndNullRowsIsRefused() throws {
        try expectRefusal(try variant { m in entity(&m, "Person") { $0.attributes[2].isOptional = false } },
                          ["134190", "entity 'Person', attribute 'nickname' becomes non-optional without a default value and 1 rows are NULL",
                           "entity 'Contractor', attribute 'nickname' becomes non-optional without a default value and 1 rows are NULL"])
    }

    @Test func addedNonOptionalAttributeWithoutDefaultIsRefused() throws {
        try expectRefusal(try variant { m in entity(&m, "Department") { $0.attributes.append(Attribute(name: "floor", type: .integer16)) } },
                          ["134190", "'Department', attribute 'floor'", "2 rows are NULL"])
    }

    @Test func uninferableTypeChangeIsRefused() throws {
        try expectRefusal(try variant { m in entity(&m, "Person") { $0.attributes[1].type = .date } },
                          ["134190", "Person.name changes type from String to Date"])
    }

    @Test func lossyConversionIsRefusedWithTheValues() throws {
        try expectRefusal(try variant { m in entity(&m, "Person") { $0.attributes[0].type = .boolean } },
                          ["134190", "entity 'Person', attribute 'age': changing Integer 16 to Boolean is lossy for 1 rows (not 0 or 1: 41)",
                           "entity 'Employee', attribute 'age': changing Integer 16 to Boolean is lossy for 1 rows (not 0 or 1: 30)"])
    }

    @Test func newUniquenessConstraintViolatedByRowsIsRefused() throws {
        // Duplicate values are listed.
        let path = try StaffFixture.makeVersion1Store()
        let v1 = try Store.open(at: path, loaded: try StaffFixture.version("Staff"))
        try v1.insert([InputRecord(fields: [("name", .string("Ann"))])], into: "Person")
        let before = try StaffFixture.settledBytes(path)
        let destination = try variant { m in entity(&m, "Person") { $0.uniquenessConstraints = [["name"]] } }
        #expect {
            try Store.migrate(at: path, to: destination)
        } throws: { error in
            let text = "\(error)"
            return text.contains("134190") && text.contains("uniqueness constraint") && text.contains("Ann") && text.contains("× 2")
        }
        #expect(StaffFixture.bytes(path) == before)
    }

    @Test func toManyBecomingToOneWithSeveralObjectsIsRefused() throws {
        try expectRefusal(try variant { m in
            entity(&m, "Department") { $0.relationships[0].isToMany = false; $0.relationships[0].maxCount = 1 }
            entity(&m, "Person") { $0.relationships[1].inverseName = "employees" }
        }, ["134190", "relationship Department.employees becomes to-one", "1 objects"])
    }

    @Test func unrelatedModelIsRefusedAs134100() throws {
        let other = try ModelLoader.load(Corpus.schemas.appendingPathComponent("Library.xcdatamodeld").path)
        try expectRefusal(other, ["134100"])
    }

    @Test func noSourceModelIs134130() throws {
        let path = try StaffFixture.makeVersion1Store()
        // A store that carries no model (no Z_MODELCACHE, as an iOS 6 store), opened with a model that is not in a
        // bundle with its version.
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP TABLE Z_MODELCACHE") }
        let destination = try variant { _ in }
        let error = #expect(throws: StoreError.self) {
            try Store.migrate(at: path, to: LoadedModel(model: try StaffFixture.version("Staff 2").model, file: destination.file, format: .json))
        }
        #expect(error?.code == .noModel)
        #expect(error?.description == "cannot find the model the store was saved with (Core Data error 134130): no version of "
                + "\(destination.file.path) matches its version hashes and the store carries no model; the store's model version "
                + #"identifiers are ["1"]"#)
    }

    /// A column added at the end of a table whose rows stay as they are: `ALTER TABLE ADD COLUMN` (+ `UPDATE` for
    /// the default), no rebuild; the other tables are not touched at all.
    @Test func addedColumnIsAnAlterTable() throws {
        let path = try StaffFixture.makeVersion1Store()
        let destination = try variant { m in
            entity(&m, "Legacy") {
                var zeta = Attribute(name: "zeta", type: .integer32)
                zeta.defaultValue = "9"
                $0.attributes.append(zeta)
            }
        }
        let report = try Store.migrate(at: path, to: destination, options: .init(backup: false))
        let statements = report.steps[0].statements.map(\.sql).filter { !$0.contains("Z_PRIMARYKEY") }
        #expect(statements == ["ALTER TABLE ZLEGACY ADD COLUMN ZZETA INTEGER", "UPDATE ZLEGACY SET ZZETA = ? WHERE Z_ENT = 3"])
        #expect(try StaffFixture.rows(path, "SELECT ZVALUE, ZZETA FROM ZLEGACY") == [["3", "9"]])
        let store = try Store.open(at: path, loaded: destination)
        #expect(try store.verify().isEmpty)
        #expect(report.steps.map(\.from) == ["the model in Z_MODELCACHE [\"1\"]"] && report.steps[0].to == "the given model")
        #expect(report.steps[0].changes.map(\.description) == ["attribute added: Legacy.zeta (Integer 32, default 9)"])
        #expect(report.steps[0].statements.count == 11 && report.steps[0].statementCount(forChange: 0) == 2)
        #expect(report.steps[0].statements.filter(\.tables.isEmpty).count == 9)
    }

    /// Unordered → ordered to-manys: the order columns appear (join table and foreign-key side) and are filled.
    @Test func relationshipsBecomingOrderedGetOrderKeys() throws {
        let path = try StaffFixture.makeVersion1Store()
        let destination = try variant { m in
            entity(&m, "Department") { $0.relationships[0].isOrdered = true }
            entity(&m, "Person") { $0.relationships[2].isOrdered = true }
        }
        let report = try Store.migrate(at: path, to: destination, options: .init(backup: false))
        #expect(report.steps[0].changes.contains { $0.kind == .relationshipOrderingChanged })
        let store = try Store.open(at: path, loaded: destination)
        #expect(try store.verify().isEmpty)
        let fresh = try temporaryDirectory().appendingPathComponent("Fresh.sqlite").path
        _ = try Store.open(at: fresh, loaded: destination)
        #expect(try StaffFixture.schema(path) == StaffFixture.schema(fresh))
        guard case .foreignKey(_, _, _, let orderKey?)? = store.layout.entity(named: "Department")?.toManys["employees"],
              case .joinTable(let join, _, _, let joinOrder?)? = store.layout.entity(named: "Person")?.toManys["projects"] else {
            Issue.record("no order columns in the layout")
            return
        }
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*) FROM ZPERSON WHERE ZDEPARTMENT IS NOT NULL AND \(orderKey) IS NULL") == [["0"]])
        #expect(try StaffFixture.rows(path, "SELECT COUNT(*), COUNT(\(joinOrder)) FROM \(join)") == [["3", "3"]])
        let rnd = try store.fetch(ObjectFetchRequest(entity: "Department", sort: [SortDescriptor("name")])).last
        if case .array(let ids)? = rnd?["employees"] { #expect(ids.count == 2) } else { Issue.record("employees") }
    }

    @Test(arguments: [1, 8, 20, 35, 60, 90])
    func aFailureAnywhereLeavesTheStoreUnchanged(after statements: Int) throws {
        let path = try StaffFixture.makeVersion1Store()
        let before = try StaffFixture.settledBytes(path)
        let error = #expect(throws: StoreError.self) {
            try Store.migrate(at: path, to: try StaffFixture.version("Staff 4"), options: .init(failAfterStatements: statements))
        }
        #expect(error?.code == .sqlite, "\(String(describing: error))")
        #expect(StaffFixture.bytes(path) == before)
        #expect(try StaffFixture.backups(path).isEmpty)
        #expect(try StaffFixture.settledBytes(path) == before)
        let store = try Store.open(at: path, loaded: try StaffFixture.version("Staff"))
        #expect(try store.verify().isEmpty)
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 3)
    }
}

@Suite("Migration: opening a store with a newer model")
struct MigrationOpenTests {
    @Test func openingMigratesAutomatically() throws {
        let path = try StaffFixture.makeVersion1Store()
        let store = try Store.open(at: path, loaded: try ModelLoader.load(StaffFixture.bundle),
                                   options: .init(migrator: LightweightMigrator()))
        #expect(store.warnings.contains { $0.message.hasPrefix("migrated the store (\"Staff\" → \"Staff 2\", \"Staff 2\" → \"Staff 3\", \"Staff 3\" → \"Staff 4\"); backup at ") })
        #expect(try store.verify().isEmpty)
        #expect(try StaffFixture.backups(path).count == 3) // store, -wal, -shm
    }

    @Test func noMigrateRefusesWithTheDifferences() throws {
        let path = try StaffFixture.makeVersion1Store()
        let before = try StaffFixture.settledBytes(path)
        #expect {
            try Store.open(at: path, loaded: try StaffFixture.version("Staff 2"), options: .init())
        } throws: { error in
            let text = "\(error)"
            return text.contains("134100") && text.contains("migration is off") && text.contains("\n  attribute renamed: Person.fullName (was name)")
                && text.contains("\n  entity removed: Legacy")
        }
        #expect(StaffFixture.bytes(path) == before)
    }

    @Test func readOnlyOpensReadWithTheStoresVersion() throws {
        let path = try StaffFixture.makeVersion1Store()
        let before = try StaffFixture.settledBytes(path)
        let store = try Store.open(at: path, loaded: try StaffFixture.version("Staff 3"), options: .init(readOnly: true, migrator: LightweightMigrator()))
        #expect(store.model == (try StaffFixture.version("Staff")).model)
        #expect(store.warnings.map(\.message) == ["the store was saved with \"Staff\", not with the model given; read with that version, without migrating"])
        #expect(try store.count(ObjectFetchRequest(entity: "Person")) == 3)
        #expect(StaffFixture.bytes(path) == before)
    }
}
