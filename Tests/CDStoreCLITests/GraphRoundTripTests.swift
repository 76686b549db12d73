import CDStoreModel
import CDStoreEngine
import CDStoreTestSupport
import Foundation
import Testing

/// Generates a valid object graph for any model: `perEntity` objects per concrete entity, a value of the right
/// type for each attribute (within its min/max, unique so that uniqueness constraints hold), and random
/// relationships that respect inverses, required relationships and counts where possible. Each relationship pair
/// is generated from one side only (import keeps the inverse consistent). Entities whose rules make generation
/// hard (a required attribute with a regular expression or of a type with no input form, a uniqueness constraint
/// on relationships only) are skipped, with relationships to them.
struct GraphGenerator {
    let model: ManagedObjectModel
    let perEntity: Int
    var rng: SeededGenerator
    let uuid = "11111111-2222-3333-4444-555555555555"
    private(set) var skipped: [String] = []
    private var counter: Int64 = 0
    /// Object IDs of every concrete entity's objects.
    private(set) var objects: [String: [String]] = [:]
    /// Fields of every object, by object ID.
    private var fields: [String: [(String, InputValue)]] = [:]
    /// The relationship values generated, for checking the export: object ID → relationship → targets.
    private(set) var generated: [String: [String: [String]]] = [:]

    init(model: ManagedObjectModel, perEntity: Int, seed: UInt64) {
        self.model = model
        self.perEntity = perEntity
        self.rng = SeededGenerator(state: seed)
    }

    mutating func document() -> GraphDocument {
        let concrete = model.entities.filter { !$0.isAbstract && skipReason($0) == nil }
        skipped = model.entities.filter { !$0.isAbstract }.compactMap { entity in skipReason(entity).map { "\(entity.name) (\($0))" } }
        var nextPK: [String: Int64] = [:]
        for entity in concrete {
            let root = model.root(of: entity).name
            for _ in 0..<perEntity {
                nextPK[root, default: 0] += 1
                let id = "x-coredata://\(uuid)/\(entity.name)/p\(nextPK[root]!)"
                objects[entity.name, default: []].append(id)
                fields[id] = [("_id", .string(id))] + model.attributes(of: entity).compactMap { attribute in
                    value(for: attribute).map { (attribute.name, $0) }
                }
            }
        }
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                generate(relationship, declaredBy: entity)
            }
        }
        return GraphDocument(entities: concrete.map { entity in
            (entity.name, objects[entity.name, default: []].map { InputRecord(fields: fields[$0]!) })
        })
    }

    private func skipReason(_ entity: Entity) -> String? {
        for attribute in model.attributes(of: entity) where !attribute.isOptional && !attribute.isTransient && !attribute.isDerived {
            if attribute.regularExpression != nil && attribute.defaultValue == nil { return "required \(attribute.name) has a regular expression" }
            if [.undefined, .objectID, .composite].contains(attribute.type) { return "required \(attribute.name) of type \(attribute.type.rawValue)" }
        }
        for constraint in model.ancestors(of: entity).flatMap(\.uniquenessConstraints) + entity.uniquenessConstraints
        where constraint.allSatisfy({ model.attribute($0, of: entity) == nil }) {
            return "uniqueness constraint on relationships only"
        }
        return nil
    }

    /// Concrete objects of `entity` and its sub-entities.
    private func objects(of entityName: String) -> [String] {
        guard let entity = model.entity(named: entityName) else { return [] }
        return model.subtree(of: entity).flatMap { objects[$0.name] ?? [] }
    }

    private mutating func value(for attribute: Attribute) -> InputValue? {
        if attribute.isTransient || attribute.isDerived { return nil }
        if attribute.isOptional && Int.random(in: 0..<5, using: &rng) == 0 { return .null }
        if attribute.regularExpression != nil { return attribute.isOptional ? .null : nil }
        counter += 1
        let k = counter
        func integer(_ limit: Int64) -> InputValue {
            let low = attribute.minValue.flatMap { Int64($0) } ?? 0
            let high = min(attribute.maxValue.flatMap { Int64($0) } ?? limit, limit)
            return .integer(low + k % max(1, high - low + 1))
        }
        func real() -> InputValue {
            let low = attribute.minValue.flatMap { Double($0) } ?? 0
            let high = attribute.maxValue.flatMap { Double($0) } ?? 1e6
            return .double(low + (Double(k % 1000) + 0.25) / 1000 * (high - low))
        }
        switch attribute.type {
        case .integer16: return integer(Int64(Int16.max))
        case .integer32: return integer(Int64(Int32.max))
        case .integer64: return integer(Int64.max / 2)
        case .decimal, .double: return real()
        case .float: return attribute.minValue == nil && attribute.maxValue == nil ? .double(Double(k) + 0.5) : real()
        case .string:
            var text = "s\(k)-\(["a", "é", "日本", "x y"][Int(k % 4)])"
            let minLength = attribute.minValue.flatMap { Int($0) } ?? 0
            let maxLength = attribute.maxValue.flatMap { Int($0) } ?? 1000
            while text.count < minLength { text += "z" }
            if text.count > maxLength { text = String(text.suffix(maxLength)) }
            return .string(text)
        case .boolean: return .bool(k % 2 == 0)
        case .date:
            let low = attribute.minDateTimeInterval ?? 0
            let high = attribute.maxDateTimeInterval ?? 800_000_000
            return .double((low + Double(k % 997) / 997 * (high - low)).rounded())
        case .binary, .transformable:
            return .string(Data((0..<(k % 7 + 1)).map { UInt8(truncatingIfNeeded: $0 * 37 + k) }).base64EncodedString())
        case .uuid: return .string(String(format: "00000000-0000-4000-8000-%012llX", k))
        case .uri: return .string("https://example.com/item/\(k)")
        default: return attribute.isOptional ? .null : nil
        }
    }

    private mutating func pick(_ pool: [String], _ count: Int) -> [String] {
        Array(pool.shuffled(using: &rng).prefix(count))
    }

    private mutating func set(_ source: String, _ relationship: Relationship, _ targets: [String]) {
        generated[source, default: [:]][relationship.name] = targets
        let value: InputValue = relationship.isToMany ? .array(targets.map { .string($0) }) : (targets.first.map { .string($0) } ?? .null)
        fields[source]!.append((relationship.name, value))
    }

    /// Generates `relationship` of `entity` (its declaring entity) unless its inverse's side does.
    private mutating func generate(_ relationship: Relationship, declaredBy entity: Entity) {
        let sources = objects(of: entity.name)
        let targets = objects(of: relationship.destination)
        let inverse = model.inverse(of: relationship)
        let key = "\(entity.name).\(relationship.name)"
        let inverseKey = inverse.map { "\(relationship.destination).\($0.name)" }
        guard !sources.isEmpty else { return }
        let upper = { (r: Relationship) in r.maxCount > 0 ? r.maxCount : 4 }
        switch (relationship.isToMany, inverse?.isToMany) {
        case (false, true?):
            return  // the to-many side hands out its objects
        case (false, nil):
            for source in sources {
                let optionalEmpty = relationship.isOptional && Int.random(in: 0..<4, using: &rng) == 0
                set(source, relationship, optionalEmpty ? [] : pick(targets, 1))
            }
        case (false, false?):
            // One-to-one: pairs, each object in at most one; generated from the side named first.
            guard let inverseKey, key <= inverseKey else { return }
            var pool = targets.shuffled(using: &rng)
            for source in sources.shuffled(using: &rng) {
                let required = !relationship.isOptional || !(inverse?.isOptional ?? true)
                if pool.isEmpty || (!required && Int.random(in: 0..<4, using: &rng) == 0) { continue }
                let target = pool.removeFirst()
                if target == source { continue }
                set(source, relationship, [target])
            }
        case (true, false?), (true, nil):
            // Each target belongs to at most one source (the inverse to-one, or the hidden to-one).
            var lists: [String: [String]] = Dictionary(uniqueKeysWithValues: sources.map { ($0, []) })
            let targetRequired = !(inverse?.isOptional ?? true)
            let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
            var pool = targets.shuffled(using: &rng)
            // First the minimums, then the rest at random.
            for source in sources where minimum > 0 {
                while lists[source]!.count < minimum, let target = pool.popLast() { lists[source]!.append(target) }
            }
            for target in pool where targetRequired || Int.random(in: 0..<5, using: &rng) > 0 {
                let open = sources.filter { lists[$0]!.count < upper(relationship) }
                guard let source = open.randomElement(using: &rng) else { break }
                lists[source]!.append(target)
            }
            for source in sources { set(source, relationship, lists[source]!) }
        case (true, true?):
            guard let inverse, let inverseKey, key <= inverseKey else { return }
            var lists: [String: [String]] = [:]
            for source in sources {
                let low = max(relationship.minCount, relationship.isOptional ? 0 : 1)
                let count = Int.random(in: low...max(low, min(upper(relationship), targets.count)), using: &rng)
                lists[source] = pick(targets.filter { $0 != source || key != inverseKey }, count)
            }
            if key == inverseKey {
                // Reflexive: symmetric, so generate each pair once (from the first object) and let import mirror it.
                var seen: Set<[String]> = []
                for source in sources {
                    lists[source] = lists[source]!.filter { seen.insert([source, $0].sorted()).inserted }
                }
            }
            // Objects the inverse requires to have a partner get one.
            if !inverse.isOptional || inverse.minCount > 0 {
                for target in targets where !lists.values.contains(where: { $0.contains(target) }) {
                    if let source = sources.first(where: { $0 != target }) { lists[source]!.append(target) }
                }
            }
            for source in sources { set(source, relationship, lists[source]!) }
        }
    }
}

/// `export` of the whole graph, `import` into an empty store, `export` again: the same document.
@Suite("Graph export/import round trip with generated data")
struct GraphRoundTripTests {
    static let corpusModels = [
        "bignerdranch__CoreDataStack__Sample.xcdatamodeld",
        "contentful__contentful-persistence.swift__Test.xcdatamodeld",
        "rileytestut__Delta__Delta.xcdatamodeld",
        "artsy__energy__ArtsyPartner.xcdatamodeld",
        "SwiftGen__SwiftGen__Model.xcdatamodeld",
        "gonzalezreal__Groot__Model.xcdatamodeld",
        "altstoreio__AltStore__AltStore.xcdatamodeld",
        "project-imas__encrypted-core-data__SubEntitiesModel.xcdatamodeld",
    ]

    static var modelPaths: [String] {
        [Corpus.schemas.appendingPathComponent("Organization.xcdatamodeld").path]
            + corpusModels.map { Corpus.models.appendingPathComponent($0).path }
    }

    @Test("export → import into an empty store → export gives the same graph", arguments: modelPaths)
    func roundTrip(_ modelPath: String) throws {
        let model = try ModelLoader.load(modelPath).model
        var generator = GraphGenerator(model: model, perEntity: 6, seed: 0xC0FFEE)
        let document = generator.document()
        let box = try Sandbox(model: modelPath)
        let created: Int
        do {
            let store = try Store.open(at: box.store, model: model)
            created = try store.importGraph(document)
        }
        #expect(created == document.entities.reduce(0) { $0 + $1.records.count })
        if !generator.skipped.isEmpty {
            print("\((modelPath as NSString).lastPathComponent): skipped \(generator.skipped.joined(separator: "; "))")
        }
        let first = try box.ok(["export", "--output", box.path("first.json")])
        #expect(first == "exported \(created) \(created == 1 ? "object" : "objects") to \(box.path("first.json"))\n")
        let exported = try String(contentsOfFile: box.path("first.json"), encoding: .utf8)
        #expect(try box.ok(["import", box.path("first.json")], store: box.path("copy.sqlite")) == "imported \(created) \(created == 1 ? "object" : "objects")\n")
        try box.ok(["export", "--output", box.path("second.json")], store: box.path("copy.sqlite"))
        let again = try String(contentsOfFile: box.path("second.json"), encoding: .utf8)
        let a = Sandbox.anonymized(exported), b = Sandbox.anonymized(again)
        #expect(a == b)
        if a != b {
            let (la, lb) = (a.split(separator: "\n"), b.split(separator: "\n"))
            if let index = Array(zip(la, lb)).firstIndex(where: { $0.0 != $0.1 }) {
                Issue.record("first difference:\n\(la[index])\n\(lb[index])")
            }
        }
        // The generated relationships are in the export (ordered ones in their order, others as sets).
        try checkGenerated(generator, model: model, export: a)
    }

    private func checkGenerated(_ generator: GraphGenerator, model: ManagedObjectModel, export: String) throws {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: Any])
        let entities = try #require(root["entities"] as? [String: [[String: Any]]])
        var byID: [String: [String: Any]] = [:]
        for objects in entities.values {
            for object in objects { byID[(object["_id"] as? String ?? "").replacingOccurrences(of: "<store-uuid>", with: generator.uuid)] = object }
        }
        var checked = 0
        for (source, relationships) in generator.generated {
            guard let object = byID[source] else { Issue.record("\(source) not exported"); continue }
            let entity = try #require(model.entity(named: String(source.split(separator: "/")[2])))
            for (name, targets) in relationships {
                let relationship = try #require(model.relationship(name, of: entity))
                let value = object[name]
                let actual: [String] = ((value as? [String]) ?? (value as? String).map { [$0] } ?? [])
                    .map { $0.replacingOccurrences(of: "<store-uuid>", with: generator.uuid) }
                if model.inverse(of: relationship).map({ $0.name == name && $0.destination == relationship.destination }) == true {
                    // Reflexive: the pairs other objects generated show here too.
                    #expect(Set(targets).isSubset(of: Set(actual)), "\(source).\(name)")
                } else if relationship.isOrdered {
                    #expect(actual == targets, "\(source).\(name)")
                } else {
                    #expect(Set(actual) == Set(targets), "\(source).\(name)")
                }
                checked += 1
            }
        }
        #expect(checked > 0)
    }
}
