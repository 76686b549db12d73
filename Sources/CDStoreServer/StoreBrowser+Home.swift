import CDStore
import Foundation

extension StoreBrowser {
    /// `/`: where the store is, how it is read, its warnings, and every entity with its number of objects.
    func home(_ request: BrowseRequest) throws -> BrowseReply {
        let overview = try Overview(store, timeLimit: settings.timeLimit)
        if request.wantsJSON {
            let entities: [ObjectValue] = overview.entities.map { entity in
                .dictionary([("name", .string(entity.name)), ("parent", entity.parent.map { .string($0) } ?? .null),
                             ("abstract", .bool(entity.isAbstract)), ("objects", entity.objects.map { .integer(Int64($0)) } ?? .null),
                             ("own", entity.own.map { .integer(Int64($0)) } ?? .null),
                             ("countStoppedAtTimeLimit", .bool(entity.objects == nil)),
                             ("byEntity", entity.byEntity.isEmpty ? .null
                                : .dictionary(entity.byEntity.map { ($0.name, .integer(Int64($0.objects))) })),
                             ("href", .string("/" + HTML.percentEncoded(entity.name)))])
            }
            return .json(jsonText(.dictionary([
                ("path", .string(overview.path)), ("uuid", .string(overview.uuid)),
                ("journalMode", .string(overview.journalMode)), ("kind", .string(overview.kind)),
                ("modelSource", .string(overview.modelSource)),
                ("versionIdentifiers", .array(overview.versionIdentifiers.map { .string($0) })),
                ("persistentHistory", .bool(overview.hasPersistentHistory)), ("readOnly", .bool(overview.isReadOnly)),
                ("warnings", .array(overview.warnings.map { .string($0) })), ("entities", .array(entities)),
            ])))
        }
        var body = HTML()
        body.element("h1", (overview.path as NSString).lastPathComponent)
        body.raw("<dl class=\"info\">")
        let facts: [(String, String)] = [
            ("path", overview.path), ("store UUID", overview.uuid), ("kind", overview.kind),
            ("journal mode", overview.journalMode),
            ("model", Self.modelSourceWords(overview.modelSource)
                + (overview.versionIdentifiers.isEmpty ? "" : ", version " + overview.versionIdentifiers.joined(separator: ", "))),
            ("opened", overview.isReadOnly ? "read-only" : "read-write"),
        ]
        for (term, value) in facts {
            body.element("dt", term)
            body.element("dd", value)
        }
        body.raw("</dl>")
        for warning in overview.warnings {
            body.raw("<div class=\"warning\">")
            body.text("warning: " + warning)
            body.raw("</div>")
        }
        body.element("h2", "Entities")
        body.raw("<table id=\"entities\"><thead><tr><th>entity</th><th>parent</th><th>objects</th><th>by entity</th></tr></thead><tbody>")
        for entity in overview.entities {
            body.raw("<tr><td>")
            body.link("/" + HTML.percentEncoded(entity.name), entity.name)
            if entity.isAbstract { body.raw(" <span class=\"null\">abstract</span>") }
            body.raw("</td><td>")
            if let parent = entity.parent { body.link("/" + HTML.percentEncoded(parent), parent) }
            body.raw("</td><td class=\"num\">")
            if let objects = entity.objects {
                body.text(ValueCells.grouped(objects))
            } else {
                body.raw("<span class=\"null\">not counted in time</span> ")
                body.link(HTML.url("/" + HTML.percentEncoded(entity.name), [("count", "exact")]), "count exactly")
            }
            body.raw("</td><td class=\"split\">")
            Self.split(entity.byEntity, into: &body)
            body.raw("</td></tr>")
        }
        body.raw("</tbody></table>")
        if overview.hasPersistentHistory {
            body.raw("<p><a href=\"/_history\">Persistent history</a></p>")
        }
        return .html(HTML.page(title: (overview.path as NSString).lastPathComponent, crumbs: [("store", nil)], body: body))
    }

    /// `Employee 4, Manager 1`, each entity a link to its page.
    static func split(_ counts: [(name: String, objects: Int)], into body: inout HTML) {
        for (i, part) in counts.enumerated() {
            if i > 0 { body.raw(", ") }
            body.link("/" + HTML.percentEncoded(part.name), part.name)
            body.text(" " + ValueCells.grouped(part.objects))
        }
    }

    static func modelSourceWords(_ source: String) -> String {
        switch source {
        case "given": "the model file given"
        case "cdstoreCache": "the model cdstore keeps in the store"
        case "coreDataCache": "Core Data's model cache in the store (Z_MODELCACHE)"
        case "inferredFromTables": "inferred from the tables (no model given or kept)"
        default: source
        }
    }
}

/// What the home page shows: the store's information with the warnings a reader should see.
struct Overview {
    /// An entity and its objects: with its sub-entities' (what its page counts), its own, and the split by
    /// concrete entity when it has sub-entities.
    struct EntityCount {
        var name: String
        var parent: String?
        var isAbstract: Bool
        /// Nil when counting stopped at the time limit before this entity's subtree was counted.
        var objects: Int?
        var own: Int?
        /// The concrete entities of the entity's subtree and their own objects; empty without sub-entities.
        var byEntity: [(name: String, objects: Int)]
    }

    var path: String
    var uuid: String
    var journalMode: String
    var kind: String
    var modelSource: String
    var versionIdentifiers: [String]
    var hasPersistentHistory: Bool
    var isReadOnly: Bool
    var warnings: [String]
    var entities: [EntityCount]

    /// Reads the store's information without its row counts, then counts each concrete entity's own objects in
    /// one read bounded by `timeLimit` (entities not reached by then are shown as not counted).
    init(_ store: CDStore, timeLimit: Duration) throws {
        let info = try store.info(countingRows: false)
        var warnings = store.warnings.map(\.description)
        if info.hashesChecked && !info.hashesMatch {
            let differing = info.entities.filter { !$0.hashMatches }.map(\.name)
            warnings.append("the model's entity hashes differ from the store's metadata for " + differing.joined(separator: ", "))
        }
        let model = store.model
        let counts = try Self.ownObjects(of: model, in: store, timeLimit: timeLimit)
        path = store.path
        uuid = info.uuid
        journalMode = info.journalMode
        kind = info.kind.description
        modelSource = info.modelSource.rawValue
        versionIdentifiers = info.versionIdentifiers
        hasPersistentHistory = info.kind.persistentHistory
        isReadOnly = store.isReadOnly
        self.warnings = warnings
        entities = model.entities.map { entity in
            let members = model.subtree(of: entity)
            let concrete = members.filter { !$0.isAbstract }
            let split = concrete.compactMap { member in counts[member.name].map { (name: member.name, objects: $0) } }
            let complete = split.count == concrete.count
            return EntityCount(name: entity.name, parent: entity.parentName, isAbstract: entity.isAbstract,
                               objects: complete ? split.reduce(0) { $0 + $1.objects } : nil,
                               own: entity.isAbstract ? 0 : counts[entity.name],
                               byEntity: members.count > 1 && complete ? split : [])
        }
    }

    /// Each concrete entity's own objects, in model order, in one read that stops at `timeLimit`: an entity missing
    /// from the result was not counted in time.
    static func ownObjects(of model: ManagedObjectModel, in store: CDStore, timeLimit: Duration) throws -> [String: Int] {
        try store.read { ctx in
            var counts: [String: Int] = [:]
            do {
                try ctx.withTimeLimit(timeLimit) {
                    for entity in model.entities where !entity.isAbstract {
                        counts[entity.name] = try ctx.count(entity.name, matching: Criteria.all.excludingSubentities())
                    }
                }
            } catch let error as CDStoreError where error.code == .interrupted {
                // What was counted stands; the page says which entities were not.
            }
            return counts
        }
    }
}
