import CDStoreJSON
import CDStoreTestSupport
import Foundation
import Testing

/// Every real Core Data store of the corpus, through the binary as a user would run it: opened read-only with
/// its own model (the model cache) or with the model version it was written with, counted, exported and checked.
@Suite("Stores Core Data wrote")
struct CorpusStoreTests {
    struct Item: Sendable, CustomStringConvertible {
        var store: String
        var modelVersion: String?
        var description: String { store }
    }

    /// The manifest's stores; throws (failing the tests that take them) when the corpus is missing.
    static func items() throws -> [Item] {
        try Corpus.manifestItems(kind: "store").compactMap { item in
            guard let path = item["path"] as? String else { return nil }
            return Item(store: path, modelVersion: item["matches_model_version"] as? String)
        }
    }

    /// `--model` and `--model-version` for a store: none when it caches its model, else the matching version.
    static func modelArguments(_ item: Item, store: String) throws -> [String] {
        let cached = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            has = db.execute("select count(*) from sqlite_master where name = 'Z_MODELCACHE'").fetchone()[0]
            print(1 if has and db.execute('select length(Z_CONTENT) from Z_MODELCACHE').fetchone()[0] else 0)
            """, [store]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if cached == "1" { return [] }
        guard let version = item.modelVersion else { return [] }
        let url = Corpus.root.appendingPathComponent(version)
        return ["--model", url.deletingLastPathComponent().path, "--model-version", url.deletingPathExtension().lastPathComponent]
    }

    /// Rows of the entity tables (not history, join or system tables), counted with Python's sqlite3.
    static func entityRows(_ store: String) throws -> Int {
        let result = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            tables = [r[0] for r in db.execute("select name from sqlite_master where type = 'table' and name like 'Z%'")
                      if not r[0].startswith('Z_')]
            print(sum(db.execute('select count(*) from "%s" where Z_ENT < 16000' % t).fetchone()[0] for t in tables))
            """, [store])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test(arguments: try items())
    func opensCountsAndExportsEveryObjectOnce(item: Item) throws {
        let store = try Corpus.copyStore(Corpus.root.appendingPathComponent(item.store)).path
        let model = try Self.modelArguments(item, store: store)
        let before = storeBytes(store)
        let info = try CLIRunner.run(["info", "--store", store, "--format", "json"] + model)
        #expect(info.status == 0, "\(item): \(info.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(json?["hashesMatch"] as? Bool == true, "\(item): \(info.stdout)")
        let export = try CLIRunner.run(["export", "--format", "ndjson", "--store", store] + model)
        #expect(export.status == 0, "\(item): \(export.stderr)")
        let lines = export.stdout.split(separator: "\n")
        #expect(lines.count == (try Self.entityRows(store)), "\(item): every object once")
        // Each line is one JSON object that starts with its object ID and names its entity.
        for line in lines {
            guard case .object(let members)? = try? JSONReader.parse(String(line)),
                  case .string(let id)? = members.first.map(\.1), members.first?.0 == "_id",
                  case .string(let entity)? = members.first(where: { $0.0 == "_entity" })?.1
            else {
                Issue.record("\(item): not an object with \"_id\" first and an \"_entity\": \(line.prefix(200))")
                break
            }
            let parts = id.hasPrefix("x-coredata://") ? id.dropFirst("x-coredata://".count).split(separator: "/") : []
            #expect(parts.count == 3 && parts[1] == entity && parts[2].first == "p" && Int(parts[2].dropFirst()) != nil,
                    "\(item): \(line.prefix(200))")
        }
        #expect(storeBytes(store) == before, "\(item): reading changed the store")
    }

    /// Writing into a store Core Data made: the new object gets Z_MAX + 1, the store still verifies.
    @Test func writesIntoAStoreCoreDataMade() throws {
        let store = try Corpus.copyStore(Corpus.stores.appendingPathComponent(
            "Karim-ezzedine__CartKit__CartStorage_v1/CartStorage_v1.sqlite")).path
        let before = try CLIRunner.run(["count", "CDCart", "--store", store]).stdout
        let inserted = try CLIRunner.run(["insert", "CDCart", "--store", store, "--json",
                                          #"{"id": "cart-2", "storeId": "s", "status": "active", "createdAt": "2026-01-01", "updatedAt": "2026-01-01"}"#])
        #expect(inserted.status == 0, "\(inserted.stderr)")
        #expect(try CLIRunner.run(["count", "CDCart", "--store", store]).stdout == "\((Int(before.dropLast()) ?? 0) + 1)\n")
        let verify = try CLIRunner.run(["verify", "--store", store])
        #expect(verify.stdout == "ok\n", "\(verify.stdout)\(verify.stderr)")
    }

    /// Compiled models give the same version hashes as their sources, through the CLI.
    @Test func compiledModelsHashLikeTheirSources() throws {
        for (compiled, source) in [("Karim-ezzedine__CartKit__CartStorage.momd", "Karim-ezzedine__CartKit__CartStorage.xcdatamodeld"),
                                   ("SwiftGen__SwiftGen__Model.momd", "SwiftGen__SwiftGen__Model.xcdatamodeld")] {
            let a = try CLIRunner.run(["model", "hashes", Corpus.compiled.appendingPathComponent(compiled).path])
            let b = try CLIRunner.run(["model", "hashes", Corpus.models.appendingPathComponent(source).path])
            #expect(a.status == 0 && !a.stdout.isEmpty, "\(compiled): \(a.stderr)")
            #expect(a.stdout == b.stdout, "\(compiled)")
        }
    }
}
