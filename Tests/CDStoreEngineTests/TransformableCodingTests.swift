import CDStoreModel
@testable import CDStoreEngine
import Foundation
import GRDB
import Testing

/// Transformable attributes with a keyed-archive transformer: JSON in, keyed archive in the column, JSON out;
/// other transformers keep base64.
@Suite struct TransformableCodingTests {
    static func attribute(_ transformer: String? = nil) -> Attribute {
        var a = Attribute(name: "payload", type: .transformable, isOptional: true)
        a.valueTransformerName = transformer
        return a
    }

    static let json: InputValue = .object([
        ("title", .string("Still Life")),
        ("sizes", .array([.integer(30), .double(40.5), .bool(false), .null])),
        ("meta", .object([("nested", .array([.object([("deep", .string("yes"))])])), ("empty", .object([]))])),
        ("when", .object([("$date", .string("2024-05-01T12:30:00Z"))])),
        ("bytes", .object([("$data", .string("AAEC"))])),
    ])

    static let expected: ObjectValue = .dictionary([
        ("title", .string("Still Life")),
        ("sizes", .array([.integer(30), .double(40.5), .bool(false), .null])),
        ("meta", .dictionary([("nested", .array([.dictionary([("deep", .string("yes"))])])), ("empty", .dictionary([]))])),
        ("when", .date(736_259_400)),
        ("bytes", .data(Data([0, 1, 2]))),
    ])

    /// Stores a value in a real SQLite BLOB column and reads it back.
    static func throughSQLite(_ stored: DatabaseValue) throws -> DatabaseValue {
        let db = try DatabaseQueue()
        return try db.write { db in
            try db.execute(sql: "CREATE TABLE T (ZPAYLOAD BLOB)")
            try db.execute(sql: "INSERT INTO T VALUES (?)", arguments: [stored])
            return try DatabaseValue.fetchOne(db, sql: "SELECT ZPAYLOAD FROM T")!
        }
    }

    @Test(arguments: [nil, "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData"])
    func jsonRoundTrips(transformer: String?) throws {
        let attribute = Self.attribute(transformer)
        #expect(TransformableCoding.usesKeyedArchive(attribute))
        let stored = try AttributeCoding.storedValue(Self.json, for: attribute)
        guard case .blob(let bytes) = stored.storage else {
            Issue.record("not a blob: \(stored)")
            return
        }
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        let value = AttributeCoding.objectValue(try Self.throughSQLite(stored), for: attribute)
        #expect(value == Self.expected)
        #expect(JSONText.encode(value).hasPrefix(#"{"title":"Still Life","sizes":[30,40.5,false,null],"#))
    }

    @Test func sameInputSameBytes() throws {
        let a = try AttributeCoding.storedValue(Self.json, for: Self.attribute())
        let b = try AttributeCoding.storedValue(Self.json, for: Self.attribute())
        #expect(a == b)
    }

    @Test func scalarsAndStrings() throws {
        let attribute = Self.attribute()
        for (input, output) in [(InputValue.integer(5), ObjectValue.integer(5)), (.double(1.25), .double(1.25)),
                                (.bool(true), .bool(true)), (.string("plain text"), .string("plain text")),
                                // Base64 that is not a property list is just a string.
                                (.string("AAEC"), .string("AAEC")),
                                (.array([]), .array([]))] {
            let stored = try AttributeCoding.storedValue(input, for: attribute)
            #expect(AttributeCoding.objectValue(stored, for: attribute) == output, "\(input)")
        }
        #expect(try AttributeCoding.storedValue(.null, for: attribute) == .null)
    }

    /// What `export` prints for a value it cannot decode (base64 of the archive) imports back byte for byte.
    @Test func undecodableArchivesStayBytesAndReimport() throws {
        let plist: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["UIRed": .real(1), "UIGreen": .real(0.5), "UIBlue": .real(0), "UIAlpha": .real(1),
                             "NSColorSpace": .int(2), "$class": .uid(2)]),
                .dictionary(["$classname": .string("UIColor"), "$classes": .array([.string("UIColor"), .string("NSObject")])]),
            ]),
        ])
        let archive = try BinaryPropertyListWriter.data(plist)
        let attribute = Self.attribute()
        let shown = AttributeCoding.objectValue(archive.databaseValue, for: attribute)
        #expect(shown == .data(archive))
        let text = ValueText.plain(shown)
        #expect(try AttributeCoding.storedValue(.string(text), for: attribute) == archive.databaseValue)
        // Bytes that are no archive at all are shown as they are.
        let junk = Data([1, 2, 3])
        #expect(AttributeCoding.objectValue(junk.databaseValue, for: attribute) == .data(junk))
    }

    @Test func otherTransformersKeepBase64() throws {
        let attribute = Self.attribute("ColorTransformer")
        #expect(!TransformableCoding.usesKeyedArchive(attribute))
        let archive = try KeyedArchiveWriter.archive(.array([.string("x")]))
        let base64 = Data(archive).base64EncodedString()
        let stored = try AttributeCoding.storedValue(.string(base64), for: attribute)
        #expect(stored == Data(archive).databaseValue)
        #expect(AttributeCoding.objectValue(stored, for: attribute) == .data(Data(archive)))
        let error = #expect(throws: StoreError.self) { try AttributeCoding.storedValue(.array([]), for: attribute) }
        #expect(error?.code == .invalidInput)
        #expect(error?.description == "expected base64-encoded data, got an array")
    }

    @Test func badInputIsRefused() throws {
        let attribute = Self.attribute()
        let duplicate = #expect(throws: StoreError.self) {
            try AttributeCoding.storedValue(.object([("a", .integer(1)), ("a", .integer(2))]), for: attribute)
        }
        #expect(duplicate?.code == .invalidInput)
        #expect(duplicate?.description == "key 'a' appears twice; a dictionary holds each key once")
        let badData = #expect(throws: StoreError.self) {
            try AttributeCoding.storedValue(.array([.object([("$data", .string("%%%"))])]), for: attribute)
        }
        #expect(badData?.code == .invalidInput)
        #expect(badData?.description == #""$data" at [0] expects base64-encoded data, got '%%%'"#)
        let badDate = #expect(throws: StoreError.self) {
            try AttributeCoding.storedValue(.object([("$date", .string("yesterday"))]), for: attribute)
        }
        #expect(badDate?.code == .invalidInput)
        #expect(badDate?.description
                == "expected an ISO 8601 date (2024-05-01, 2024-05-01T12:30:00Z) or seconds since 2001-01-01, got 'yesterday'")
    }

    @Test func archivesAreWhatFoundationUnarchives() throws {
        let stored = try AttributeCoding.storedValue(Self.json, for: Self.attribute())
        guard case .blob(let data) = stored.storage else {
            Issue.record("a Transformable value is stored as a blob, not \(stored.storage)")
            return
        }
        let classes: [AnyClass] = [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self,
                                   NSData.self, NSNull.self]
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data) as? NSDictionary
        #expect(object?["title"] as? String == "Still Life")
        #expect((object?["when"] as? Date)?.timeIntervalSinceReferenceDate == 736_259_400)
    }
}
