import CDStoreTestSupport
import Foundation
import Testing

/// The compiled model fuzz-compiled-model found (an NSCompoundPredicate among its own subpredicates): `cdstore`
/// died with signal 11 on it, as a `.mom` and as a store's `Z_MODELCACHE`.
@Suite("Cyclic archives on the command line")
struct ArchiveCycleCLITests {
    static let finding = Fixtures.root.appendingPathComponent("FuzzFindings/compiled-model-cyclic-predicate.mom").path
    static let cycle = "fetch request 'ObjectIDFetchRequest': NSCompoundPredicate #213 contains itself"

    @Test func modelShowOnTheFindingIsBadInput() throws {
        let result = try CLIRunner.run(["model", "show", Self.finding])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "error: \(Self.finding): \(Self.cycle)\n")
    }

    static let python = (try? ProcessRunner.run("python3", ["-c", "import sqlite3, zlib"]).status) == 0

    /// A store whose model cache holds the finding opens: the cache cannot be read, so the model is inferred from
    /// the tables, and the warning says why.
    @Test(.enabled(if: python)) func aStoreWhoseModelCacheHoldsTheFindingOpens() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--json", #"{"str":"a"}"#])
        let script = """
            import sqlite3, sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            blob = c.compress(open(sys.argv[1], 'rb').read()) + c.flush()
            db = sqlite3.connect(sys.argv[2]); db.execute('UPDATE Z_MODELCACHE SET Z_CONTENT = ?', (blob,)); db.commit()
            """
        let patched = try ProcessRunner.run("python3", ["-c", script, Self.finding, box.store])
        try #require(patched.status == 0, "\(patched.stderr)")
        let result = try CLIRunner.run(["count", "Item", "--store", box.store])
        #expect(result.status == 0)
        #expect(result.stdout == "1\n")
        #expect(result.stderr == "warning: the model cached in Z_MODELCACHE cannot be read (\(box.store)#Z_MODELCACHE: "
                + "\(Self.cycle)) and none was given: the model was inferred from the tables (names as the columns give "
                + "them); reading works, writing needs --model\n")
        // With the model given, the cache is not needed.
        #expect(try box.ok(["count", "Item"]) == "1\n")
    }
}
