import CDStoreTestSupport
import Foundation
import GRDB
import Testing

/// Reading stores copied from the field: values whose external-data file was not copied, and `--immutable`
/// reads that change no byte of the store, its `-wal` or its `-shm`.
@Suite struct EvidenceReadingTests {
    static let model = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [{"name": "Photo", "attributes": [
          {"name": "title", "type": "String"},
          {"name": "image", "type": "Binary", "optional": true, "allowsExternalBinaryDataStorage": true},
          {"name": "thumb", "type": "Binary", "optional": true, "allowsExternalBinaryDataStorage": true}]}]}
        """

    /// Four photos: `a` inline, `b` in an external file that is there, `c` and `d` in files that are missing
    /// (`c`'s image and thumb, `d`'s image).
    static func makeStore() throws -> Sandbox {
        let folder = try temporaryDirectory()
        let modelPath = folder.appendingPathComponent("Photos.json").path
        try Data(model.utf8).write(to: URL(fileURLWithPath: modelPath))
        let sandbox = try Sandbox(model: modelPath)
        try sandbox.ok(["insert", "Photo", "--nl"], stdin: """
            {"title": "a", "image": "AQID"}
            {"title": "b"}
            {"title": "c"}
            {"title": "d"}

            """)
        let external = sandbox.path(".test_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(atPath: external, withIntermediateDirectories: true)
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: external + "/B-FILE"))
        let queue = try DatabaseQueue(path: sandbox.store)
        try queue.write { db in
            func reference(_ name: String) -> Data { Data([0x02]) + Data(name.utf8) + Data([0x00]) }
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'b'", arguments: [reference("B-FILE")])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ?, ZTHUMB = ? WHERE ZTITLE = 'c'",
                           arguments: [reference("C-IMAGE"), reference("C-THUMB")])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE ZTITLE = 'd'", arguments: [reference("D-IMAGE")])
        }
        try queue.close()
        return sandbox
    }

    static func warning(_ sandbox: Sandbox) -> String {
        "warning: 3 external data values are missing (Photo.image: 2, Photo.thumb: 1) from "
            + "\(sandbox.path(".test_SUPPORT/_EXTERNAL_DATA")); they were read as null (--strict makes this an error)\n"
    }

    @Test func missingExternalFilesReadAsNullWithOneWarning() throws {
        let sandbox = try Self.makeStore()
        let json = try sandbox.run(["export", "Photo", "--format", "json"])
        #expect(json.status == 0)
        expectJSON(json.stdout, """
            [{"_id":"x-coredata://<store-uuid>/Photo/p1","title":"a","image":"AQID","thumb":null},
             {"_id":"x-coredata://<store-uuid>/Photo/p2","title":"b","image":"CQkJ","thumb":null},
             {"_id":"x-coredata://<store-uuid>/Photo/p3","title":"c","image":null,"thumb":null},
             {"_id":"x-coredata://<store-uuid>/Photo/p4","title":"d","image":null,"thumb":null}]
            """)
        #expect(json.stderr == Self.warning(sandbox))

        let csv = try sandbox.run(["export", "Photo", "--format", "csv"])
        #expect(csv.status == 0)
        #expect(Sandbox.anonymized(csv.stdout) == """
            _id,title,image,thumb
            x-coredata://<store-uuid>/Photo/p1,a,AQID,
            x-coredata://<store-uuid>/Photo/p2,b,CQkJ,
            x-coredata://<store-uuid>/Photo/p3,c,,
            x-coredata://<store-uuid>/Photo/p4,d,,

            """)
        #expect(csv.stderr == Self.warning(sandbox))

        let fetch = try sandbox.run(["fetch", "Photo", "--where", "title == 'c'", "--format", "ndjson"])
        #expect(fetch.status == 0)
        expectNDJSON(fetch.stdout, [#"{"_id":"x-coredata://<store-uuid>/Photo/p3","title":"c","image":null,"thumb":null}"#])
        #expect(fetch.stderr == "warning: 2 external data values are missing (Photo.image: 1, Photo.thumb: 1) from "
                + "\(sandbox.path(".test_SUPPORT/_EXTERNAL_DATA")); they were read as null (--strict makes this an error)\n")

        // A read that meets no missing file says nothing.
        let present = try sandbox.run(["fetch", "Photo", "--where", "title == 'b'", "--format", "ndjson"])
        #expect(present.status == 0 && present.stderr.isEmpty)
    }

    @Test func strictMakesAMissingFileAnError() throws {
        let sandbox = try Self.makeStore()
        for command in [["export", "Photo", "--format", "ndjson", "--strict"], ["fetch", "Photo", "--strict", "--format", "json"]] {
            let result = try sandbox.run(command)
            #expect(result.status == 4)
            #expect(result.stderr.contains("external data file 'C-IMAGE' is missing from"))
            #expect(result.stderr.contains("134185"))
        }
    }

    /// A WAL store with uncheckpointed data in its -wal, as copied off a device: every reading command sees the
    /// data, and with --immutable not a byte of the three files changes.
    @Test func immutableReadsSeeTheWALAndChangeNothing() throws {
        let sandbox = try Self.makeStore()
        // A second connection keeps the WAL from being checkpointed while one more row is committed; the files are
        // then copied as a device backup would copy them.
        let writer = try DatabaseQueue(path: sandbox.store)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (5, 1, 1, 'only in the wal')")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_NAME = 'Photo'")
        }
        let evidence = sandbox.path("evidence")
        try FileManager.default.createDirectory(atPath: evidence, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: sandbox.store + suffix, toPath: evidence + "/test.sqlite" + suffix)
        }
        try FileManager.default.copyItem(atPath: sandbox.path(".test_SUPPORT"), toPath: evidence + "/.test_SUPPORT")
        try writer.close()
        let store = evidence + "/test.sqlite"
        let walSize = (try FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int) ?? 0
        #expect(walSize > 0, "the copied -wal must hold the last commit")

        func files() -> [Data?] { ["", "-wal", "-shm"].map { FileManager.default.contents(atPath: store + $0) } }
        let before = files()
        for command in [["info"], ["count", "Photo"], ["fetch", "Photo", "--format", "json"], ["export", "--format", "ndjson"],
                        ["verify"]] {
            let result = try CLIRunner.run(command + ["--store", store, "--immutable"])
            // verify reports the three external-data files this store lacks (exit 1); the others read.
            #expect(result.status == (command == ["verify"] ? 1 : 0), "\(command): \(result.stderr)")
            if command == ["verify"] { #expect(result.stdout.contains("C-IMAGE"), "\(result.stdout)") }
            #expect(files() == before, "cdstore \(command.joined(separator: " ")) --immutable changed the store's files")
            if command == ["count", "Photo"] { #expect(result.stdout == "5\n") }
        }
        // Without --immutable, reading commands still see the -wal and leave the store and the -wal as they were.
        let count = try CLIRunner.run(["count", "Photo", "--store", store])
        #expect(count.stdout == "5\n")
        #expect(Array(files().prefix(2)) == Array(before.prefix(2)))
        // Writing with --immutable is refused, and changes nothing.
        let insert = try CLIRunner.run(["insert", "Photo", "--nl", "--store", store, "--immutable"], stdin: "{\"title\":\"x\"}\n")
        #expect(insert.status != 0)
        #expect(Array(files().prefix(2)) == Array(before.prefix(2)))
    }

    @Test func immutableReadsAStoreWithoutWALInPlace() throws {
        let sandbox = try Self.makeStore()
        // A rollback-journal store, as `seed` leaves it: read in place with immutable=1. The name holds the
        // characters a file: URI gives meaning to.
        let plain = sandbox.path("odd ?#%name.sqlite")
        let data = try sandbox.write("Photo.ndjson", "{\"title\": \"x\"}\n")
        try sandbox.ok(["seed", "--out", plain, data])
        let before = FileManager.default.contents(atPath: plain)
        let result = try CLIRunner.run(["count", "Photo", "--store", plain, "--immutable"])
        #expect(result.status == 0 && result.stdout == "1\n", "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: plain) == before)
        #expect(!FileManager.default.fileExists(atPath: plain + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: plain + "-wal"))
    }
}

/// Stores filled by other tools write 0 into a to-one column for "no object" (seen in the artsy fixtures):
/// primary keys start at 1, so it reads as no object, not as a reference to p0.
@Suite struct ZeroForeignKeyTests {
    @Test func aForeignKeyOfZeroIsNoObject() throws {
        let box = try Sandbox(model: Fixtures.root.appendingPathComponent("Graph.xcdatamodeld").path)
        try box.ok(["insert", "Department", "name=R&D"])
        try box.ok(["insert", "Employee", "name=Ann"])
        let queue = try DatabaseQueue(path: box.store)
        try queue.write { try $0.execute(sql: "UPDATE ZPERSON SET ZDEPARTMENT = 0") }
        try queue.close()
        for format in ["json", "ndjson"] {
            let output = try box.ok(["fetch", "Employee", "--format", format, "--no-relationships"])
            #expect(!output.isEmpty)
            let withRelationships = try box.ok(["fetch", "Employee", "--format", format])
            #expect(withRelationships.contains(#""department":null"#), "\(withRelationships)")
        }
        let exported = try box.ok(["export", "Employee", "--format", "ndjson"])
        #expect(exported.contains(#""department":null"#), "\(exported)")
    }
}
