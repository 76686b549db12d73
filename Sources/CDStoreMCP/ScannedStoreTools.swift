import CDStore
import Foundation

/// `list_stores` and the resources of a server of scanned stores.
struct ScannedStoreTools {
    let catalog: StoreCatalog

    /// The most bytes of JSON `list_stores` returns; the stores past them are counted, not listed.
    static let maximumBytes = ReadTools.maximumBytes

    /// The stores found (those of `app` only, when given), as `list_stores` answers.
    func listStores(_ arguments: ToolArguments) throws -> JSONValue {
        let rescan = try arguments.bool("rescan", default: false)
        var app = try arguments.string("app")
        if app?.hasPrefix("@") == true { app?.removeFirst() }
        let all = catalog.stores(rescan: rescan)
        let chosen = all.filter { app == nil || $0.app == app }
        var listed: [JSONValue] = []
        var bytes = 0
        for found in chosen {
            let value = record(found, among: all)
            let size = value.text.utf8.count
            if !listed.isEmpty && bytes + size > Self.maximumBytes { break }
            bytes += size
            listed.append(value)
        }
        var result: [(String, JSONValue)] = [
            ("roots", .array(catalog.roots.map(JSONValue.string))), ("count", .integer(Int64(chosen.count))),
            ("stores", .array(listed)),
        ]
        if listed.count < chosen.count {
            result.append(("note", .string("\(chosen.count - listed.count) more stores are not listed (the result is bounded): "
                                           + "pass `app` to list one app's")))
        }
        return .object(result)
    }

    /// One store as `list_stores` lists it: what `cdstore scan` prints, with the `id` that names it.
    func record(_ found: ScannedStore, among all: [ScannedStore]) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("path", .string(found.path))]
        pairs.append(("id", catalog.reference(to: found, in: all).map(JSONValue.string) ?? .null))
        pairs.append(("app", found.app.map(JSONValue.string) ?? .null))
        pairs.append(("file", .string(StoreCatalog.fileName(found))))
        if let domain = found.domain { pairs.append(("domain", .string(domain))) }
        if let relativePath = found.relativePath { pairs.append(("relative_path", .string(relativePath))) }
        pairs += [
            ("kind", found.kind.map(JSONValue.string) ?? .null),
            ("model_source", found.modelSource.map(JSONValue.string) ?? .null),
            ("entities", .object(found.entities.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
            ("objects", .integer(Int64(found.entities.values.reduce(0, +)))),
            ("size", .integer(found.size)),
            ("last_modified", found.lastModified.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null),
            ("problems", .array(found.problems.map(JSONValue.string))),
            ("readable", .bool(found.kind != nil && found.domain == nil)),
        ]
        return .object(pairs)
    }

    // MARK: Resources

    /// A resource of a scanned store: the single-store URI with the store as its query,
    /// `cdstore://model?store=PATH` or `cdstore://entity/NAME?store=@app`.
    static let templates: [JSONValue] = [
        [
            "uriTemplate": "cdstore://model?store={store}", "name": "model", "title": "A store's managed object model",
            "description": "The model of a store (a path or @app id from list_stores) as cdstore's JSON model.",
            "mimeType": "application/json",
        ],
        [
            "uriTemplate": "cdstore://entity/{name}?store={store}", "name": "entity", "title": "An entity's schema",
            "description": "An entity's attributes, relationships, rules and a predicate example, as text.",
            "mimeType": "text/plain",
        ],
    ]

    /// The model resource of every store that can be read.
    func resourceListing() -> [JSONValue] {
        catalog.stores().filter { $0.kind != nil && $0.domain == nil }.map { found in
            let name = (found.app.map { $0 + "/" } ?? "") + StoreCatalog.fileName(found)
            return [
                "uri": .string("cdstore://model?store=" + Self.queryEscaped(found.path)), "name": .string("model of \(name)"),
                "title": .string("The model of \(name)"),
                "description": .string("The model of \(found.path) as cdstore's JSON model."),
                "mimeType": "application/json",
            ]
        }
    }

    /// The resource at `uri`: its store's resource, under the URI asked for.
    func read(_ uri: String) throws -> JSONValue {
        guard let query = uri.firstIndex(of: "?"),
              uri[uri.index(after: query)...].hasPrefix("store="),
              let reference = String(uri[uri.index(query, offsetBy: 7)...]).removingPercentEncoding,
              !reference.isEmpty else {
            throw RPCError.invalidParams("'\(uri.prefix(200))': a resource of a scanned store names it: "
                                         + "cdstore://model?store=PATH or cdstore://entity/NAME?store=@app")
        }
        let store: CDStore
        do {
            store = try catalog.store(named: reference)
        } catch {
            throw RPCError.invalidParams(error.text)
        }
        var contents = try Resources(store: store).read(String(uri[..<query]))
        if case .object(var pairs) = contents, let index = pairs.firstIndex(where: { $0.0 == "uri" }) {
            pairs[index].1 = .string(uri)
            contents = .object(pairs)
        }
        return contents
    }

    /// A path or id in a URI's query: `&`, `=`, `+`, `#`, `%` and spaces escaped.
    static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#%?")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
