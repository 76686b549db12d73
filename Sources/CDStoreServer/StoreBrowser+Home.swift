import CDStore
import Foundation

extension StoreBrowser {
    /// `/`: where the store is, how it is read, its warnings, and every entity with its number of objects.
    func home(_ request: BrowseRequest) throws -> BrowseReply {
        let overview = try Overview(store)
        if request.wantsJSON {
            let entities: [ObjectValue] = overview.entities.map { entity in
                .dictionary([("name", .string(entity.name)), ("parent", entity.parent.map { .string($0) } ?? .null),
                             ("abstract", .bool(entity.isAbstract)), ("objects", .integer(Int64(entity.objects))),
                             ("own", .integer(Int64(entity.own))),
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
            body.text(ValueCells.grouped(entity.objects))
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
        var objects: Int
        var own: Int
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

    init(_ store: CDStore) throws {
        let info = try store.info()
        var warnings = store.warnings.map(\.description)
        if info.hashesChecked && !info.hashesMatch {
            let differing = info.entities.filter { !$0.hashMatches }.map(\.name)
            warnings.append("the model's entity hashes differ from the store's metadata for " + differing.joined(separator: ", "))
        }
        let counts = Dictionary(info.entities.map { ($0.name, $0.objects) }, uniquingKeysWith: { a, _ in a })
        path = store.path
        uuid = info.uuid
        journalMode = info.journalMode
        kind = info.kind.description
        modelSource = info.modelSource.rawValue
        versionIdentifiers = info.versionIdentifiers
        hasPersistentHistory = info.kind.persistentHistory
        isReadOnly = store.isReadOnly
        self.warnings = warnings
        let model = store.model
        entities = model.entities.map { entity in
            let members = model.subtree(of: entity)
            let split = members.filter { !$0.isAbstract }.map { (name: $0.name, objects: counts[$0.name] ?? 0) }
            return EntityCount(name: entity.name, parent: entity.parentName, isAbstract: entity.isAbstract,
                               objects: split.reduce(0) { $0 + $1.objects }, own: counts[entity.name] ?? 0,
                               byEntity: members.count > 1 ? split : [])
        }
    }
}
