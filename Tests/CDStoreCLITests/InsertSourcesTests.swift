import CDStoreTestSupport
import Foundation
import Testing

/// Every way `cdstore insert` takes records goes through the library's insert: KEY=VALUE, --json text (JSON, or
/// NDJSON with --nl), --file, standard input.
@Suite struct InsertSourcesTests {
    @Test func everySourceInserts() throws {
        let box = try Sandbox()
        #expect(try box.ok(["insert", "Item", "i16=1"]) == "inserted 1 object into Item\n")
        #expect(try box.ok(["insert", "Item", "--json", #"[{"i16": 2}, {"i16": 3}]"#]) == "inserted 2 objects into Item\n")
        #expect(try box.ok(["insert", "Item", "--nl", "--json", "{\"i16\": 4}\n{\"i16\": 5}\n"]) == "inserted 2 objects into Item\n")
        let file = try box.write("in.csv", "i16\n6\n7\n")
        #expect(try box.ok(["insert", "Item", "--file", file]) == "inserted 2 objects into Item\n")
        let piped = try box.run(["insert", "Item", "--nl"], stdin: "{\"i16\": 8}\n")
        #expect(piped.status == 0 && piped.stdout == "inserted 1 object into Item\n", "\(piped.stderr)")
        #expect(try box.ok(["count", "Item"]) == "8\n")
    }

    /// A file that cannot be read is bad input (exit status 1), and the store a first insert would have created
    /// is not left behind.
    @Test func aMissingFileIsBadInputAndLeavesNoStore() throws {
        let box = try Sandbox()
        let result = try box.run(["insert", "Item", "--file", box.path("missing.json")])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: box.store))
    }
}
