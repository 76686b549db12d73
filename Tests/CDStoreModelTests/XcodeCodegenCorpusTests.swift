import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// The Swift classes cdstore writes against the ones Xcode wrote for the same model
/// (`../shared/corpus/codegen`): declarations, accessors and types, line by line; header comments and imports
/// are not compared (they name the author and the Xcode version).
///
/// Both pairs come from Xcode 9, before `Identifiable`, so that extension is left out of the comparison. Each
/// known difference is pinned: a test fails if one disappears as well as if a new one appears.
@Suite("Xcode's generated classes (corpus)")
struct XcodeCodegenCorpusTests {
    static let folder = Corpus.root.appendingPathComponent("codegen")
    static let kuery = folder.appendingPathComponent("kishikawakatsumi__Kuery__KueryTests")
    static let dongshuju = folder.appendingPathComponent("dongshuju__coredata-demo__CoreDataStack")

    /// The lines that declare something: classes, extensions, `@objc` selectors, `@NSManaged` members, the fetch
    /// request and the accessor MARKs.
    static func declarations(_ text: String) -> [String] {
        let prefixes = ["@NSManaged", "@objc(", "@nonobjc", "return NSFetchRequest", "public class ", "extension ", "// MARK:"]
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { line in prefixes.contains { line.hasPrefix($0) } && !line.contains("Identifiable") }
    }

    /// Xcode's files in `pair` and ours for its model, by file name.
    static func files(_ pair: URL) throws -> [(name: String, xcode: String, ours: String)] {
        let bundle = try FileManager.default.contentsOfDirectory(atPath: pair.path).first { $0.hasSuffix(".xcdatamodeld") }!
        let loaded = try ModelLoader.load(pair.appendingPathComponent(bundle).path)
        let code = ModelCodeWriter.generate(loaded.model, source: .init(path: bundle), options: .init(language: .swift))
        let ours = Dictionary(uniqueKeysWithValues: code.files.map { ($0.name, $0.text) })
        let names = try FileManager.default.contentsOfDirectory(atPath: pair.path).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(Set(names) == Set(ours.keys), "the same files as Xcode")
        return try names.map { name in
            (name, try String(contentsOf: pair.appendingPathComponent(name), encoding: .utf8), ours[name] ?? "")
        }
    }

    @Test func kueryDogAndPersonAreXcodesDeclarationsExactly() throws {
        try Corpus.require(Self.folder)
        let pristine = try Self.files(Self.kuery).filter { $0.name.hasPrefix("Dog") || $0.name.hasPrefix("Person") }
        #expect(pristine.count == 4)
        for file in pristine {
            #expect(Self.declarations(file.ours) == Self.declarations(file.xcode), "\(file.name)")
        }
        // The to-many's four accessors, with their selectors, are among them.
        let person = try #require(pristine.first { $0.name == "Person+CoreDataProperties.swift" })
        #expect(Self.declarations(person.ours).filter { $0.hasPrefix("@objc(") }
                == ["@objc(addDogsObject:)", "@objc(removeDogsObject:)", "@objc(addDogs:)", "@objc(removeDogs:)"])
    }

    /// TestObject and OptionalTestObject were edited by hand after Xcode generated them (the corpus note and the
    /// project's history say so): they differ exactly in the edited lines.
    @Test func kueryHandEditedClassesDifferOnlyInTheEditedLines() throws {
        try Corpus.require(Self.folder)
        let files = try Self.files(Self.kuery)
        func difference(_ name: String) throws -> (onlyXcode: Set<String>, onlyOurs: Set<String>) {
            let file = try #require(files.first { $0.name == name })
            let xcode = Set(Self.declarations(file.xcode)), ours = Set(Self.declarations(file.ours))
            return (xcode.subtracting(ours), ours.subtracting(xcode))
        }
        let test = try difference("TestObject+CoreDataProperties.swift")
        #expect(test.onlyXcode == [
            "@NSManaged public var intCol: Int", "@NSManaged public var decimalCol: NSDecimalNumber",
            "@NSManaged public var stringCol: String", "@NSManaged public var nsstringCol: NSString",
            "@NSManaged public var dataCol: Data", "@NSManaged public var nsdataCol: NSData",
            "@NSManaged public var dateCol: Date", "@NSManaged public var nsdateCol: NSDate",
        ])
        #expect(test.onlyOurs == [
            "@NSManaged public var intCol: Int64", "@NSManaged public var decimalCol: NSDecimalNumber?",
            "@NSManaged public var stringCol: String?", "@NSManaged public var nsstringCol: String?",
            "@NSManaged public var dataCol: Data?", "@NSManaged public var nsdataCol: Data?",
            "@NSManaged public var dateCol: Date?", "@NSManaged public var nsdateCol: Date?",
        ])
        let optional = try difference("OptionalTestObject+CoreDataProperties.swift")
        #expect(optional.onlyXcode == ["@NSManaged public var nsstringCol: NSString?",
                                       "@NSManaged public var nsdataCol: NSData?", "@NSManaged public var nsdateCol: NSDate?"])
        #expect(optional.onlyOurs == ["@NSManaged public var nsstringCol: String?",
                                      "@NSManaged public var nsdataCol: Data?", "@NSManaged public var nsdateCol: Date?"])
        for name in ["TestObject+CoreDataClass.swift", "OptionalTestObject+CoreDataClass.swift"] {
            let file = try #require(files.first { $0.name == name })
            #expect(Self.declarations(file.ours) == Self.declarations(file.xcode), "\(name)")
        }
    }

    /// The CoreDataStack demo's Xcode wrote Date and Binary attributes as `NSDate?`/`NSData?` (the
    /// Foundation-class spelling of the Swift 3 era; Kuery's Xcode 9.0 and today's Xcode write `Date?`/`Data?`),
    /// and AllType's properties in the order they were added in the editor, which the model file does not keep.
    /// With those two things accounted for, every declaration matches.
    @Test func coreDataStackMatchesXcodeUpToFoundationSpellingAndEditorOrder() throws {
        try Corpus.require(Self.folder)
        var respelled: [String] = []
        for file in try Self.files(Self.dongshuju) {
            let xcode = Self.declarations(file.xcode).map { line -> String in
                let swift = line.replacingOccurrences(of: ": NSDate?", with: ": Date?")
                    .replacingOccurrences(of: ": NSData?", with: ": Data?")
                if swift != line { respelled.append(line) }
                return swift
            }
            let ours = Self.declarations(file.ours)
            if file.name == "AllType+CoreDataProperties.swift" {
                #expect(ours.sorted() == xcode.sorted())
                #expect(ours != xcode, "the editor's order is not the file's: if this holds, pin the order instead")
            } else {
                #expect(ours == xcode, "\(file.name)")
            }
        }
        #expect(respelled.sorted() == ["@NSManaged public var publicDate: NSDate?", "@NSManaged public var typeBinary: NSData?",
                                       "@NSManaged public var typeDate: NSDate?"])
    }

    /// Every type the model editor offers, scalar and not, as AllType declares it.
    @Test func everyAttributeTypeHasXcodesSwiftType() throws {
        try Corpus.require(Self.folder)
        let file = try #require(try Self.files(Self.dongshuju).first { $0.name == "AllType+CoreDataProperties.swift" })
        let types = Dictionary(uniqueKeysWithValues: Self.declarations(file.ours).filter { $0.hasPrefix("@NSManaged public var") }
            .map { line -> (String, String) in
                let parts = line.dropFirst("@NSManaged public var ".count).split(separator: ":", maxSplits: 1)
                return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
            })
        #expect(types == [
            "typeBinary": "Data?", "typeBoolean": "Bool", "typeDate": "Date?", "typeDecimal": "NSDecimalNumber?",
            "typeDouble": "Double", "typeFloat": "Float", "typeInt16": "Int16", "typeInt32": "Int32", "typeInt64": "Int64",
            "typeString": "String?", "typeTransformable": "NSObject?", "typeUndefine": "NSObject?", "typeURI": "URL?",
            "typeUUID": "UUID?",
        ])
    }
}
