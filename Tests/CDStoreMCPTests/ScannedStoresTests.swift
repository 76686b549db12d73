import CDStore
@testable import CDStoreMCP
import CDStoreTestSupport
import Foundation
import Testing

/// A server of scanned stores (``MCPServer/init(scanning:maximumOpenStores:version:)``) over time: a store written
/// after it was opened is read again, a store whose folder is swapped for a link out of the roots after the scan
/// is refused, and the open stores stay bounded.
///
/// One test at a time: a server's first tool call waits, on its thread, for the scan's task; tests side by side
/// would hold every thread of Swift's cooperative pool waiting (a server runs on a thread of its own).
@Suite("MCP server of scanned stores", .serialized)
struct ScannedStoresTests {
    /// A folder `root` holding `count` demo stores `S0/Company.sqlite`…, and a folder beside it (outside the root).
    static func tree(stores count: Int) throws -> (root: URL, outside: URL, stores: [String]) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-scan-\(UUID().uuidString)")
        let root = base.appendingPathComponent("root")
        let outside = base.appendingPathComponent("outside")
        var stores: [String] = []
        for index in 0..<count {
            let folder = root.appendingPathComponent("S\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            stores.append(try demoStore(in: folder))
        }
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        return (root, outside, stores)
    }

    /// The demo store (Schemas/Company.json with Schemas/demo/Company.json) in `folder`, closed.
    static func demoStore(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("Company.sqlite").path
        let store = try CDStore(path: path, model: .path(Corpus.schemas.appendingPathComponent("Company.json").path), options: [.create])
        try store.write { ctx in try ctx.insert(.file(Corpus.schemas.appendingPathComponent("demo/Company.json")), into: "Company") }
        return path
    }

    static func count(_ server: MCPServer, store: String, entity: String) throws -> JSONValue {
        try MCPServerTests.tool(server, "count", #"{"store":"\#(store)","entity":"\#(entity)"}"#)
    }

    @Test func aStoreWrittenAfterItWasOpenedIsReadAgain() throws {
        let (root, _, stores) = try Self.tree(stores: 1)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let server = MCPServer(scanning: [root.path])
        let before = try Self.count(server, store: stores[0], entity: "Badge")
        #expect(before["structuredContent"]?["count"] == .integer(1), "\(before.text)")
        let writer = try CDStore(path: stores[0])
        try writer.write { ctx in
            let badge = try #require(try ctx.fetch("Badge").first)
            #expect(try ctx.delete(badge.objectID))
        }
        let after = try Self.count(server, store: stores[0], entity: "Badge")
        #expect(after["structuredContent"]?["count"] == .integer(0), "an open store was not read again: \(after.text)")
    }

    @Test func aFolderSwappedForALinkOutOfTheRootsIsRefused() throws {
        let (root, outside, stores) = try Self.tree(stores: 1)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let server = MCPServer(scanning: [root.path])
        let listed = try MCPServerTests.tool(server, "list_stores", "{}")
        #expect(listed.text.contains(stores[0]), "\(listed.text)")
        // After the scan, the store's folder becomes a link to a folder outside the roots holding a store of that name.
        _ = try Self.demoStore(in: outside)
        let folder = root.appendingPathComponent("S0")
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: outside)
        let text = try MCPServerTests.errorText(Self.count(server, store: stores[0], entity: "Department"))
        #expect(text.hasPrefix("store:") && text.contains("leads out"), "\(text)")
    }

    @Test func openStoresAreBounded() throws {
        let (root, _, stores) = try Self.tree(stores: 3)
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let server = MCPServer(scanning: [root.path], maximumOpenStores: 2)
        // Each store in turn, twice round: with room for two, the third closes the one used longest ago.
        for store in stores + stores {
            let counted = try Self.count(server, store: store, entity: "Employee")
            #expect(counted["structuredContent"]?["count"] == .integer(5), "\(store): \(counted.text)")
        }
        #expect(server.openStoreCount == 2)
    }
}
