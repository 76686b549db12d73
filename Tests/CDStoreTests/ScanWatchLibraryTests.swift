import CDStore
import CDStoreTestSupport
import Foundation
import Testing

/// The library's scanning, app-store resolution and watching, as a Swift user calls them.
@Suite struct ScanWatchLibraryTests {
    static let model = """
        {"format": "cdstore-model", "formatVersion": 1, "entities": [
          {"name": "Note", "attributes": [{"name": "title", "type": "String", "optional": true},
                                          {"name": "pinned", "type": "Boolean", "optional": true}]}]}
        """

    /// A store of `notes` notes at `path`, made through the library.
    static func makeStore(_ path: String, notes: Int, modelFile: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let store = try CDStore(path: path, model: .path(modelFile), options: [.create])
        try store.write { ctx in
            for index in 0..<notes { _ = try ctx.insert("Note", ["title": "note \(index)"]) }
        }
    }

    static func modelFile() throws -> String {
        let file = try temporaryDirectory().appendingPathComponent("Notes.json").path
        try Data(model.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test func scannerFindsStoresByContentWithTheirApp() async throws {
        let root = try temporaryDirectory()
        let model = try Self.modelFile()
        let macStore = root.appendingPathComponent("Library/Containers/com.example.lib/Data/Library/Store").path
        try Self.makeStore(macStore, notes: 2, modelFile: model)
        try Self.makeStore(root.appendingPathComponent("loose/Other.db").path, notes: 1, modelFile: model)
        try Data("not a store".utf8).write(to: root.appendingPathComponent("loose/readme.sqlite"))

        var found: [ScannedStore] = []
        for await store in StoreScanner(roots: [root.path]) { found.append(store) }
        #expect(found.map(\.path).sorted() == [macStore, root.appendingPathComponent("loose/Other.db").path].sorted())
        let mac = try #require(found.first { $0.path == macStore })
        #expect(mac.app == "com.example.lib")
        #expect(mac.entities == ["Note": 2])
        #expect(mac.kind == "Core Data")
        #expect(mac.problems.isEmpty)
        #expect(found.first { $0.path != macStore }?.app == nil)

        // Overlapping roots report each store once.
        var twice: [String] = []
        for await store in StoreScanner(roots: [root.path, root.appendingPathComponent("loose").path + "/"]) { twice.append(store.path) }
        #expect(twice.sorted() == found.map(\.path).sorted())

        var filtered: [String] = []
        for await store in StoreScanner(roots: [root.path], app: "com.example.lib") { filtered.append(store.path) }
        #expect(filtered == [macStore])
        #expect(try StoreScanner.store(app: "@com.example.lib", roots: [root.path]).path == macStore)
        #expect(throws: CDStoreError.self) { try StoreScanner.store(app: "com.example.missing", roots: [root.path]) }

        let out = try temporaryDirectory().appendingPathComponent("export").path
        #expect(try mac.export(to: out) == ["Note": 2])
        let lines = try String(contentsOfFile: out + "/Note.ndjson", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""_entity":"Note""#) })
    }

    @Test func watcherSeesAnotherConnectionsCommits() async throws {
        let path = try temporaryDirectory().appendingPathComponent("Watched.sqlite").path
        try Self.makeStore(path, notes: 1, modelFile: try Self.modelFile())
        let writer = try CDStore(path: path)
        let watcher = try StoreWatcher(path: path, entities: ["Note"])
        #expect(!watcher.usesPersistentHistory)
        // Each write is waited for before the next: commits between two polls come together, by entity and key.
        var iterator = watcher.makeAsyncIterator()
        var changes: [StoreChange] = []
        try writer.write { ctx in _ = try ctx.insert("Note", ["title": "new"]) }
        changes.append(try #require(try await iterator.next()))
        try writer.write { ctx in _ = try ctx.update("Note", matching: try Criteria("title == 'note 0'"), set: ["pinned": true]) }
        changes.append(try #require(try await iterator.next()))
        try writer.write { ctx in _ = try ctx.delete("Note", matching: try Criteria("title == 'new'")) }
        changes.append(try #require(try await iterator.next()))
        #expect(changes.map(\.kind) == [.inserted, .updated, .deleted])
        #expect(changes.map(\.objectID.primaryKey) == [2, 1, 2])
        #expect(changes[0].object?.get("title", as: String.self) == "new")
        #expect(changes[1].updatedProperties == ["pinned"])
        #expect(changes[2].object == nil)
    }

    /// Criteria filter what is handed out: inserts and updates matching after the change, deletes matching before.
    @Test func aWatcherWithCriteriaHandsOutOnlyTheObjectsTheyFilter() async throws {
        let path = try temporaryDirectory().appendingPathComponent("Filtered.sqlite").path
        try Self.makeStore(path, notes: 1, modelFile: try Self.modelFile())
        let writer = try CDStore(path: path)
        let watcher = try StoreWatcher(path: path, entities: ["Note"], matching: .equal("pinned", true))
        var iterator = watcher.makeAsyncIterator()
        try writer.write { ctx in _ = try ctx.insert("Note", ["title": "plain"]) }
        try writer.write { ctx in _ = try ctx.insert("Note", ["title": "pinned", "pinned": true]) }
        let first = try #require(try await iterator.next())
        #expect(first.kind == .inserted && first.object?.get("title", as: String.self) == "pinned")
        try writer.write { ctx in _ = try ctx.delete("Note", matching: .equal("title", "plain")) }
        try writer.write { ctx in _ = try ctx.delete("Note", matching: .equal("title", "pinned")) }
        let second = try #require(try await iterator.next())
        #expect(second.kind == .deleted && second.objectID == first.objectID)
    }
}
