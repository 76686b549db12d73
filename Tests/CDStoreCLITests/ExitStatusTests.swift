import CDStoreTestSupport
import Foundation
import Testing

/// The exit statuses scripts rely on: 1 bad input, 2 usage, 3 model mismatch, 4 cannot open.
@Suite("Exit statuses")
struct ExitStatusTests {
    @Test(arguments: [
        ["fetch", "Item", "--bogus"],
        ["fetch"],
        ["insert", "Item", "--json"],
        ["insert", "Item", "--json", "{}", "--csv"],
        ["delete", "Item"],
        ["delete", "Item", "--all", "--where", "i16 == 1"],
        ["fetch", "Item", "--limit", "-1"],
        ["fetch", "Item", "--format", "xml"],
        ["export", "--format", "table"],
        ["nosuchcommand"],
    ])
    func usageErrorsExit2(arguments: [String]) throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let result = try box.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: "), "\(arguments): \(result.stderr)")
        #expect(result.stdout == "")
    }

    @Test func deleteWithoutWhereOrAllSaysWhy() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let result = try box.run(["delete", "Item"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: say which objects: --where PREDICATE, or --all for every object\n"))
        #expect(try box.ok(["count", "Item"]) == "1\n")
    }

    @Test func storeOfAnotherModelExits3With134100() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let before = storeBytes(box.store)
        let other = Corpus.models.appendingPathComponent("bignerdranch__CoreDataStack__Sample.xcdatamodeld").path
        for command in [["fetch", "Item"], ["insert", "Item", "i16=2"], ["count", "Item"], ["export"]] {
            let result = try CLIRunner.run(command + ["--store", box.store, "--model", other])
            #expect(result.status == 3, "\(command)")
            // Readers open read-only, so the model given is what to change (`--model:`); insert says why it cannot migrate.
            #expect(result.stderr.hasPrefix((command[0] == "insert" ? "error: " : "error: --model: ")
                                            + "the store was saved with a different model (Core Data error 134100)"))
            // Readers say which entities differ, then what changed from the model cached in the store (Z_MODELCACHE) to the one
            // given; insert tries to migrate and says why it cannot.
            guard command[0] != "insert" else { continue }
            #expect(result.stderr.hasPrefix("""
                error: --model: the store was saved with a different model (Core Data error 134100): only in the store: Checked, \
                Circle, Item, Shape, Square; only in the model given: Author, Book, Publisher; differences from the \
                model in Z_MODELCACHE ["1"]:
                  entity added: Author
                  entity added: Book
                  entity added: Publisher
                  entity removed: Checked
                """))
        }
        #expect(storeBytes(box.store) == before)
    }

    @Test func notACoreDataStoreExits4() throws {
        let box = try Sandbox()
        let text = try box.write("text.sqlite", "hello, I am not a database\n")
        var result = try box.run(["fetch", "Item"], store: text)
        #expect(result.status == 4)
        #expect(result.stderr == "error: \(text) is not a SQLite database (file is not a database)\n")
        // A SQLite database without Core Data's tables.
        let plain = box.path("plain.sqlite")
        _ = try ProcessRunner.python("import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('create table t(a)')", [plain])
        result = try box.run(["fetch", "Item"], store: plain)
        #expect(result.status == 4)
        #expect(result.stderr == "error: \(plain) is not a Core Data store (no Z_METADATA or Z_PRIMARYKEY table)\n")
    }

    @Test(arguments: [["fetch", "Item"], ["count", "Item"]])
    func readingAMissingStoreCreatesItAndSaysSo(arguments: [String]) throws {
        let box = try Sandbox()
        let result = try box.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "note: created a new store at \(box.store)\n")
        #expect(FileManager.default.fileExists(atPath: box.store))
        // Without a model there is nothing to create it with.
        let other = box.path("other.sqlite")
        let bare = try CLIRunner.run(arguments + ["--store", other])
        #expect(bare.status == 4, "\(arguments): \(bare.stderr)")
        #expect(bare.stderr == "error: --model: no store at \(other) (a model is needed to create one)\n")
    }

    @Test(arguments: [["delete", "Item", "--all"], ["export"], ["info"], ["verify"]])
    func missingStoreExits4AndIsNotCreated(arguments: [String]) throws {
        let box = try Sandbox()
        let result = try box.run(arguments)
        #expect(result.status == 4, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "error: no store at \(box.store)\n")
        #expect(!FileManager.default.fileExists(atPath: box.store))
        // Without a model, too.
        let bare = try CLIRunner.run(arguments + ["--store", box.store])
        #expect(bare.status == 4, "\(arguments): \(bare.stderr)")
    }

    @Test func missingModelFileExits4() throws {
        let box = try Sandbox()
        let result = try CLIRunner.run(["model", "show", box.path("nope.xcdatamodeld")])
        #expect(result.status == 4)
        #expect(result.stderr == "error: \(box.path("nope.xcdatamodeld")): no model at this path\n")
    }

    @Test func brokenModelFailsValidationWith1() throws {
        let box = try Sandbox()
        try box.write("Broken.xcdatamodel/contents", """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" representedClassName="A" syncable="YES">
                    <attribute name="x" optional="YES" attributeType="String"/>
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Missing"/>
                </entity>
            </model>
            """)
        let result = try CLIRunner.run(["model", "validate", box.path("Broken.xcdatamodel")])
        #expect(result.status == 1)
        #expect(result.stdout == """
            \(box.path("Broken.xcdatamodel"))/contents:5:110: entity 'A', property 'b': destination entity 'Missing' does not exist

            """)
        let good = try CLIRunner.run(["model", "validate", Fixtures.model.path])
        #expect(good.status == 0 && good.stdout == "ok\n")
    }

    @Test func readOnlyStoreRefusesWrites() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let before = storeBytes(box.store)
        let result = try box.run(["insert", "Item", "i16=2", "--read-only"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: the store is open read-only\n")
        // SQLite may leave an empty -wal beside a WAL store it opened read-only; the content is unchanged.
        #expect(storeBytes(box.store)[0] == before[0])
        #expect((storeBytes(box.store)[1] ?? Data()).isEmpty)
        #expect(try box.ok(["count", "Item", "--read-only"]) == "1\n")
    }
}
