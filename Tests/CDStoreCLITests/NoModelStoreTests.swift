import CDStoreJSON
import CDStoreTestSupport
import Foundation
import Testing

/// Stores that carry no model, as people find them (old stores, stores Apple's apps wrote, a NULL model cache):
/// every corpus store with its `Z_MODELCACHE` row deleted is read through a model inferred from its tables.
@Suite("Stores without a model")
struct NoModelStoreTests {
    /// The manifest's stores; throws (failing the tests that take them) when the corpus is missing.
    static func stores() throws -> [String] {
        try Corpus.manifestItems(kind: "store").compactMap { $0["path"] as? String }
    }

    static let inferredNote = "the model was inferred from the tables"

    /// The per-store tests take their arguments from the manifest: it lists every store of the corpus.
    @Test func theCorpusManifestListsEveryStore() throws {
        let listed = try Self.stores()
        #expect(listed.count == 12, "\(listed)")
        let files = try Corpus.storeFiles().map { "stores/\($0.deletingLastPathComponent().lastPathComponent)/\($0.lastPathComponent)" }
        #expect(Set(listed) == Set(files))
    }

    /// A copy of a corpus store without its model cache row.
    static func storeWithoutModel(_ path: String) throws -> String {
        let copy = try Corpus.copyStore(Corpus.root.appendingPathComponent(path)).path
        _ = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            if db.execute("select count(*) from sqlite_master where name = 'Z_MODELCACHE'").fetchone()[0]:
                db.execute('delete from Z_MODELCACHE')
            db.commit()
            """, [copy])
        return copy
    }

    /// Rows per entity table (`Z…`, not join or system tables) and the table of every entity, from Python.
    static func tableRows(_ store: String) throws -> (rows: [String: Int], tableOf: [String: String]) {
        let result = try ProcessRunner.python("""
            import sqlite3, sys, json
            db = sqlite3.connect(sys.argv[1])
            tables = [r[0] for r in db.execute("select name from sqlite_master where type = 'table' and name like 'Z%'")
                      if not r[0].startswith('Z_')]
            rows = {t: db.execute('select count(*) from "%s"' % t).fetchone()[0] for t in tables}
            entities = {n: (e, s) for e, n, s in db.execute('select Z_ENT, Z_NAME, Z_SUPER from Z_PRIMARYKEY where Z_ENT < 16000')}
            by_number = {e: (n, s) for n, (e, s) in entities.items()}
            def root(name):
                e, s = entities[name]
                while s and s in by_number:
                    name, s = by_number[s]
                return name
            print(json.dumps({'rows': rows, 'tableOf': {n: 'Z' + root(n).upper() for n in entities}}))
            """, [store])
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return (json["rows"] as? [String: Int] ?? [:], json["tableOf"] as? [String: String] ?? [:])
    }

    static func occurrences(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    /// `info` and `export` work, say once that the model was inferred, and export every row of every entity table.
    @Test(arguments: try stores())
    func infoAndExportEveryRow(path: String) throws {
        let store = try Self.storeWithoutModel(path)
        let info = try CLIRunner.run(["info", "--store", store, "--format", "json"])
        #expect(info.status == 0, "\(path): \(info.stderr)")
        #expect(Self.occurrences(of: Self.inferredNote, in: info.stderr) == 1, "\(path): \(info.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(json?["modelSource"] as? String == "inferredFromTables" && json?["hashesChecked"] as? Bool == false, "\(path)")
        let export = try CLIRunner.run(["export", "--format", "ndjson", "--store", store])
        #expect(export.status == 0, "\(path): \(export.stderr)")
        #expect(Self.occurrences(of: Self.inferredNote, in: export.stderr) == 1, "\(path): \(export.stderr)")
        let (rows, tableOf) = try Self.tableRows(store)
        var exported: [String: Int] = [:]
        for line in export.stdout.split(separator: "\n") {
            guard case .object(let members)? = try? JSONReader.parse(String(line)),
                  case .string(let entity)? = members.first(where: { $0.0 == "_entity" })?.1, let table = tableOf[entity] else {
                Issue.record("\(path): not an object with a known \"_entity\": \(line.prefix(200))")
                break
            }
            exported[table, default: 0] += 1
        }
        #expect(exported.filter { $0.value > 0 } == rows.filter { $0.value > 0 }, "\(path): one line per row of each table")
    }

    /// `fetch` and `count` take predicates on the inferred (upper-case) names.
    @Test func fetchAndCountWithAPredicateOnAnInferredAttribute() throws {
        let store = try Self.storeWithoutModel("stores/artsy__energy__oss_stubbed_data/oss_stubbed_data.sqlite")
        let expected = try ProcessRunner.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("select count(*) from ZARTWORK where ZTITLE like '%a%'").fetchone()[0])
            print(db.execute("select ZSLUG from ZARTIST where ZSLUG is not null order by ZSLUG limit 1").fetchone()[0])
            """, [store]).stdout.split(separator: "\n").map(String.init)
        let count = try CLIRunner.run(["count", "Artwork", "--where", "TITLE CONTAINS[c] 'a'", "--store", store])
        #expect(count.status == 0 && count.stdout == expected[0] + "\n", "\(count.stderr)")
        #expect(Self.occurrences(of: Self.inferredNote, in: count.stderr) == 1)
        let fetch = try CLIRunner.run(["fetch", "Artist", "--where", "SLUG == %@", "--arg", expected[1], "--format", "json",
                                       "--store", store])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        let objects = try JSONSerialization.jsonObject(with: Data(fetch.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(objects.map { $0["SLUG"] as? String } == [expected[1]])
        #expect((objects.first?["_id"] as? String)?.contains("/Artist/p") == true)
    }

    /// Every write is refused with the message that asks for --model (exit status 3), and the store is unchanged.
    @Test(arguments: [
        ["insert", "Artist", "NAME=x"],
        ["update", "Artist", "--set", "NAME=y", "--all"],
        ["delete", "Artist", "--all"],
    ])
    func writesAreRefused(arguments: [String]) throws {
        let store = try Self.storeWithoutModel("stores/artsy__energy__oss_stubbed_data/oss_stubbed_data.sqlite")
        let before = storeBytes(store)
        let result = try CLIRunner.run(arguments + ["--store", store])
        #expect(result.status == 3)
        #expect(result.stderr.contains("error: --model: the store carries no model, and the one inferred from its tables is "
                                       + "enough to read it but not to write: give the model the store was saved with"),
                "\(result.stderr)")
        #expect(storeBytes(store) == before)
    }

    @Test func importIsRefused() throws {
        let store = try Self.storeWithoutModel("stores/artsy__energy__oss_stubbed_data/oss_stubbed_data.sqlite")
        let result = try CLIRunner.run(["import", "--store", store], stdin: #"{"Artist": [{"NAME": "z"}]}"#)
        #expect(result.status == 3 && result.stderr.contains("error: --model: the store carries no model"), "\(result.stderr)")
    }
}
