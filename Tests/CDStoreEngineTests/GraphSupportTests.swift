import CDStoreJSON
import CDStoreModel
import CDStoreTestSupport
import Foundation
import GRDB
import Testing
@testable import CDStoreEngine

/// Shared helpers of the object-graph tests: the Organization model, stores, JSON records that keep
/// key order, and raw SQL on the store file.
enum Org {
    static let url = Corpus.schemas.appendingPathComponent("Organization.xcdatamodeld")
    static let model: ManagedObjectModel = try! ModelLoader.load(url.path).model

    /// A new empty store of `model` (the Organization model by default).
    static func store(_ model: ManagedObjectModel = Org.model, name: String = "Org.sqlite") throws -> Store {
        try Store.open(at: try temporaryDirectory().appendingPathComponent(name).path, model: model)
    }

    /// A model from cdstore's JSON model format, given just its entities.
    static func jsonModel(_ entities: String) throws -> ManagedObjectModel {
        let text = #"{"format":"cdstore-model","formatVersion":1,"entities":"# + entities + "}"
        let url = try temporaryDirectory().appendingPathComponent("Model.json")
        try Data(text.utf8).write(to: url)
        return try ModelLoader.load(url.path).model
    }
}

/// Records from JSON text (one object or an array of objects), keys in input order, `_entity` picked out.
func records(_ json: String) throws -> [InputRecord] {
    let value = try JSONReader.parse(json)
    let items: [InputValue]
    if case .array(let list) = value { items = list } else { items = [value] }
    return items.map { item in
        guard case .object(let fields) = item else { return InputRecord(fields: []) }
        var entity: String?
        if case .string(let name)? = fields.first(where: { $0.0 == "_entity" })?.1 { entity = name }
        return InputRecord(fields: fields, entityName: entity)
    }
}

extension Store {
    /// Rows of `sql` on the store file, each as `a|b|c` with NULL for null (like the sqlite3 shell).
    func rows(_ sql: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { $0.isNull ? "NULL" : "\($0.storage.value!)" }.joined(separator: "|")
            }
        }
    }

    /// The object ID URI of the `entity` object with primary key `pk`.
    func uri(_ entity: String, _ pk: Int64) -> String {
        "x-coredata://\(metadata.uuid)/\(entity)/p\(pk)"
    }

    /// Inserts JSON records into `entity`.
    @discardableResult
    func insertJSON(_ entity: String, _ json: String, upsert: Bool = false, mapping: JSONMapping? = nil) throws -> Int {
        try insert(try records(json), into: entity, options: InsertSettings(upsert: upsert, mapping: mapping))
    }

    /// The value of `key` of every object `request` selects, as text.
    func values(_ request: ObjectFetchRequest, _ key: String) throws -> [String] {
        try fetch(request).map { object in Self.text(object[key] ?? .null) }
    }

    static func text(_ value: ObjectValue) -> String {
        switch value {
        case .null: "nil"
        case .string(let s): s
        case .array(let items): "[" + items.map(text).joined(separator: ",") + "]"
        default: "\(value)"
        }
    }
}

/// The text of a thrown StoreError (or any error).
func errorText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}

@Suite("Graph test support")
struct GraphSupportTests {
    @Test func miniJSONKeepsOrderAndTypes() throws {
        let parsed = try records(#"[{"b":1,"a":[true,null,2.5,"x\"y"],"_entity":"E","o":{"z":{}}}]"#)
        #expect(parsed.count == 1)
        #expect(parsed[0].fields.map(\.0) == ["b", "a", "_entity", "o"])
        #expect(parsed[0].entityName == "E")
        #expect(parsed[0].fields[1].1 == .array([.bool(true), .null, .double(2.5), .string("x\"y")]))
    }

    @Test func organizationLayoutIsWhatTheTestsAssume() throws {
        let store = try Org.store()
        let numbers = store.layout.entities.map { "\($0.name)=\($0.number)" }
        #expect(numbers == ["Address=1", "Badge=2", "Party=3", "Organization=4", "Person=5", "Contractor=6", "Employee=7",
                            "Project=8", "Tag=9", "Task=10"])
        let tables = store.layout.tables.map(\.createSQL)
        #expect(tables == [
            "CREATE TABLE ZADDRESS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCITY VARCHAR, ZSTREET VARCHAR )",
            "CREATE TABLE ZBADGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHOLDER INTEGER, Z5_HOLDER INTEGER, ZCODE VARCHAR )",
            "CREATE TABLE ZPARTY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZHEADQUARTERS INTEGER, ZBADGE INTEGER, "
                + "ZORGANIZATION INTEGER, ZEMPLOYEENUMBER INTEGER, ZMANAGER INTEGER, ZCREATEDAT TIMESTAMP, ZFOUNDED TIMESTAMP, "
                + "ZSALARY DECIMAL, ZNAME VARCHAR, ZEMAIL VARCHAR, ZAGENCY VARCHAR )",
            "CREATE TABLE Z_5PROJECTS ( Z_5PEOPLE INTEGER, Z_8PROJECTS INTEGER, PRIMARY KEY (Z_5PEOPLE, Z_8PROJECTS) )",
            "CREATE TABLE Z_5FRIENDS ( Z_5FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_5FRIENDS, REFLEXIVE) )",
            "CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z4TAGS INTEGER, ZLABEL VARCHAR )",
            "CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDONE INTEGER, ZPROJECT INTEGER, "
                + "Z_FOK_PROJECT INTEGER, ZTITLE VARCHAR )",
        ])
    }
}
