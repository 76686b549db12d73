import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// `verify` fails a store whose `Z_MAX` lags its largest `Z_PK` (Core Data's next insert would take a key in
/// use), and `verify --repair` raises it, in one transaction, saying what it changed.
@Suite("verify --repair")
struct VerifyRepairTests {
    static let lagging = "maxPrimaryKey: Item: Z_MAX is 1 but a row has Z_PK 3: Core Data's next insert into ZITEM "
        + "would take a key in use (a repair raises Z_MAX to it)\n"

    static func laggingStore() throws -> Sandbox {
        let box = try Sandbox()
        for i in 1...3 { try box.ok(["insert", "Item", "i16=\(i)"]) }
        try DatabaseQueue(path: box.store).write { try $0.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Item'") }
        return box
    }

    @Test func aLaggingZMaxFailsVerify() throws {
        let box = try Self.laggingStore()
        let before = storeBytes(box.store)
        let verify = try box.run(["verify"])
        #expect(verify.status == 1 && verify.stdout == Self.lagging && verify.stderr == "", "\(verify.stdout)\(verify.stderr)")
        #expect(storeBytes(box.store) == before, "verify without --repair wrote the store")
    }

    @Test func repairRaisesItAndSaysSo() throws {
        let box = try Self.laggingStore()
        let repaired = try box.run(["verify", "--repair"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stdout == "repaired: maxPrimaryKey: Item: Z_MAX 1 → 3, the largest Z_PK in ZITEM\nok\n")
        #expect(try box.run(["verify"]).stdout == "ok\n")
        #expect(try box.run(["verify", "--repair"]).stdout == "ok\n")
        // Core Data's next key is the one after the largest.
        try box.ok(["insert", "Item", "i16=4"])
        let keys = try DatabaseQueue(path: box.store).read { try Int.fetchAll($0, sql: "SELECT Z_PK FROM ZITEM ORDER BY Z_PK") }
        #expect(keys == [1, 2, 3, 4])
    }

    /// `--repair` with `--read-only` cannot write: the store's error (exit status 1), nothing changed.
    @Test func repairNeedsAWritableStore() throws {
        let box = try Self.laggingStore()
        let before = storeBytes(box.store)
        let result = try box.run(["verify", "--repair", "--read-only"])
        #expect(result.status == 1 && result.stderr.contains("read-only"), "\(result.stdout)\(result.stderr)")
        #expect(storeBytes(box.store) == before)
    }

    /// The Artsy stores in the corpus hold rows another tool added without raising Z_MAX: they fail verify now,
    /// and a repair fixes that, leaving 1.3's dangling artist (a decision about data) reported.
    @Test(arguments: [("ArtsyPartner_2.0.sqlite", "ArtsyFolio v2.0", ""),
                      ("ArtsyPartner_1.3.sqlite", "ArtsyPartner 5", "danglingReference: Artwork.artist: 1 objects point at missing Artist objects\n")])
    func corpusStoresWithTheLag(store name: String, version: String, remaining: String) throws {
        let store = try Corpus.copyStore(Corpus.stores.appendingPathComponent("artsy__energy__Migrations/\(name)")).path
        let model = Corpus.models.appendingPathComponent("artsy__energy__ArtsyPartner.xcdatamodeld").path
        let options = ["--store", store, "--model", model, "--model-version", version]
        let verify = try CLIRunner.run(["verify"] + options)
        #expect(verify.status == 1, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout == "maxPrimaryKey: Artwork: Z_MAX is 0 but a row has Z_PK 1: Core Data's next insert into "
                + "ZARTWORK would take a key in use (a repair raises Z_MAX to it)\n" + remaining)
        let repaired = try CLIRunner.run(["verify", "--repair"] + options)
        #expect(repaired.stdout == "repaired: maxPrimaryKey: Artwork: Z_MAX 0 → 1, the largest Z_PK in ZARTWORK\n"
                + (remaining.isEmpty ? "ok\n" : remaining), "\(repaired.stderr)")
        #expect(repaired.status == (remaining.isEmpty ? 0 : 1))
    }
}
