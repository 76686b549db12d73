/// The tools the server offers, each with its JSON Schema and a description that teaches an assistant the
/// store's terms: entity and property names, NSPredicate syntax by example, sort keys.
enum ToolCatalog {
    /// One tool: its name, description, input schema, and whether it writes.
    struct Tool {
        var name: String
        var title: String
        var description: String
        var properties: [(String, JSONValue)]
        var required: [String]
        var writes: Bool = false

        /// The argument names the tool takes.
        var argumentNames: [String] { properties.map(\.0) }

        /// The tool as `tools/list` lists it.
        var listing: JSONValue {
            .object([
                ("name", .string(name)), ("title", .string(title)), ("description", .string(description)),
                ("inputSchema", .object([
                    ("type", "object"), ("properties", .object(properties)),
                    ("required", .array(required.map(JSONValue.string))), ("additionalProperties", false),
                ])),
                ("annotations", .object([
                    ("readOnlyHint", .bool(!writes)), ("destructiveHint", .bool(writes)),
                    ("idempotentHint", .bool(!writes)), ("openWorldHint", false),
                ])),
            ])
        }
    }

    /// How predicates are written, shared by every tool that takes one.
    static let predicateHelp = """
        `where` is an NSPredicate format over the entity's property names (not SQL, not table or column names): \
        `age > 30`, `lastName == 'Moreau'`, `name BEGINSWITH[c] 'a'`, `email == nil`, `hiredAt > '2020-01-01'` \
        (dates as ISO 8601 text), `department.name == 'R&D'` (a to-one's key path), `ANY employees.salary > 90000`, \
        `employees.@count >= 3`, `SUBQUERY(employees, $e, $e.age < 30).@count > 0`, `status IN {'a', 'b'}`, \
        `NOT (isActive == YES) OR rating BETWEEN {4, 5}`. Strings in single or double quotes.
        """

    static let entity: (String, JSONValue) = ("entity", [
        "type": "string", "description": "The entity's name as the model names it (describe_store lists them).",
    ])
    static let whereArgument: (String, JSONValue) = ("where", [
        "type": "string", "description": "An NSPredicate selecting objects, e.g. \"age > 30 AND department.name == 'R&D'\".",
    ])
    static let sort: (String, JSONValue) = ("sort", [
        "type": "array", "items": ["type": "string"],
        "description": "Sort keys, most significant first: \"lastName\", \"-salary\" (descending), \"name:ci\" (ignoring case), \"department.name\".",
    ])
    static let dryRun: (String, JSONValue) = ("dry_run", [
        "type": "boolean", "default": true,
        "description": "true (the default): validate and report what would change, writing nothing. false: commit.",
    ])

    /// Every tool, reading ones first; the writing ones are listed only by a server that allows writes.
    static let all: [Tool] = [
        Tool(name: "describe_store", title: "Describe the store",
             description: "The store's kind (Core Data or SwiftData, CloudKit, persistent history), journal mode, "
                + "where its model came from, warnings, and every entity with its number of objects. Call it first.",
             properties: [], required: []),
        Tool(name: "describe_model", title: "Describe the model",
             description: "The managed object model: per entity its parent, attributes (type, optional, default, "
                + "min/max, pattern), relationships (destination, to-many, inverse, delete rule, counts), "
                + "uniqueness constraints and fetch indexes. Give `entity` for one entity.",
             properties: [("entity", ["type": "string", "description": "Only this entity (and name its sub-entities)."])],
             required: []),
        Tool(name: "fetch", title: "Fetch objects",
             description: "Objects of an entity (and its sub-entities) as `cdstore export` writes them: `_id` (the "
                + "object ID), attributes, relationships as object IDs. At most `limit` (default 50, at most 500) "
                + "per call; pass the returned `next_cursor` as `cursor` for the next page. " + predicateHelp,
             properties: [
                entity, whereArgument, sort,
                ("limit", ["type": "integer", "minimum": 1, "maximum": 500, "default": 50]),
                ("cursor", ["type": "string", "description": "The next_cursor of the previous page of the same query."]),
                ("properties", ["type": "array", "items": ["type": "string"],
                                "description": "Only these properties in each object (besides _id)."]),
             ], required: ["entity"]),
        Tool(name: "count", title: "Count objects",
             description: "The number of objects of an entity (sub-entities included) matching `where`. " + predicateHelp,
             properties: [entity, whereArgument], required: ["entity"]),
        Tool(name: "project", title: "Project and aggregate",
             description: "Dictionary results in one query: properties and key paths (\"department.name\"), "
                + "\"employees.@count\", functions \"sum:salary\", \"average:\", \"count:\", \"min:\", \"max:\", "
                + "\"median:\", \"stddev:\", \"lowercase:\", \"uppercase:\", aliases (\"sum:salary AS total\"), "
                + "`group_by` key paths, `having` (a predicate on groups: \"total > 100000\"), `sort` by result keys. "
                + "At most `limit` (default 50, at most 500) rows per call; pass the returned `next_cursor` as "
                + "`cursor` for the next page (pages follow `sort`: sort by the group keys for pages that hold still). "
                + predicateHelp,
             properties: [
                entity,
                ("properties", ["type": "array", "items": ["type": "string"], "minItems": 1,
                                "description": "What each row holds, e.g. [\"department.name\", \"count:employeeNumber AS people\"]."]),
                whereArgument,
                ("group_by", ["type": "array", "items": ["type": "string"], "description": "Group by these key paths."]),
                ("having", ["type": "string", "description": "A predicate on groups, over result keys and aggregates."]),
                sort,
                ("limit", ["type": "integer", "minimum": 1, "maximum": 500, "default": 50]),
                ("distinct", ["type": "boolean", "default": false]),
                ("cursor", ["type": "string", "description": "The next_cursor of the previous page of the same query."]),
             ], required: ["entity", "properties"]),
        Tool(name: "get_object", title: "Get one object",
             description: "One object by its ID (\"x-coredata://<store UUID>/Employee/p3\", or \"Employee/p3\"), "
                + "with every relationship as object IDs.",
             properties: [("id", ["type": "string", "description": "The object ID, as fetch returns it in _id."])],
             required: ["id"]),
        Tool(name: "history", title: "Persistent history",
             description: "Core Data's persistent history, where the store keeps it: transactions (number, time, "
                + "author, bundle, process, context) with their changes (inserted, updated with the properties, "
                + "deleted with tombstones), oldest first. `since` is a transaction number (a token: transactions "
                + "after it) or an ISO 8601 date; pass the returned `next_since` to go on.",
             properties: [
                ("since", ["type": ["integer", "string"], "description": "A transaction number, or an ISO 8601 date."]),
                ("entity", ["type": "string", "description": "Only changes of this entity (and sub-entities)."]),
                ("limit", ["type": "integer", "minimum": 1, "maximum": 500, "default": 50]),
             ], required: []),
        Tool(name: "insert", title: "Insert objects",
             description: "Insert one object or several (a JSON object or an array of them) into an entity, in one "
                + "transaction, validated against the model (types, required values, ranges, uniqueness). A "
                + "relationship takes a nested object (a new related object; an array for a to-many), an object ID, "
                + "or {\"_ref\": {\"name\": \"R&D\"}} (the one existing object with those values). Dates as ISO 8601 "
                + "text. `dry_run` is true unless set to false: nothing is written and the result says what would be.",
             properties: [
                entity,
                ("values", ["type": ["object", "array"], "description": "The object's values by property name, or an array of such objects."]),
                dryRun,
             ], required: ["entity", "values"], writes: true),
        Tool(name: "update", title: "Update objects",
             description: "Set attributes of the objects matching `where`, in one transaction, each new value "
                + "validated first; `Z_OPT` is bumped as Core Data does. `values` maps attribute names to values "
                + "(\"salary\": 72000, \"email\": null) or to an expression {\"expression\": \"salary * 1.05\"}. "
                + "`dry_run` is true unless set to false. " + predicateHelp,
             properties: [
                entity, whereArgument,
                ("values", ["type": "object", "description": "Attribute name to new value, or to {\"expression\": \"…\"}."]),
                dryRun,
             ], required: ["entity", "where", "values"], writes: true),
        Tool(name: "delete", title: "Delete objects",
             description: "Delete the objects matching `where` (or the one `id`), in one transaction, applying "
                + "every relationship's delete rule as Core Data does: Nullify, Cascade (recursively), Deny (refuses "
                + "the whole delete, naming the object), No Action. `dry_run` is true unless set to false: the "
                + "result lists what would be deleted per entity. " + predicateHelp,
             properties: [entity, whereArgument, ("id", ["type": "string", "description": "One object's ID instead of `where`."]), dryRun],
             required: ["entity"], writes: true),
    ]

    /// The `store` argument every tool takes on a server of scanned stores.
    static let storeArgument: (String, JSONValue) = ("store", [
        "type": "string",
        "description": .string("The store: its path as list_stores gives it, or its app's id: \"@com.example.notes\", "
            + "\"@com.example.multi/A.sqlite\" when the app has stores of several names (its latest install is read)."),
    ])

    /// The tool of a server of scanned stores that lists them.
    static let listStores = Tool(
        name: "list_stores", title: "List the stores found",
        description: "The Core Data and SwiftData stores the server's scan found under its folders (simulators, app "
            + "containers, app groups): per store its `path` and, when its app names it, its `id` (\"@com.example.app\"), "
            + "to pass as `store` to every other tool; its app, file, kind, objects per entity, size, last change and "
            + "problems. Only these stores can be read. Call it first. `rescan` walks the folders again.",
        properties: [
            ("app", ["type": "string", "description": "Only the stores of this app or group id (with or without @)."]),
            ("rescan", ["type": "boolean", "default": false, "description": "Scan the folders again (new installs)."]),
        ], required: [])

    /// The tools a server offers: every reading tool; the writing ones when `allowWrites`; on a server of scanned
    /// stores (`scanning`, never writing), `list_stores` first and a required `store` argument on every other.
    static func tools(allowWrites: Bool, scanning: Bool) -> [Tool] {
        guard scanning else { return all.filter { allowWrites || !$0.writes } }
        return [listStores] + all.filter { !$0.writes }.map { tool in
            var tool = tool
            tool.properties.insert(storeArgument, at: 0)
            tool.required.insert("store", at: 0)
            return tool
        }
    }

    /// The tool named `name`, if the server offers it.
    static func tool(named name: String, allowWrites: Bool, scanning: Bool = false) -> Tool? {
        tools(allowWrites: allowWrites, scanning: scanning).first { $0.name == name }
    }
}
