import CDStore
import Foundation

/// Which property names an entity's objects in links: a person reads `R&D` where a key reads `Department/p3`.
///
/// Per entity, in order: the property `--label Entity=property` gives (for its sub-entities too, unless they
/// have one of their own); the attribute of the entity's first uniqueness constraint; a String attribute whose
/// name says it names the object (`name`, `title`, … then `…Name`, `…Title`); the first String attribute.
/// Entities with none of these are named by key.
struct LabelRules: Sendable {
    /// Attribute names that name an object, best first.
    static let nameLike = ["name", "title", "displayname", "fullname", "label", "subject", "headline", "caption",
                           "username", "nickname", "identifier", "code"]
    /// Characters of a label shown before it is cut.
    static let maximumLength = 60

    /// The label attribute of each entity that has one.
    let properties: [String: String]

    init(model: ManagedObjectModel, overrides: [String: String] = [:]) {
        var properties: [String: String] = [:]
        for entity in model.entities {
            let lineage = [entity] + model.ancestors(of: entity)
            if let given = lineage.lazy.compactMap({ overrides[$0.name] }).first {
                properties[entity.name] = given
            } else if let chosen = Self.choose(entity, lineage: lineage, model: model) {
                properties[entity.name] = chosen
            }
        }
        self.properties = properties
    }

    private static func choose(_ entity: Entity, lineage: [Entity], model: ManagedObjectModel) -> String? {
        let attributes = model.attributes(of: entity).filter { !$0.isTransient }
        let names = Set(attributes.map(\.name))
        for constraint in lineage.flatMap(\.uniquenessConstraints) {
            if let first = constraint.first(where: names.contains) { return first }
        }
        let strings = attributes.filter { $0.type == .string }
        for wanted in nameLike {
            if let found = strings.first(where: { $0.name.lowercased() == wanted }) { return found.name }
        }
        if let found = strings.first(where: { $0.name.lowercased().hasSuffix("name") || $0.name.lowercased().hasSuffix("title") }) {
            return found.name
        }
        return strings.first?.name
    }

    /// The label of an object of `entity` whose label attribute holds `value`: text as it is (cut short), other
    /// values after the entity's name (`Employee 7`); nil for no value.
    static func text(_ value: ObjectValue?, entity: String) -> String? {
        guard let value, value != .null else { return nil }
        var text = value.plainText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        if case .string = value {} else { text = entity + " " + text }
        return text.count > maximumLength ? String(text.prefix(maximumLength - 1)) + "…" : text
    }

    /// The label of an object read whole.
    func label(of object: StoredObject) -> String? {
        properties[object.entity].flatMap { Self.text(object.value(forKey: $0), entity: object.entity) }
    }
}

/// The labels of objects named by ID, read a batch per entity.
struct Labels {
    private var known: [ObjectID: String] = [:]

    subscript(id: ObjectID) -> String? { known[id] }

    /// Reads the labels of `ids` in `ctx`: one projection per entity (and hundred objects), of the ID and the label.
    mutating func read(_ ids: some Sequence<ObjectID>, rules: LabelRules, in ctx: CDStore.Context) throws {
        var keysByEntity: [String: Set<Int64>] = [:]
        for id in ids where known[id] == nil && rules.properties[id.entity] != nil {
            keysByEntity[id.entity, default: []].insert(id.primaryKey)
        }
        for (entity, keys) in keysByEntity {
            guard let property = rules.properties[entity] else { continue }
            let storeUUID = ctx.owner.storeUUID
            for chunk in Array(keys).sorted().chunked(by: 100) {
                // Objects are picked by ID (`SELF == "x-coredata://…"`), found through the primary key.
                let criteria = Criteria.or(chunk.map { .equal("SELF", ObjectID(storeUUID: storeUUID, entity: entity, primaryKey: $0).description) })
                    .excludingSubentities()
                try ctx.forEachProjection(entity, ["SELF AS id", "\(property) AS label"], matching: criteria) { row in
                    guard let id = ObjectID(objectValue: row.value(forKey: "id") ?? .null),
                          let text = LabelRules.text(row.value(forKey: "label"), entity: entity) else { return }
                    known[id] = text
                }
            }
        }
    }

    /// Link text for an object: its label, else `Entity/p<PK>`.
    func linkText(_ id: ObjectID) -> String {
        known[id] ?? "\(id.entity)/p\(id.primaryKey)"
    }
}

extension Array {
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
