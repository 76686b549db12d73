import CDStoreModel
import CDStorePredicate
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine
import CDStoreMigration

/// Derived attributes in a store cdstore created (which has no Core Data triggers to keep them): each write
/// leaves them as Core Data's triggers would, for every form Core Data derives in SQL.
@Suite("Derived attributes")
struct DerivedValuesTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Department" representedClassName="Department" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="headcount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="employees.@count" usesScalarValueType="YES"/>
                <attribute name="payroll" optional="YES" attributeType="Double" derived="YES" derivationExpression="employees.@sum.salary" usesScalarValueType="YES"/>
                <attribute name="projectCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="count:(projects)" usesScalarValueType="YES"/>
                <attribute name="lowerName" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(name)"/>
                <attribute name="searchKey" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Employee" inverseName="department" inverseEntity="Employee"/>
                <relationship name="projects" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Project" inverseName="departments" inverseEntity="Project"/>
            </entity>
            <entity name="Employee" representedClassName="Employee" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="salary" optional="YES" attributeType="Double" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="departmentName" optional="YES" attributeType="String" derived="YES" derivationExpression="department.name"/>
                <attribute name="upperDepartment" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(department.name)"/>
                <attribute name="saved" optional="YES" attributeType="Date" derived="YES" derivationExpression="now()" usesScalarValueType="NO"/>
                <relationship name="department" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
            </entity>
            <entity name="Project" representedClassName="Project" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="departments" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Department" inverseName="projects" inverseEntity="Department"/>
            </entity>
        </model>
        """

    func store() throws -> Store {
        let folder = try temporaryDirectory().appendingPathComponent("Derived.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.contents.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try ModelLoader.load(folder.path).model
        return try Store.open(at: folder.deletingLastPathComponent().appendingPathComponent("D.sqlite").path, model: model)
    }

    func rows(_ store: Store, _ sql: String) throws -> [[String]] {
        try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.isNull ? "nil" : "\($0.storage.value!)" } }
        }
    }

    @Test func eachWriteLeavesTheDerivedValuesCoreDataWouldKeep() throws {
        let store = try store()
        try store.insertJSON("Department", #"""
            [{"name": "Crème", "employees": [{"name": "Ann", "salary": 10}, {"name": "Bo", "salary": 2.5}],
              "projects": [{"title": "P1"}, {"title": "P2"}]},
             {"name": "Empty"}]
            """#)
        let departments = "SELECT ZNAME, ZHEADCOUNT, ZPAYROLL, ZPROJECTCOUNT, ZLOWERNAME, ZSEARCHKEY FROM ZDEPARTMENT ORDER BY Z_PK"
        #expect(try rows(store, departments) == [["Crème", "2", "12.5", "2", "crème", "creme"], ["Empty", "0", "0.0", "0", "empty", "empty"]])
        let employees = "SELECT ZNAME, ZDEPARTMENTNAME, ZUPPERDEPARTMENT FROM ZEMPLOYEE ORDER BY Z_PK"
        #expect(try rows(store, employees) == [["Ann", "Crème", "CRÈME"], ["Bo", "Crème", "CRÈME"]])
        let saved = try rows(store, "SELECT ZSAVED FROM ZEMPLOYEE ORDER BY Z_PK").map { Double($0[0]) ?? 0 }
        #expect(saved.allSatisfy { $0 > Date().timeIntervalSinceReferenceDate - 60 })

        _ = try store.update(UpdateRequest(entity: "Department", predicate: try PredicateParser.parse("name == 'Crème'"),
                                           assignments: [UpdateAssignment("name", .text("Brûlée"))]))
        _ = try store.delete(ObjectFetchRequest(entity: "Employee", predicate: try PredicateParser.parse("name == 'Bo'")))
        #expect(try rows(store, departments).first == ["Brûlée", "1", "10.0", "2", "brûlée", "brulee"])
        #expect(try rows(store, employees) == [["Ann", "Brûlée", "BRÛLÉE"]])

        // `now()` is the time of the object's last save: an update of Ann sets it again, one of nobody leaves it.
        Thread.sleep(forTimeInterval: 0.01)
        _ = try store.update(UpdateRequest(entity: "Employee", predicate: try PredicateParser.parse("name == 'Ann'"),
                                           assignments: [UpdateAssignment("salary", .text("11"))]))
        let resaved = try rows(store, "SELECT ZSAVED FROM ZEMPLOYEE").map { Double($0[0]) ?? 0 }
        #expect(resaved.count == 1 && resaved[0] > saved[0])
        _ = try store.update(UpdateRequest(entity: "Employee", predicate: try PredicateParser.parse("name == 'Nobody'"),
                                           assignments: [UpdateAssignment("salary", .text("1"))]))
        #expect(try rows(store, "SELECT ZSAVED FROM ZEMPLOYEE").map { Double($0[0]) ?? 0 } == resaved)
        // An insert that gives the value (an export imported again) keeps it.
        try store.insertJSON("Employee", #"[{"name": "Cy", "saved": "2001-01-02T00:00:00Z"}]"#)
        let cy = try rows(store, "SELECT ZSAVED FROM ZEMPLOYEE WHERE ZNAME = 'Cy'")
        #expect(cy == [["86400"]])
        // The triggers live on cdstore's connection only: the file has none.
        #expect(try rows(store, "SELECT name FROM sqlite_master WHERE type = 'trigger'").isEmpty)
    }

    /// A lightweight migration that adds a derived attribute fills it, as Core Data does when it adds the column.
    @Test func aMigrationThatAddsADerivedAttributeFillsIt() throws {
        let folder = try temporaryDirectory()
        func write(_ name: String, _ text: String) throws -> String {
            let model = folder.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
            try text.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
            return model.path
        }
        let derived = #"<attribute name="headcount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="employees.@count" usesScalarValueType="YES"/>"#
        let v1 = try write("V1", Self.contents.split(separator: "\n").filter { !$0.contains("derived=\"YES\"") }.joined(separator: "\n"))
        let v2 = try write("V2", Self.contents.split(separator: "\n").filter { !$0.contains("derived=\"YES\"") || $0.contains("headcount") }
            .joined(separator: "\n"))
        #expect(Self.contents.contains(derived))
        let path = folder.appendingPathComponent("M.sqlite").path
        let store = try Store.open(at: path, model: try ModelLoader.load(v1).model)
        try store.insertJSON("Department", #"[{"name": "A", "employees": [{"name": "Ann"}, {"name": "Bo"}]}, {"name": "B"}]"#)
        try store.close()
        _ = try Store.migrate(at: path, to: try ModelLoader.load(v2), options: .init(backup: false))
        let migrated = try Store.open(at: path, model: try ModelLoader.load(v2).model)
        #expect(try rows(migrated, "SELECT ZNAME, ZHEADCOUNT FROM ZDEPARTMENT ORDER BY Z_PK") == [["A", "2"], ["B", "0"]])
    }

    @Test func nowIsLeftToTriggersOnTheConnectionAndTheRestToOneUpdateEach() throws {
        let store = try store()
        #expect(store.derivedValues?.statements.count == 7)
        #expect(store.derivedValues?.statements.contains { $0.contains("ZSAVED") } == false)
        #expect(store.derivedValues?.nowTriggers.count == 2)
    }
}

