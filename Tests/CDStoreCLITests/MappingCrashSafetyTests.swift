import CDStoreTestSupport
import Foundation
import Testing

/// A heavyweight hop (a mapping model's) killed inside its write transaction leaves the old store as it was; the
/// next `migrate` finishes it with every object and link.
extension CrashSafetyTests {
    @Test func aMappedMigrationKilledInsideItsWriteFinishesOnTheNextRunWithEveryObject() throws {
        var random = SeededGenerator(state: 24 &+ Self.seed)
        let plus = Corpus.root.appendingPathComponent("mapping/richardpiazza__CoreDataPlus__CoreDataPlusTests/Resources")
        let from = plus.appendingPathComponent("CoreDataPlus_1.0.xcdatamodeld").path
        let to = plus.appendingPathComponent("CoreDataPlus_1.1.xcdatamodeld").path
        let folder = try temporaryDirectory()
        let count = 40_000
        var text = ""
        for i in 0..<count {
            let a = String(format: "%08d-0000-4000-8000-000000000000", i)
            let b = String(format: "%08d-0000-4000-8000-000000000001", i)
            text += #"{"id":"\#(a)","name":"A\#(i)","books":[{"id":"\#(b)","title":"T\#(i)"}]}"# + "\n"
        }
        let input = folder.appendingPathComponent("authors.ndjson")
        try Data(text.utf8).write(to: input)
        let loaded = folder.appendingPathComponent("Loaded.sqlite").path
        let load = try CLIRunner.run(["insert", "Author", "--file", input.path, "--model", from, "--store", loaded])
        #expect(load.status == 0, "\(load.stderr)")
        func migrate(_ store: String) -> [String] { ["migrate", "--model", to, "--no-backup", "--store", store] }
        let whole = try copyStore(loaded, to: folder.appendingPathComponent("Whole.sqlite").path)
        let time = try writeTime(migrate(whole), store: whole)
        for round in 0..<Self.rounds {
            let store = try copyStore(loaded, to: folder.appendingPathComponent("Books\(round).sqlite").path)
            try killInsideTheWrite(migrate(store), store: store, after: Double.random(in: 0...time / 2, using: &random))
            let again = try CLIRunner.run(["migrate", "--model", to, "--no-backup", "--store", store])
            #expect(again.status == 0 && again.stdout.contains("migrated \(store)"), "the store was left unmigrated: \(again.stdout)\(again.stderr)")
            #expect(try CLIRunner.run(["count", "Author", "--model", to, "--store", store]).stdout == "\(count)\n")
            #expect(try CLIRunner.run(["count", "Book", "--model", to, "--store", store, "--where", "author != nil"]).stdout == "\(count)\n")
            #expect(try CLIRunner.run(["count", "Author", "--model", to, "--store", store, "--where", "authoredBooks.@count == 1"]).stdout
                    == "\(count)\n")
            let verify = try CLIRunner.run(["verify", "--model", to, "--store", store])
            #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
        }
    }
}
