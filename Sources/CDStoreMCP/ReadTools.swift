import CDStore
import Foundation

/// The reading tools on one store: each a read transaction, results bounded in rows and bytes.
struct ReadTools {
    let store: CDStore

    /// The most rows one call returns, and the default.
    static let maximumRows: Int64 = 500
    static let defaultRows: Int64 = 50
    /// The most bytes of JSON one call returns; a page that would exceed it ends early, with a cursor.
    static let maximumBytes = 256 * 1024

    func describeStore() throws -> JSONValue {
        let info = try store.info()
        let model = store.model
        let history = try store.hasPersistentHistory
        var warnings = store.warnings.map(\.description)
        if info.hashesChecked && !info.hashesMatch {
            warnings.append("the model's entity hashes differ from the store's metadata for "
                            + info.entities.filter { !$0.hashMatches }.map(\.name).joined(separator: ", "))
        }
        let counts = Dictionary(info.entities.map { ($0.name, $0.objects ?? 0) }, uniquingKeysWith: { first, _ in first })
        return [
            "path": .string(store.path), "uuid": .string(store.storeUUID), "kind": .string(info.kind.description),
            "journal_mode": .string(info.journalMode), "model_source": .string(info.modelSource.rawValue),
            "version_identifiers": .array(model.versionIdentifiers.map(JSONValue.string)),
            "persistent_history": .bool(history), "read_only": .bool(store.isReadOnly),
            "warnings": .array(warnings.map(JSONValue.string)),
            "entities": .array(model.entities.map { modelEntity in
                let count = (entity: modelEntity.name, objects: counts[modelEntity.name] ?? 0)
                var pairs: [(String, JSONValue)] = [("name", .string(count.entity)), ("objects", .integer(Int64(count.objects)))]
                let entity: Entity? = modelEntity
                if let parent = entity?.parentName { pairs.append(("parent", .string(parent))) }
                if entity?.isAbstract == true { pairs.append(("abstract", true)) }
                return .object(pairs)
            }),
        ]
    }

    func describeModel(_ arguments: ToolArguments) throws -> JSONValue {
        let model = store.model
        guard let name = try arguments.string("entity") else { return ModelDescription.model(model) }
        guard let entity = model.entities.first(where: { $0.name == name }) else {
            throw ToolError("entity", ModelDescription.unknownEntity(name, in: model))
        }
        return ["entities": [ModelDescription.entity(entity, in: model)]]
    }

    func fetch(_ arguments: ToolArguments) throws -> JSONValue {
        let entity = try checkedEntity(arguments)
        let predicate = try arguments.string("where")
        let sort = try arguments.strings("sort")
        let limit = Int(try arguments.integer("limit", in: 1...Self.maximumRows, default: Self.defaultRows)!)
        let only = try arguments.strings("properties", maximum: 256)
        let query = PageCursor.fingerprint(["fetch", store.path, entity, predicate ?? "", sort.joined(separator: "\u{1}")])
        var offset = 0
        if let cursor = try arguments.string("cursor") { offset = try PageCursor.offset(of: cursor, for: query) }
        let objects = try Failure.mapping(predicate: predicate) {
            try store.read { ctx in
                try ctx.fetch(entity, matching: try Criteria(parsing: predicate).sorted(by: sort).limit(limit + 1, offset: offset))
            }
        }
        let known = Self.propertyNames(around: entity, in: store.model)
        for name in only where !known.contains(name) {
            throw ToolError("properties", "entity '\(entity)' has no property '\(name)'")
        }
        var rows: [JSONValue] = []
        var bytes = 0
        for object in objects.prefix(limit) {
            var row = ObjectJSON.object(object, requested: entity)
            if !only.isEmpty, case .object(let pairs) = row {
                row = .object(pairs.filter { $0.0.hasPrefix("_") || only.contains($0.0) })
            }
            let size = row.text.utf8.count
            if !rows.isEmpty && bytes + size > Self.maximumBytes { break }
            bytes += size
            rows.append(row)
        }
        let more = rows.count < objects.count
        var result: [(String, JSONValue)] = [("entity", .string(entity)), ("count", .integer(Int64(rows.count))),
                                             ("objects", .array(rows))]
        if more { result.append(("next_cursor", .string(PageCursor.make(offset: offset + rows.count, for: query)))) }
        return .object(result)
    }

    func count(_ arguments: ToolArguments) throws -> JSONValue {
        let entity = try checkedEntity(arguments)
        let predicate = try arguments.string("where")
        let count = try Failure.mapping(predicate: predicate) {
            try store.read { ctx in try ctx.count(entity, matching: try Criteria(parsing: predicate)) }
        }
        return ["entity": .string(entity), "count": .integer(Int64(count))]
    }

    func project(_ arguments: ToolArguments) throws -> JSONValue {
        let entity = try checkedEntity(arguments)
        let properties = try arguments.strings("properties", maximum: 256)
        guard !properties.isEmpty else { throw ToolError("properties", "is required: at least one property or function") }
        let predicate = try arguments.string("where")
        let groupBy = try arguments.strings("group_by")
        let having = try arguments.string("having")
        let sort = try arguments.strings("sort")
        let distinct = try arguments.bool("distinct", default: false)
        let limit = Int(try arguments.integer("limit", in: 1...Self.maximumRows, default: Self.defaultRows)!)
        let query = PageCursor.fingerprint(["project", store.path, entity, properties.joined(separator: "\u{1}"), predicate ?? "",
                                            groupBy.joined(separator: "\u{1}"), having ?? "", sort.joined(separator: "\u{1}"),
                                            distinct ? "distinct" : ""])
        var offset = 0
        if let cursor = try arguments.string("cursor") {
            offset = try PageCursor.offset(of: cursor, for: query, sameQuery: "entity, properties, where, group_by, having, sort and distinct")
        }
        let rows = try Failure.mapping(predicate: predicate, having: having) {
            try store.read { ctx in
                try ctx.project(entity, properties, matching: try Criteria(parsing: predicate).sorted(by: sort).limit(limit + 1, offset: offset),
                                groupBy: groupBy, having: try having.map { try Criteria(parsing: $0, about: .having) },
                                distinct: distinct)
            }
        }
        var results: [JSONValue] = []
        var bytes = 0
        for row in rows.prefix(limit) {
            let value = JSONValue.object(row.resultKeys.map { ($0, ObjectJSON.value(row.value(forKey: $0) ?? .null)) })
            let size = value.text.utf8.count
            if !results.isEmpty && bytes + size > Self.maximumBytes { break }
            bytes += size
            results.append(value)
        }
        let keys = rows.first?.resultKeys ?? []
        let more = results.count < rows.count
        var result: [(String, JSONValue)] = [("entity", .string(entity)), ("keys", .array(keys.map(JSONValue.string))),
                                             ("count", .integer(Int64(results.count))), ("rows", .array(results)),
                                             ("truncated", .bool(more))]
        if more { result.append(("next_cursor", .string(PageCursor.make(offset: offset + results.count, for: query)))) }
        return .object(result)
    }

    func getObject(_ arguments: ToolArguments) throws -> JSONValue {
        let text = try arguments.string("id", required: true)!
        let id = try ObjectIDText.parse(text, store: store)
        guard let object = try store.read({ ctx in try ctx.object(id) }) else {
            throw ToolError("id", "no object \(id) in the store (deleted, or never there)")
        }
        return ObjectJSON.object(object, requested: nil)
    }

    func history(_ arguments: ToolArguments) throws -> JSONValue {
        let limit = Int(try arguments.integer("limit", in: 1...Self.maximumRows, default: Self.defaultRows)!)
        let entity = try arguments.string("entity")
        if let entity, !store.model.entities.contains(where: { $0.name == entity }) {
            throw ToolError("entity", ModelDescription.unknownEntity(entity, in: store.model))
        }
        var after: Int64?
        var date: Date?
        switch arguments.value("since") {
        case nil: break
        case .integer(let token)?: after = token
        case .string(let text)?:
            if let token = Int64(text) { after = token } else {
                guard let parsed = ObjectIDText.date(text) else {
                    throw ToolError("since", "'\(text)' is neither a transaction number nor an ISO 8601 date")
                }
                date = parsed
            }
        case let other?: throw ToolError("since", "must be a transaction number or an ISO 8601 date, not \(other.typeName)")
        }
        guard try store.hasPersistentHistory else {
            return ["persistent_history": false, "transactions": [],
                    "note": "this store keeps no persistent history (no ATRANSACTION table)"]
        }
        let entries = try store.history(after: after, since: date, entity: entity, limit: limit)
        var transactions: [JSONValue] = []
        var bytes = 0
        for entry in entries {
            let value = HistoryJSON.entry(entry)
            let size = value.text.utf8.count
            if !transactions.isEmpty && bytes + size > Self.maximumBytes { break }
            bytes += size
            transactions.append(value)
        }
        var result: [(String, JSONValue)] = [("persistent_history", true), ("transactions", .array(transactions))]
        if transactions.count == limit || transactions.count < entries.count,
           case .integer(let last)? = transactions.last?["number"] {
            result.append(("next_since", .integer(last)))
        }
        return .object(result)
    }

    /// The `entity` argument, which must name an entity of the model.
    func checkedEntity(_ arguments: ToolArguments) throws -> String {
        let name = try arguments.string("entity", required: true)!
        guard store.model.entities.contains(where: { $0.name == name }) else {
            throw ToolError("entity", ModelDescription.unknownEntity(name, in: store.model))
        }
        return name
    }

    /// The property names objects of `entity` can have: its own, its ancestors' and its sub-entities'.
    static func propertyNames(around entity: String, in model: ManagedObjectModel) -> Set<String> {
        func chain(_ name: String) -> [String] {
            var names: [String] = []
            var current: String? = name
            // Bounded by the number of entities, whatever a malformed model's parents say.
            while let each = current, names.count <= model.entities.count {
                names.append(each)
                current = model.entities.first { $0.name == each }?.parentName
            }
            return names
        }
        let ancestors = Set(chain(entity))
        var names = Set<String>()
        for candidate in model.entities where ancestors.contains(candidate.name) || chain(candidate.name).contains(entity) {
            names.formUnion(candidate.attributes.map(\.name))
            names.formUnion(candidate.relationships.map(\.name))
        }
        return names
    }
}
