import CDStoreTestSupport
import Foundation
import Testing

/// SwiftData values as the app's types hold them (coredata-format.md §1.5): a collection inside a `Codable` struct
/// is JSON in a Binary element column, and an enum with a raw value is a composite of one element holding the raw
/// value. With the `@Model` sources as the model, `fetch` and `export` print the JSON value and the raw value, and
/// `insert` of what they printed writes the very bytes SwiftData wrote.
///
/// The rows are the shape of a real SwiftData store's (the one §1.5 records): the element columns are filled with
/// the bytes Foundation's `JSONEncoder` writes (compact, `/` as `\/`, raw UTF-8, object keys in whatever order the
/// encoder's dictionary gave them) by Python's sqlite3, as SwiftData would have written them.
@Suite struct SwiftDataValuesCLITests {
    static let source = SwiftDataRecipeSource.text

    /// The element columns as SwiftData's `JSONEncoder` fills them, per row (NULL where nil).
    static let storedJSON: [(botanicals: String?, garnishes: String?)] = [
        (#"["Grapefruit","Sloe Berries (Blackthorn)","Anise"]"#,
         #"[{"name":"Lime peel","grams":2.5},{"grams":5,"name":"Rosemary \/ thyme"}]"#),
        (#"["Café","tab\there","quote \"q\" and \\"]"#, nil),
        // Not JSONEncoder's bytes (white space): kept as bytes, printed base64.
        (#"[ "Juniper" ]"#, #"[]"#),
    ]

    static func sandbox() throws -> Sandbox {
        let folder = try temporaryDirectory().appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: folder.appendingPathComponent("Recipe.swift"))
        return try Sandbox(model: folder.path)
    }

    /// A store from the sources with three recipes whose JSON elements hold ``storedJSON``'s bytes.
    static func filled() throws -> Sandbox {
        let box = try sandbox()
        try box.ok(["insert", "Recipe", "--nl"], stdin: """
            {"title":"Bramble","bookName":"Gin","level":{"level":"Large"},"tier":{"tier":2},"shape":{"shape":"round"},"profile":{"strength":41.5}}
            {"title":"Café","bookName":"Gin","shape":{"shape":"square"},"profile":{"strength":null}}
            {"title":"Plain","bookName":"Gin","shape":{"shape":"round"},"profile":{"strength":40}}
            """)
        let rows = storedJSON.map { row in
            "[\([row.botanicals, row.garnishes].map { $0.map { "\"" + hex(Array($0.utf8)) + "\"" } ?? "None" }.joined(separator: ", "))]"
        }.joined(separator: ", ")
        let result = try ProcessRunner.python("""
            import sqlite3, sys
            con = sqlite3.connect(sys.argv[1])
            for pk, row in enumerate([\(rows)], start=1):
                b, g = [None if v is None else bytes.fromhex(v) for v in row]
                con.execute("UPDATE ZRECIPE SET ZBOTANICALS = ?, ZGARNISHES = ? WHERE Z_PK = ?", (b, g, pk))
            con.commit()
            """, [box.store])
        #expect(result.status == 0, "\(result.stderr)")
        return box
    }

    /// Every column of ZRECIPE but Z_PK/Z_ENT/Z_OPT per row, by Python's sqlite3: type and hex bytes.
    static func dump(_ store: String) throws -> String {
        let result = try ProcessRunner.python("""
            import sqlite3, struct, sys
            con = sqlite3.connect(sys.argv[1])
            con.text_factory = bytes
            cols = sorted(r[1].decode() for r in con.execute("PRAGMA table_info(ZRECIPE)") if not r[1].startswith(b"Z_"))
            for row in con.execute("SELECT " + ", ".join(cols) + " FROM ZRECIPE ORDER BY Z_PK"):
                cells = []
                for c, v in zip(cols, row):
                    if v is None: s = "null"
                    elif isinstance(v, int): s = "i:%d" % v
                    elif isinstance(v, float): s = "r:" + struct.pack(">d", v).hex()
                    else: s = type(v).__name__ + ":" + v.hex()
                    cells.append(c + "=" + s)
                print(" ".join(cells))
            """, [store])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static let printed = [
        #"{"_id":"x-coredata://<store-uuid>/Recipe/p1","title":"Bramble","bookName":"Gin","level":"Large","tier":2,"shape":"round","profile":{"botanicals":["Grapefruit","Sloe Berries (Blackthorn)","Anise"],"garnishes":[{"name":"Lime peel","grams":2.5},{"grams":5,"name":"Rosemary / thyme"}],"strength":41.5}}"#,
        #"{"_id":"x-coredata://<store-uuid>/Recipe/p2","title":"Café","bookName":"Gin","level":null,"tier":null,"shape":"square","profile":{"botanicals":["Café","tab\there","quote \"q\" and \\"],"garnishes":null,"strength":null}}"#,
        #"{"_id":"x-coredata://<store-uuid>/Recipe/p3","title":"Plain","bookName":"Gin","level":null,"tier":null,"shape":"round","profile":{"botanicals":"WyAiSnVuaXBlciIgXQ==","garnishes":[],"strength":40}}"#,
    ]

    /// `fetch` and `export` (streamed and not) print the JSON value of each JSON element and the raw value of each
    /// enum; bytes that are not `JSONEncoder`'s stay base64.
    @Test func fetchAndExportPrintTheAppsValues() throws {
        let box = try Self.filled()
        let fetched = try box.ok(["fetch", "Recipe", "--format", "ndjson"])
        #expect(fetched == Self.printed.joined(separator: "\n") + "\n")
        let exported = try box.ok(["export", "Recipe", "--format", "ndjson"])
        #expect(exported.replacingOccurrences(of: #","_entity":"Recipe""#, with: "") == fetched)
        let general = try CLIRunner.run(["export", "Recipe", "--format", "ndjson", "--store", box.store,
                                         "--model", box.model], environment: ["CDSTORE_NO_STREAMING": "1"])
        #expect(Sandbox.anonymized(general.stdout) == exported)
        let csv = try box.ok(["export", "Recipe", "--format", "csv"])
        #expect(csv.hasPrefix("_id,title,bookName,level,tier,shape,profile.botanicals,profile.garnishes,profile.strength\n"))
        #expect(csv.contains(#","Large",2,"round","[""Grapefruit"",""Sloe Berries (Blackthorn)"",""Anise""]","#)
                || csv.contains(#",Large,2,round,"[""Grapefruit"",""Sloe Berries (Blackthorn)"",""Anise""]","#), "\(csv)")
        // An enum is compared, sorted and set as its raw value, as it prints.
        #expect(try box.ok(["count", "Recipe", "--where", "tier == 2 AND level == 'Large'"]) == "1\n")
        try box.ok(["update", "Recipe", "--where", "title == 'Café'", "--set", "tier=1"])
        #expect(try box.ok(["fetch", "Recipe", "--where", "tier == 1", "--format", "ndjson"])
            .contains(#""title":"Café","bookName":"Gin","level":null,"tier":1,"#))
    }

    /// Inserting what `export` printed, as NDJSON, JSON or CSV, into a new store from the same sources writes
    /// every column with the bytes of the first store: SwiftData's JSON byte for byte, the raw values as they were.
    @Test func insertingTheExportGivesTheSameBytes() throws {
        let box = try Self.filled()
        let original = try Self.dump(box.store)
        #expect(original.contains("ZBOTANICALS=bytes:" + Self.hex(Array(Self.storedJSON[0].botanicals!.utf8))))
        for format in ["ndjson", "json", "csv"] {
            let exported = box.path("recipes.\(format)")
            try box.ok(["export", "Recipe", "--format", format, "--output", exported])
            let copy = box.path("copy-\(format).sqlite")
            try box.ok(["insert", "Recipe", "--file", exported], store: copy)
            #expect(try Self.dump(copy) == original, "\(format)")
        }
        // The app's values typed by hand write the same bytes as SwiftData's JSONEncoder.
        let typed = try Self.sandbox()
        try typed.ok(["insert", "Recipe", "--json", """
            {"title":"Bramble","bookName":"Gin","level":"Large","tier":2,"shape":"round","profile":{
             "botanicals":["Grapefruit", "Sloe Berries (Blackthorn)", "Anise"],
             "garnishes":[{"name": "Lime peel", "grams": 2.5}, {"grams": 5.0, "name": "Rosemary / thyme"}],
             "strength":41.5}}
            """])
        #expect(try Self.dump(typed.store).split(separator: "\n").first.map(String.init)
                == original.split(separator: "\n").first.map(String.init))
    }

    /// Without the sources, cdstore has the store's cached model only, which holds Core Data types: a composite of
    /// one element is an object of it and a Binary element base64, as for any Core Data model. (The same cached
    /// model comes from `enum Tier: Int` and from `struct Tier: Codable { var tier: Int }`; cdstore does not guess.)
    @Test func theCachedModelAloneShowsTheColumnsForms() throws {
        let box = try Self.filled()
        let result = try CLIRunner.run(["fetch", "Recipe", "--format", "ndjson", "--store", box.store, "--limit", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let botanicals = Data(Self.storedJSON[0].botanicals!.utf8).base64EncodedString()
        #expect(Sandbox.anonymized(result.stdout).contains(#""tier":{"tier":2}"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""botanicals":"\#(botanicals)""#), "\(result.stdout)")
    }
}
