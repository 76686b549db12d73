@testable import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// Keyed archives of property-list objects: the layout Apple's `NSKeyedArchiver` writes, reading them back
/// (ours and Foundation's `NSKeyedUnarchiver`), and the property-list objects inside Apple-written archives.
@Suite struct PropertyListArchiveTests {
    static let sample: ArchivedPropertyList = .dictionary([
        ("name", .string("Folio")),
        ("tags", .array([.string("a"), .string("b"), .string("a")])),
        ("count", .integer(42)),
        ("ratio", .double(0.25)),
        ("enabled", .bool(true)),
        ("created", .date(737_057_646.5)),
        ("blob", .data([0, 1, 2, 255])),
        ("nothing", .null),
        ("nested", .array([.dictionary([("x", .integer(-7)), ("y", .array([]))]), .dictionary([]), .null])),
        ("unicode", .string("Zoë 🎨")),
    ])

    @Test func roundTripsThroughOwnReader() throws {
        let bytes = try KeyedArchiveWriter.archive(Self.sample)
        let archive = try KeyedArchive(data: Data(bytes))
        #expect(try archive.propertyListRoot() == Self.sample)
        for scalar: ArchivedPropertyList in [.string("just text"), .integer(1), .bool(false), .double(2.5), .date(0),
                                             .data([9]), .null, .array([]), .dictionary([])] {
            let archive = try KeyedArchive(data: Data(try KeyedArchiveWriter.archive(scalar)))
            #expect(try archive.propertyListRoot() == scalar)
        }
    }

    /// The layout of Apple's archiver: `$null` first, the root at 1, objects depth first, each class record
    /// after the first object of its class, inline strings and numbers.
    @Test func layoutIsApples() throws {
        let value: ArchivedPropertyList = .array([.string("a"), .dictionary([("k", .integer(1))]), .date(10), .null])
        let plist = try PropertyListReader.read(try KeyedArchiveWriter.archive(value))
        let top = try #require(plist.dictionaryValue)
        #expect(top["$archiver"] == .string("NSKeyedArchiver"))
        #expect(top["$version"] == .int(100_000))
        #expect(top["$top"] == .dictionary(["root": .uid(1)]))
        let expected: [PropertyListValue] = [
            .string("$null"),
            .dictionary(["NS.objects": .array([.uid(2), .uid(3), .uid(7), .uid(9)]), "$class": .uid(11)]),
            .string("a"),
            .dictionary(["NS.keys": .array([.uid(4)]), "NS.objects": .array([.uid(5)]), "$class": .uid(6)]),
            .string("k"),
            .int(1),
            .dictionary(["$classname": .string("NSDictionary"), "$classes": .array([.string("NSDictionary"), .string("NSObject")])]),
            .dictionary(["NS.time": .real(10), "$class": .uid(8)]),
            .dictionary(["$classname": .string("NSDate"), "$classes": .array([.string("NSDate"), .string("NSObject")])]),
            .dictionary(["$class": .uid(10)]),
            .dictionary(["$classname": .string("NSNull"), "$classes": .array([.string("NSNull"), .string("NSObject")])]),
            .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])]),
        ]
        #expect(top["$objects"] == .array(expected))
    }

    @Test func sameValueSameBytes() throws {
        let a = try KeyedArchiveWriter.archive(Self.sample)
        #expect(a == (try KeyedArchiveWriter.archive(Self.sample)))
        #expect(a.starts(with: Array("bplist00".utf8)))
    }

    /// Foundation's own `NSKeyedUnarchiver` (swift-corelibs, which follows Apple's format) reads our archives
    /// with the secure-coding class list Core Data's `NSSecureUnarchiveFromData` allows.
    @Test func foundationUnarchiverReadsOurArchives() throws {
        let data = Data(try KeyedArchiveWriter.archive(Self.sample))
        let classes: [AnyClass] = [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self,
                                   NSData.self, NSNull.self]
        let object = try NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data)
        let dict = try #require(object as? NSDictionary)
        #expect(dict["name"] as? String == "Folio")
        #expect((dict["tags"] as? NSArray)?.count == 3)
        #expect((dict["count"] as? NSNumber)?.intValue == 42)
        #expect((dict["ratio"] as? NSNumber)?.doubleValue == 0.25)
        #expect((dict["created"] as? Date)?.timeIntervalSinceReferenceDate == 737_057_646.5)
        #expect((dict["blob"] as? Data) == Data([0, 1, 2, 255]))
        #expect(dict["nothing"] is NSNull)
        #expect(dict["unicode"] as? String == "Zoë 🎨")
        let nested = try #require(dict["nested"] as? NSArray)
        #expect(((nested[0] as? NSDictionary)?["x"] as? NSNumber)?.intValue == -7)
        #expect(nested[2] is NSNull)
    }

    /// And archives Foundation's `NSKeyedArchiver` writes decode with our reader.
    @Test func foundationArchivesDecode() throws {
        let object: NSDictionary = [
            "list": NSArray(array: [NSNumber(value: 1), NSNumber(value: 2.5), "x", NSNull()]),
            "when": NSDate(timeIntervalSinceReferenceDate: 100),
            "bytes": NSData(bytes: [1, 2, 3] as [UInt8], length: 3),
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
        let decoded = try KeyedArchive(data: data).propertyListRoot()
        guard case .dictionary(let entries) = decoded else {
            Issue.record("not a dictionary: \(decoded)")
            return
        }
        let byKey = Dictionary(entries, uniquingKeysWith: { a, _ in a })
        #expect(byKey["list"] == .array([.integer(1), .double(2.5), .string("x"), .null]))
        #expect(byKey["when"] == .date(100))
        #expect(byKey["bytes"] == .data([1, 2, 3]))
    }

    @Test func otherClassesAreUnsupported() throws {
        // A hand-made archive of a UIColor, as UIKit writes it.
        let plist: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["UIColorComponentCount": .int(4), "UIRed": .real(1), "UIGreen": .real(0), "UIBlue": .real(0),
                             "UIAlpha": .real(1), "NSColorSpace": .int(2), "$class": .uid(2)]),
                .dictionary(["$classname": .string("UIColor"), "$classes": .array([.string("UIColor"), .string("NSObject")])]),
            ]),
        ])
        let archive = try KeyedArchive(data: try BinaryPropertyListWriter.data(plist))
        let error = #expect(throws: KeyedArchive.UnsupportedContent.self) { try archive.propertyListRoot() }
        #expect(error?.description == "an archived UIColor, not a property-list object")
    }

    @Test func cyclesAreRefused() throws {
        let plist: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .int(100_000), "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["NS.objects": .array([.uid(1)]), "$class": .uid(2)]),
                .dictionary(["$classname": .string("NSMutableArray"),
                             "$classes": .array([.string("NSMutableArray"), .string("NSArray"), .string("NSObject")])]),
            ]),
        ])
        let archive = try KeyedArchive(data: try BinaryPropertyListWriter.data(plist))
        let error = #expect(throws: KeyedArchive.UnsupportedContent.self) { try archive.propertyListRoot() }
        #expect(error?.description == "NSMutableArray #1 contains itself")
    }

    /// Apple-written archives: every NSDictionary/NSArray (and mutable kinds) inside the corpus's compiled
    /// models that holds only property-list objects decodes, re-archives and decodes to the same value; and
    /// the class records Apple wrote for these classes are the ones our writer writes.
    @Test func appleArchivedCollectionsInCompiledModels() throws {
        var decoded = 0, refused = 0
        var appleClassRecords: [String: PropertyListValue] = [:]
        for folder in try Corpus.compiledModels() {
            let momd = folder.lastPathComponent
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".mom") {
                let archive = try KeyedArchive(data: try Data(contentsOf: folder.appendingPathComponent(file)))
                let error = #expect(throws: KeyedArchive.UnsupportedContent.self) { try archive.propertyListRoot() }
                #expect(error?.description == "an archived NSManagedObjectModel, not a property-list object", "\(momd)/\(file)")
                for index in archive.objects.indices where index > 0 {
                    let chain = archive.classChain(index)
                    guard chain.contains("NSDictionary") || chain.contains("NSArray") else { continue }
                    if let record = archive.reference(archive.fields(index)["$class"]) {
                        appleClassRecords[chain[0]] = archive.objects[record]
                    }
                    guard let value = try? archive.propertyListObject(at: index) else { refused += 1; continue }
                    let again = try KeyedArchive(data: Data(try KeyedArchiveWriter.archive(value))).propertyListRoot()
                    #expect(again == value, "\(momd)/\(file) object \(index)")
                    decoded += 1
                }
            }
        }
        #expect(decoded >= 10, "decoded \(decoded), refused \(refused)")
        for name in ["NSDictionary", "NSArray"] {
            #expect(appleClassRecords[name] == .dictionary([
                "$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")]),
            ]))
        }
    }
}
