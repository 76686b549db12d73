import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore history`: every format pinned on a synthetic store laid out as Core Data lays it out
/// (``HistoryFixture``), the corpus SwiftData store, filters, stores without history, errors, and the history
/// cdstore's own writes add.
@Suite("cdstore history")
struct HistoryCommandTests {
    /// A folder with the fixture's model and a store of it holding the history tables and, unless `rows` is
    /// false, their rows. The store carries its model: `history` needs no `--model`.
    static func fixture(rows: Bool = true) throws -> (folder: URL, store: String, model: String) {
        let folder = try temporaryDirectory()
        let model = try HistoryFixture.writeModel(in: folder)
        let store = folder.appendingPathComponent("History.sqlite").path
        let created = try CLIRunner.run(["count", "Shelf", "--store", store, "--model", model])
        #expect(created.status == 0, "\(created.stderr)")
        try HistoryFixture.execute(HistoryFixture.tables + (rows ? HistoryFixture.rows : []), on: store)
        return (folder, store, model)
    }

    /// Runs `cdstore history ARGS…` and returns its standard output, expecting success and a quiet stderr.
    static func history(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try CLIRunner.run(["history"] + arguments)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == "", sourceLocation: sourceLocation)
        return result.stdout
    }

    static let formats = ["table", "json", "ndjson", "csv"]

    @Test(arguments: formats)
    func transactionsInEveryFormat(format: String) throws {
        let store = try Self.fixture().store
        try assertSnapshot(Sandbox.anonymized(try Self.history([store, "--format", format])), named: "history-transactions.\(format)")
    }

    @Test(arguments: formats)
    func changesInEveryFormat(format: String) throws {
        let store = try Self.fixture().store
        try assertSnapshot(Sandbox.anonymized(try Self.history([store, "--changes", "--format", format])), named: "history-changes.\(format)")
    }

    @Test func corpusSwiftDataStore() throws {
        let source = Corpus.stores.appendingPathComponent("Karim-ezzedine__CartKit__CartKitSwiftData_v1/CartKitSwiftData_v1.sqlite")
        let store = try Corpus.copyStore(source).path
        let before = storeBytes(store)
        expectJSON(try Self.history([store, "--format", "json"]), """
            [{"transaction":1,"timestamp":"2026-01-30T15:01:45.826932Z","author":null,"bundleID":"com.apple.dt.xctest.tool",
              "processID":"xctest","contextName":null,"changes":1}]
            """)
        expectJSON(try Self.history(["--store", store, "--changes", "--format", "json"]), """
            [{"change":1,"transaction":1,"type":"insert","entity":"CartModel",
              "object":"x-coredata://<store-uuid>/CartModel/p1","updated":null,"tombstone":null}]
            """)
        #expect(try Self.tableCounts(store) == [1, 1])
        #expect(storeBytes(store) == before, "history opens read-only")
    }

    /// Writing into a SwiftData store (history on, no model but its cache) adds to its history as Core Data would.
    @Test func writesIntoTheCorpusSwiftDataStore() throws {
        let source = Corpus.stores.appendingPathComponent("Karim-ezzedine__CartKit__CartKitSwiftData_v1/CartKitSwiftData_v1.sqlite")
        let store = try Corpus.copyStore(source).path
        let cart = #"{"id": "c2", "storeId": "s", "status": "active", "createdAt": "2026-02-01", "updatedAt": "2026-02-01", "#
            + #""items": [{"id": "i1", "productId": "p1", "quantity": 2, "unitPriceAmount": 1.5, "unitPriceCurrencyCode": "EUR", "#
            + #""totalPriceAmount": 3, "totalPriceCurrencyCode": "EUR", "modifiers": [{"id": "m1", "name": "extra", "#
            + #""priceDeltaAmount": 0.5, "priceDeltaCurrencyCode": "EUR"}]}]}"#
        for arguments in [["insert", "CartModel", "--json", cart], ["update", "CartModel", "--where", "id == 'c2'", "--set", "status=closed"],
                          ["verify"]] {
            let result = try CLIRunner.run(arguments + ["--store", store])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let transactions = try Sandbox.objects(try Self.history([store, "--format", "json"]))
        #expect(transactions.map { $0["author"] as? String } == [nil, "cdstore", "cdstore"])
        #expect(transactions.map { $0["changes"] as? Int } == [1, 3, 1])
        expectNDJSON(try Self.history([store, "--changes", "--since", "1", "--format", "ndjson"]), [
            #"{"change":2,"transaction":2,"type":"insert","entity":"CartItemModifierModel","object":"x-coredata://<store-uuid>/CartItemModifierModel/p1","updated":null,"tombstone":null}"#,
            #"{"change":3,"transaction":2,"type":"insert","entity":"CartItemModel","object":"x-coredata://<store-uuid>/CartItemModel/p1","updated":null,"tombstone":null}"#,
            #"{"change":4,"transaction":2,"type":"insert","entity":"CartModel","object":"x-coredata://<store-uuid>/CartModel/p2","updated":null,"tombstone":null}"#,
            #"{"change":5,"transaction":3,"type":"update","entity":"CartModel","object":"x-coredata://<store-uuid>/CartModel/p2","updated":["status"],"tombstone":null}"#,
        ])
        #expect(try Self.tableCounts(store) == [3, 5])
    }

    /// `ATRANSACTION` and `ACHANGE` rows, counted with Python's sqlite3.
    static func tableCounts(_ store: String) throws -> [Int] {
        let result = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute('select count(*) from ATRANSACTION').fetchone()[0], db.execute('select count(*) from ACHANGE').fetchone()[0])
            """, [store])
        return result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    @Test func filters() throws {
        let store = try Self.fixture().store
        let ndjson = [store, "--format", "ndjson"]
        expectNDJSON(try Self.history(ndjson + ["--since", "2", "--author", "legacy"]), [
            #"{"transaction":5,"timestamp":"2023-03-08T22:26:40.000Z","author":"legacy","bundleID":"com.example.old","processID":"OldApp","contextName":null,"changes":3}"#,
        ])
        expectNDJSON(try Self.history(ndjson + ["--since", "2023-03-08T21:26:40.25Z", "--entity", "Book"]), [
            #"{"transaction":2,"timestamp":"2023-03-08T21:26:40.250Z","author":"widget","bundleID":"com.example.shelves","processID":"ShelvesWidget","contextName":null,"changes":1}"#,
            #"{"transaction":5,"timestamp":"2023-03-08T22:26:40.000Z","author":"legacy","bundleID":"com.example.old","processID":"OldApp","contextName":null,"changes":1}"#,
        ])
        expectNDJSON(try Self.history(ndjson + ["--changes", "--entity", "Item", "--since", "2"]), [
            #"{"change":8,"transaction":5,"type":"delete","entity":"Book","object":"x-coredata://<store-uuid>/Book/p1","updated":null,"tombstone":{"added":"2023-03-08T20:26:39.250Z","code":"B-1","title":"Dune"}}"#,
            #"{"change":9,"transaction":5,"type":"delete","entity":"Item","object":"x-coredata://<store-uuid>/Item/p2","updated":null,"tombstone":{"added":"2023-03-08T20:26:40.000Z","code":"I-2","title":"Lamp"}}"#,
        ])
        #expect(try Self.history(ndjson + ["--author", "nobody"]) == "")
    }

    @Test func storeWithoutHistory() throws {
        let box = try Sandbox()
        _ = try box.ok(["insert", "Item", "i16=1"])
        for (format, expected) in [("json", "[]\n"), ("csv", "transaction,timestamp,author,bundleID,processID,contextName,changes\n"),
                                   ("ndjson", "")] {
            let result = try CLIRunner.run(["history", box.store, "--format", format])
            #expect(result.status == 0)
            #expect(result.stdout == expected)
            #expect(result.stderr == "note: \(box.store) keeps no persistent history (it has no ATRANSACTION and ACHANGE tables; "
                    + "Core Data adds them when an app opens the store with NSPersistentHistoryTrackingKey)\n")
        }
    }

    @Test func errors() throws {
        let store = try Self.fixture().store
        let cases: [([String], Int32, String)] = [
            (["history", store, "--since", "yesterday"], 2,
             "error: --since takes a transaction number (41) or a date (2024-05-01, 2024-05-01T12:00:00Z), got 'yesterday'\n"),
            (["history", store, "--store", store], 2, "error: give the store once: as an argument or with --store\n"),
            (["history", store, "--entity", "Shelfs"], 1, "error: no entity 'Shelfs' in the store; did you mean 'Shelf'?\n"),
            (["history", store + ".missing"], 4, "error: no store at \(store).missing\n"),
        ]
        for (arguments, status, message) in cases {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == status, "\(arguments)")
            // Usage errors are followed by the usage lines.
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
    }

    /// In a REPL session, `history` reads the session's store and sees the session's own writes.
    @Test func inTheREPL() throws {
        let (_, store, _) = try Self.fixture()
        let result = try CLIRunner.run(["repl", "--store", store],
                                       stdin: "insert Tag name=x\nhistory --since 5 --changes --format ndjson\n.quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Sandbox.anonymized(result.stdout) == "inserted 1 object into Tag\n"
                + #"{"change":10,"transaction":6,"type":"insert","entity":"Tag","object":"x-coredata://<store-uuid>/Tag/p1","updated":null,"tombstone":null}"#
                + "\n")
    }

    /// Writes add one transaction by `cdstore` each, listed by `history` with counts equal to the tables.
    @Test func writesAreListed() throws {
        let (folder, store, _) = try Self.fixture()
        let run = { (arguments: [String]) throws in
            let result = try CLIRunner.run(arguments + ["--store", store])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try run(["insert", "Shelf", "--json", #"{"name": "Fiction", "books": [{"title": "Dune", "tags": [{"name": "sf"}]}]}"#])
        try run(["update", "Book", "--where", "title == 'Dune'", "--set", "pages=412"])
        try run(["delete", "Tag", "--all"])
        let graph = folder.appendingPathComponent("graph.json").path
        try Data(#"{"format":"cdstore-graph","formatVersion":1,"entities":{"Tag":[{"name":"new"}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: graph))
        try run(["import", graph])
        let transactions = try Sandbox.objects(try Self.history([store, "--since", "5", "--format", "json"]))
        #expect(transactions.map { $0["transaction"] as? Int } == [6, 7, 8, 9])
        #expect(transactions.map { $0["author"] as? String } == Array(repeating: "cdstore", count: 4))
        #expect(transactions.map { $0["processID"] as? String } == Array(repeating: "cdstore", count: 4))
        #expect(transactions.map { $0["changes"] as? Int } == [3, 1, 2, 1])
        expectNDJSON(try Self.history([store, "--since", "6", "--changes", "--format", "ndjson"]), [
            #"{"change":13,"transaction":7,"type":"update","entity":"Book","object":"x-coredata://<store-uuid>/Book/p1","updated":["pages"],"tombstone":null}"#,
            #"{"change":14,"transaction":8,"type":"update","entity":"Book","object":"x-coredata://<store-uuid>/Book/p1","updated":["tags"],"tombstone":null}"#,
            #"{"change":15,"transaction":8,"type":"delete","entity":"Tag","object":"x-coredata://<store-uuid>/Tag/p1","updated":null,"tombstone":{}}"#,
            #"{"change":16,"transaction":9,"type":"insert","entity":"Tag","object":"x-coredata://<store-uuid>/Tag/p2","updated":null,"tombstone":null}"#,
        ])
        let all = try Sandbox.objects(try Self.history([store, "--format", "json"]))
        let changes = try Sandbox.objects(try Self.history([store, "--changes", "--format", "json"]))
        #expect(try Self.tableCounts(store) == [all.count, changes.count])
        #expect(all.map { $0["changes"] as? Int ?? 0 }.reduce(0, +) == changes.count)
    }
}
