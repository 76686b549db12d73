import CDStore
import CDStoreMCP
import CDStoreTestSupport
import Foundation
import Testing

/// The MCP server's protocol answers, argument checks and bounds, driven through ``MCPServer/respond(to:)`` on the
/// demo store (Schemas/Company.json with Schemas/demo/Company.json).
@Suite("MCP server")
struct MCPServerTests {
    /// A read-only server on a new demo store, and the folder to remove.
    static func demoServer(employees extra: Int = 0, allowWrites: Bool = false) throws -> (MCPServer, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("Company.sqlite").path
        let model = Corpus.schemas.appendingPathComponent("Company.json").path
        let store = try CDStore(path: path, model: .path(model), options: [.create])
        try store.write { ctx in try ctx.insert(.file(Corpus.schemas.appendingPathComponent("demo/Company.json")), into: "Company") }
        if extra > 0 {
            try store.write { ctx in
                for number in 0..<extra {
                    try ctx.insert("Employee", ["employeeNumber": 10_000 + number, "firstName": "F\(number)",
                                                "lastName": "L\(number)", "age": 30,
                                                "email": String(repeating: "e", count: 2000) + "@acme.example"])
                }
            }
        }
        let opened = try CDStore(path: path, options: allowWrites ? [] : [.readOnly])
        return (MCPServer(store: opened, allowWrites: allowWrites), folder)
    }

    /// The response to one request, parsed.
    static func call(_ server: MCPServer, _ text: String) throws -> JSONValue {
        let reply = try #require(server.respond(to: Data(text.utf8)))
        return try JSONValue.parse(Data(reply.utf8))
    }

    /// A `tools/call` request's result.
    static func tool(_ server: MCPServer, _ name: String, _ arguments: String) throws -> JSONValue {
        let response = try call(server, #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\#(name)","arguments":\#(arguments)}}"#)
        return try #require(response["result"], "no result: \(response.text)")
    }

    /// A tool result's error text; fails when the result is not an error.
    static func errorText(_ result: JSONValue) throws -> String {
        #expect(result["isError"] == .bool(true), "expected an error: \(result.text.prefix(300))")
        guard case .array(let content)? = result["content"], case .string(let text)? = content.first?["text"] else {
            Issue.record("no text in \(result.text)")
            return ""
        }
        return text
    }

    @Test func malformedMessagesGetTheirErrorCodes() throws {
        let (server, folder) = try Self.demoServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, Int64, JSONValue)] = [
            ("{oops", -32700, .null), ("[1]", -32600, .null), ("\"text\"", -32600, .null),
            (#"{"jsonrpc":"2.0","id":2}"#, -32600, .integer(2)),
            (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, -32600, .null),
            (#"{"id":3,"method":"ping"}"#, -32600, .integer(3)),
            (#"{"jsonrpc":"2.0","id":"a","method":"sql/exec"}"#, -32601, .string("a")),
            (#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1]}"#, -32602, .integer(4)),
            (#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"insert","arguments":{}}}"#, -32602, .integer(5)),
            (#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"cdstore://entity/Nope"}}"#, -32002, .integer(6)),
        ]
        for (text, code, id) in cases {
            let response = try Self.call(server, text)
            #expect(response["error"]?["code"] == .integer(code), "\(text) -> \(response.text)")
            #expect(response["id"] == id, "\(text) -> \(response.text)")
        }
        #expect(server.respond(to: Data(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8)) == nil)
        #expect(server.respond(to: Data("   ".utf8)) == nil)
    }

    @Test func argumentsAreCheckedByNameAndType() throws {
        let (server, folder) = try Self.demoServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.errorText(Self.tool(server, "fetch", #"{"entity":"Employee","limit":0}"#)).hasPrefix("limit:"))
        #expect(try Self.errorText(Self.tool(server, "fetch", #"{"entity":"Employee","limit":501}"#)).hasPrefix("limit:"))
        #expect(try Self.errorText(Self.tool(server, "fetch", #"{"entity":"Employee","limit":2.5}"#)).hasPrefix("limit:"))
        #expect(try Self.errorText(Self.tool(server, "count", #"{"entity":"Employee","filter":"age > 3"}"#)).hasPrefix("filter:"))
        #expect(try Self.errorText(Self.tool(server, "count", #"{"entity":7}"#)).hasPrefix("entity:"))
        #expect(try Self.errorText(Self.tool(server, "count", #"{"entity":"ZEMPLOYEE"}"#)).contains("no entity 'ZEMPLOYEE'"))
        #expect(try Self.errorText(Self.tool(server, "fetch", #"{"entity":"Employee","properties":["salaryy"]}"#)).hasPrefix("properties:"))
        #expect(try Self.errorText(Self.tool(server, "count", "[1,2]")).contains("arguments must be an object"))
        #expect(try Self.errorText(Self.tool(server, "get_object", #"{"id":"x-coredata://OTHER/Employee/p1"}"#)).contains("another store"))
    }

    @Test func aWrongPredicateQuotesItsColumn() throws {
        let (server, folder) = try Self.demoServer()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try Self.errorText(Self.tool(server, "fetch", #"{"entity":"Employee","where":"age >>> 3"}"#))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(text)")
        #expect(lines.first?.hasPrefix("where:") == true && lines.first?.contains("at column") == true, "\(text)")
        #expect(lines.dropFirst().first == "  age >>> 3")
        #expect(lines.last?.hasSuffix("^") == true)
    }

    @Test func pagesAreBoundedInRowsAndBytes() throws {
        let (server, folder) = try Self.demoServer(employees: 300)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try #require(Self.tool(server, "fetch", #"{"entity":"Employee","sort":["employeeNumber"],"limit":500}"#)["structuredContent"])
        guard case .array(let objects)? = first["objects"], case .string(let cursor)? = first["next_cursor"] else {
            Issue.record("no page with a cursor: \(first.text.prefix(300))")
            return
        }
        // 2,000-byte emails: 256 KiB hold about 120 objects, fewer than the 500 asked for.
        #expect(objects.count < 300 && objects.count > 50)
        #expect(first.text.utf8.count <= 256 * 1024 + 4096)
        let second = try #require(Self.tool(server, "fetch", #"{"entity":"Employee","sort":["employeeNumber"],"limit":500,"cursor":"\#(cursor)"}"#)["structuredContent"])
        guard case .array(let next)? = second["objects"] else { Issue.record("no second page"); return }
        #expect(objects.last?["_id"] != next.first?["_id"])
        let defaultPage = try #require(Self.tool(server, "fetch", #"{"entity":"Employee","properties":["employeeNumber"]}"#)["structuredContent"])
        guard case .array(let defaults)? = defaultPage["objects"] else { Issue.record("no default page"); return }
        #expect(defaults.count == 50)
        #expect(defaults.first?["email"] == nil && defaults.first?["employeeNumber"] != nil)
    }

    @Test func aReadOnlyServerOffersNoWritingTool() throws {
        let (server, folder) = try Self.demoServer(allowWrites: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let readOnly = MCPServer(store: try CDStore(path: folder.appendingPathComponent("Company.sqlite").path, options: [.readOnly]),
                                 allowWrites: true)
        #expect(readOnly.allowWrites == false)
        let listed = try Self.call(readOnly, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        #expect(!listed.text.contains("\"insert\""))
        let writable = try Self.call(server, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        #expect(writable.text.contains("\"insert\"") && writable.text.contains("\"delete\""))
        let dry = try #require(Self.tool(server, "delete", #"{"entity":"Badge","where":"TRUEPREDICATE"}"#)["structuredContent"])
        #expect(dry["dry_run"] == .bool(true))
        let count = try #require(Self.tool(server, "count", #"{"entity":"Badge"}"#)["structuredContent"])
        #expect(count["count"] != .integer(0))
    }
}
