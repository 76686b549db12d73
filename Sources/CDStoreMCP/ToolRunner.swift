import CDStore
import Foundation

/// Runs one tool call on the store it is about (the server's, or the scanned one its `store` argument names).
struct ToolRunner {
    let store: CDStore

    func run(_ tool: ToolCatalog.Tool, arguments: ToolArguments) throws -> JSONValue {
        let reads = ReadTools(store: store)
        let writes = WriteTools(store: store)
        return try Failure.mapping {
            switch tool.name {
            case "describe_store": try reads.describeStore()
            case "describe_model": try reads.describeModel(arguments)
            case "fetch": try reads.fetch(arguments)
            case "count": try reads.count(arguments)
            case "project": try reads.project(arguments)
            case "get_object": try reads.getObject(arguments)
            case "history": try reads.history(arguments)
            case "insert": try writes.insert(arguments)
            case "update": try writes.update(arguments)
            case "delete": try writes.delete(arguments)
            default: throw ToolError(nil, "no tool '\(tool.name)'")
            }
        }
    }
}

/// The resources: the model as cdstore's JSON model (`cdstore://model`), and per entity a short schema text
/// (`cdstore://entity/NAME`).
struct Resources {
    let store: CDStore

    static let templates: [JSONValue] = [[
        "uriTemplate": "cdstore://entity/{name}", "name": "entity", "title": "An entity's schema",
        "description": "An entity's attributes, relationships, rules and a predicate example, as text.",
        "mimeType": "text/plain",
    ]]

    func listing() -> [JSONValue] {
        let model: JSONValue = [
            "uri": "cdstore://model", "name": "model", "title": "The managed object model",
            "description": "The store's model as cdstore's JSON model: entities, attributes, relationships, rules.",
            "mimeType": "application/json",
        ]
        return [model] + store.model.entities.map { entity -> JSONValue in
            [
                "uri": .string("cdstore://entity/" + Self.escaped(entity.name)), "name": .string(entity.name),
                "title": .string("Entity \(entity.name)"),
                "description": .string("The schema of \(entity.name): properties, types, rules, relationships."),
                "mimeType": "text/plain",
            ]
        }
    }

    func read(_ uri: String) throws -> JSONValue {
        if uri == "cdstore://model" {
            let data = try store.model.jsonModel()
            return ["uri": .string(uri), "mimeType": "application/json", "text": .string(String(decoding: data, as: UTF8.self))]
        }
        let prefix = "cdstore://entity/"
        guard uri.hasPrefix(prefix), let name = String(uri.dropFirst(prefix.count)).removingPercentEncoding,
              let entity = store.model.entities.first(where: { $0.name == name }) else {
            throw RPCError.resourceNotFound(String(uri.prefix(200)))
        }
        let objects = try? store.read { ctx in try ctx.count(entity.name) }
        return ["uri": .string(uri), "mimeType": "text/plain",
                "text": .string(ModelDescription.schemaText(entity, in: store.model, objects: objects))]
    }

    /// An entity name in a URI (names are letters, digits and `_`, but a store may say otherwise).
    static func escaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
    }
}
