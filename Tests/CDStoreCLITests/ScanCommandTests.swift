import CDStoreTestSupport
import Foundation
import Testing

/// `cdstore scan` on a tree laid out as simulators, app groups, macOS containers and a backup hold stores
/// (``ScanTree``): every store found by content with its app and counts, no other file taken for one, nothing
/// under the tree changed, every store exported; and `--store @ID`.
@Suite(.serialized) struct ScanCommandTests {
    /// The NDJSON lines of `output`, parsed.
    static func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The stores `scan` must report: the tree's, and the unreadable file when this process reads it anyway.
    static func expected(_ tree: ScanTree) -> [ScanTree.Expected] {
        tree.stores + (ScanTree.readsEverything ? [ScanTree.Expected(path: tree.path("unreadable.sqlite"), app: nil, notes: 1, tags: 0)] : [])
    }

    @Test func findsEveryStoreWithItsAppAndCountsAndChangesNothing() throws {
        let tree = try ScanTree()
        let before = tree.contents()
        let result = try CLIRunner.run(["scan", tree.root.path, "--format", "ndjson"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = try Self.lines(result.stdout)
        var byPath: [String: [String: Any]] = [:]
        for line in found { byPath[line["path"] as? String ?? ""] = line }
        #expect(byPath.count == found.count, "a store reported twice:\n\(result.stdout)")

        let expected = Self.expected(tree)
        for store in expected {
            guard let line = byPath.removeValue(forKey: store.path) else {
                Issue.record("not found: \(store.path)\n\(result.stdout)")
                continue
            }
            #expect(line["app"] as? String == store.app, "\(store.path): \(line)")
            #expect(line["entities"] as? [String: Int] == ["Note": store.notes, "Tag": store.tags], "\(store.path): \(line)")
            #expect(line["objects"] as? Int == store.notes + store.tags, "\(store.path)")
            #expect(line["kind"] as? String == "Core Data", "\(store.path): \(line)")
            #expect((line["problems"] as? [String])?.isEmpty == true, "\(store.path): \(line)")
            #expect(line["domain"] as? String == store.domain, "\(store.path)")
            #expect(line["relativePath"] as? String == store.relativePath, "\(store.path)")
            #expect(store.domain != nil || line.keys.contains("app") && !line.keys.contains("domain"))
            #expect((line["size"] as? Int ?? 0) > 0)
        }
        // What is left: only the damaged file (and the unreadable one), each with its problem and no kind.
        var problemFiles = ["damaged.sqlite"]
        if !ScanTree.readsEverything { problemFiles.append("unreadable.sqlite") }
        for name in problemFiles {
            let line = byPath.removeValue(forKey: tree.path(name))
            #expect(line?["kind"] is NSNull, "\(name): \(String(describing: line))")
            #expect((line?["problems"] as? [String])?.isEmpty == false, "\(name): \(String(describing: line))")
        }
        #expect(byPath.isEmpty, "reported, but not a store of the tree: \(byPath.keys.sorted())")
        if ScanTree.readsEverything {
            print("skipped: running as root, the mode-000 file is readable, so its problem is not checked")
        }

        let after = tree.contents()
        #expect(after.keys.sorted() == before.keys.sorted(), "files appeared or went: \(Set(after.keys).symmetricDifference(before.keys))")
        for (file, bytes) in before where after[file] != bytes { Issue.record("changed: \(file)") }
    }

    @Test func appFilterAndTable() throws {
        let tree = try ScanTree()
        let result = try CLIRunner.run(["scan", tree.path("Devices"), "--app", "com.example.notes", "--format", "ndjson"])
        #expect(result.status == 0, "\(result.stderr)")
        let paths = try Self.lines(result.stdout).compactMap { $0["path"] as? String }
        #expect(paths.sorted() == tree.stores.filter { $0.app == "com.example.notes" }.map(\.path).sorted())

        let table = try CLIRunner.run(["scan", tree.path("Mac"), "--format", "table"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("com.example.mac") && table.stdout.contains("Mac.storedata")
                && table.stdout.contains("Note 1, Tag 0"), "\(table.stdout)")
    }

    @Test func exportWritesEveryStoreAndSaysWhichFailed() throws {
        let tree = try ScanTree()
        let before = tree.contents()
        let out = try temporaryDirectory().appendingPathComponent("export").path
        let result = try CLIRunner.run(["scan", tree.root.path, "--export", out, "--jobs", "3", "--format", "ndjson"])
        // The damaged file (and the unreadable one) cannot be exported: the others are, and the status says so.
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("damaged.sqlite"), "\(result.stderr)")
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let entries = try #require(manifest["stores"] as? [[String: Any]])
        let expected = Self.expected(tree)
        #expect(manifest["exported"] as? Int == expected.count)
        #expect(manifest["failed"] as? Int == (ScanTree.readsEverything ? 1 : 2))
        for store in expected {
            guard let entry = entries.first(where: { $0["path"] as? String == store.path }),
                  let folder = entry["folder"] as? String else {
                Issue.record("not in the manifest: \(store.path)")
                continue
            }
            #expect(entry["error"] is NSNull, "\(entry)")
            #expect(entry["written"] as? Int == store.notes + store.tags)
            let notes = try String(contentsOfFile: "\(out)/\(folder)/Note.ndjson", encoding: .utf8)
            let tags = try String(contentsOfFile: "\(out)/\(folder)/Tag.ndjson", encoding: .utf8)
            #expect(notes.split(separator: "\n").count == store.notes, "\(folder)")
            #expect(tags.split(separator: "\n").count == store.tags, "\(folder)")
            #expect(notes.split(separator: "\n").allSatisfy { $0.contains(#""_entity":"Note""#) }, "\(notes)")
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(folder)/model.json"))
        }
        let damaged = entries.first { $0["path"] as? String == tree.path("damaged.sqlite") }
        #expect((damaged?["error"] as? String)?.isEmpty == false, "\(String(describing: damaged))")
        #expect(tree.contents() == before)

        // A tree of readable stores exports with status 0, and the WAL's last commit is in the export.
        let clean = try temporaryDirectory().appendingPathComponent("clean").path
        let devices = try CLIRunner.run(["scan", tree.path("Devices/D2"), "--export", clean, "--format", "ndjson"])
        #expect(devices.status == 0, "\(devices.stderr)")
        let todo = try #require(try FileManager.default.contentsOfDirectory(atPath: clean).first { $0.hasSuffix("com.example.todo-Todo") })
        #expect(try String(contentsOfFile: "\(clean)/\(todo)/Note.ndjson", encoding: .utf8).contains("only in the wal"))
    }

    @Test func storeNamedByItsApp() throws {
        let tree = try ScanTree()
        let environment = ["CDSTORE_SCAN_PATH": tree.path("Devices") + ":" + tree.path("Mac")]
        // The current install (3 notes), not the older one (2).
        let notes = try CLIRunner.run(["count", "Note", "--store", "@com.example.notes"], environment: environment)
        #expect(notes.status == 0 && notes.stdout == "3\n", "\(notes.stdout)\(notes.stderr)")
        let mac = try CLIRunner.run(["count", "Note", "--store", "@group.com.example.mac"], environment: environment)
        #expect(mac.status == 0 && mac.stdout == "2\n", "\(mac.stdout)\(mac.stderr)")
        // Two stores of different names: refused, both listed; one named: opened.
        let ambiguous = try CLIRunner.run(["count", "Note", "--store", "@com.example.multi"], environment: environment)
        #expect(ambiguous.status == 4)
        #expect(ambiguous.stderr.contains("com.example.multi/A.sqlite") && ambiguous.stderr.contains("com.example.multi/B.sqlite"),
                "\(ambiguous.stderr)")
        let named = try CLIRunner.run(["count", "Note", "--store", "@com.example.multi/B.sqlite"], environment: environment)
        #expect(named.status == 0 && named.stdout == "2\n", "\(named.stdout)\(named.stderr)")
        let missing = try CLIRunner.run(["count", "Note", "--store", "@com.example.none"], environment: environment)
        #expect(missing.status == 4 && missing.stderr.contains("com.example.none has no store"), "\(missing.stderr)")
        // $CDSTORE_STORE may name an app too.
        var inherited = environment
        inherited["CDSTORE_STORE"] = "@com.example.mac"
        let fromEnvironment = try CLIRunner.run(["count", "Note"], environment: inherited)
        #expect(fromEnvironment.status == 0 && fromEnvironment.stdout == "1\n", "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        // Commands with a --store of their own take an app too: the model subcommands and mcp.
        let model = try CLIRunner.run(["model", "hashes", "--store", "@com.example.notes"], environment: environment)
        #expect(model.status == 0 && model.stdout.hasPrefix("Note "), "\(model.stdout)\(model.stderr)")
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        let call = #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count","arguments":{"entity":"Note"}}}"#
        let mcp = try CLIRunner.run(["mcp", "--store", "@com.example.notes"], stdin: initialize + "\n" + call + "\n",
                                    environment: environment)
        #expect(mcp.status == 0 && mcp.stdout.contains(#"\"count\":3"#), "\(mcp.stdout)\(mcp.stderr)")
    }

    /// `mcp --scan`: the tree's stores listed and read by @ID (the store whose last commit is only in its -wal
    /// included); a store in a backup, the damaged file and paths outside the tree refused; nothing changed.
    @Test func mcpServesTheStoresTheScanFinds() throws {
        let tree = try ScanTree()
        let before = tree.contents()
        func call(_ id: Int, _ tool: String, _ arguments: String) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
        }
        let requests = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            call(2, "list_stores", "{}"),
            call(3, "count", #"{"store":"@com.example.todo","entity":"Note"}"#),
            call(4, "count", #"{"store":"@com.example.notes","entity":"Note"}"#),
            call(5, "count", #"{"store":"@com.example.backup","entity":"Note"}"#),
            call(6, "describe_store", #"{"store":"\#(tree.path("damaged.sqlite"))"}"#),
            call(7, "describe_store", #"{"store":"/etc/passwd"}"#),
            call(8, "describe_store", #"{"store":"\#(tree.root.path)/Devices/../../x.sqlite"}"#),
            call(9, "count", #"{"store":"@com.example.multi/B.sqlite","entity":"Note"}"#),
        ]
        let result = try CLIRunner.run(["mcp", "--scan", tree.root.path], stdin: requests.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        var texts: [Int: (text: String, isError: Bool)] = [:]
        for line in try Self.lines(result.stdout) {
            let id = line["id"] as? Int ?? -1
            let response = line["result"] as? [String: Any]
            let content = (response?["content"] as? [[String: Any]])?.first?["text"] as? String
            texts[id] = (content ?? "\(line)", response?["isError"] as? Bool ?? true)
        }
        let listed = try #require(texts[2])
        #expect(!listed.isError && tree.stores.allSatisfy { listed.text.contains(#""path":"\#($0.path)""#) }, "\(listed.text)")
        #expect(texts[3]?.isError == false && texts[3]?.text.contains(#""count":5"#) == true, "\(String(describing: texts[3]))")
        #expect(texts[4]?.isError == false && texts[4]?.text.contains(#""count":3"#) == true, "\(String(describing: texts[4]))")
        #expect(texts[5]?.isError == true && texts[5]?.text.contains("backup") == true, "\(String(describing: texts[5]))")
        for id in 6...8 {
            #expect(texts[id]?.isError == true && texts[id]?.text.hasPrefix("store:") == true, "\(id): \(String(describing: texts[id]))")
        }
        #expect(texts[9]?.isError == false && texts[9]?.text.contains(#""count":2"#) == true, "\(String(describing: texts[9]))")
        #expect(tree.contents() == before, "a file under the tree changed, or one was created")
    }
}
