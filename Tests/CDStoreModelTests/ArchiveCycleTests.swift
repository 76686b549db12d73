@testable import CDStoreModel
import CDStoreTestSupport
import Foundation
import Testing

/// A compiled model written object by object with ``KeyedArchiveBuilder``, so that a test can make any object
/// point anywhere: entities (named `entity:NAME`, so that one can refer to another before it is written),
/// their properties, and fetch request templates.
struct HandBuiltModel {
    var b = KeyedArchiveBuilder()
    private var entities: [(String, PropertyListValue)] = []
    private var requests: [(String, PropertyListValue)] = []

    static let attributeClasses = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
    static let relationshipClasses = ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"]

    /// The entity `name`, with its superentity's name and `properties` already written.
    @discardableResult
    mutating func entity(_ name: String, superentity: String? = nil, fields: [String: PropertyListValue] = [:],
                         properties: [(String, PropertyListValue)] = []) -> PropertyListValue {
        let entity = b.begin("entity:" + name)
        var f = fields
        f["NSEntityName"] = b.string(name)
        if let superentity { f["NSSuperentity"] = b.reference("entity:" + superentity) }
        var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
        for (key, value) in properties { entries.append((b.string(key), value)) }
        let dictionary = b.begin()
        b.endDictionary(dictionary, entries)
        f["NSProperties"] = dictionary
        b.end(entity, classes: ["NSEntityDescription", "NSObject"], f)
        entities.append((name, entity))
        return entity
    }

    /// A String attribute with extra `fields`, as `classes` (a derived attribute, …).
    mutating func attribute(_ name: String, classes: [String] = attributeClasses,
                            fields: [String: PropertyListValue] = [:]) -> PropertyListValue {
        var f = fields
        f["NSPropertyName"] = b.string(name)
        f["NSAttributeType"] = .int(700)
        return b.object(classes: classes, f)
    }

    /// A fetch request template of `entity` with `predicate`.
    mutating func fetchRequest(_ name: String, entity: String, predicate: PropertyListValue) {
        let entityRef = b.reference("entity:" + entity)
        let request = b.object(classes: ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"],
                               ["NSEntity": entityRef, "NSPredicate": predicate])
        requests.append((name, request))
    }

    /// A compound predicate started with `begin()` and finished over `subpredicates` (type 0 NOT, 1 AND, 2 OR).
    mutating func endCompound(_ predicate: PropertyListValue, type: Int64, _ subpredicates: [PropertyListValue]) {
        let list = b.array(subpredicates)
        b.end(predicate, classes: ["NSCompoundPredicate", "NSPredicate", "NSObject"],
              ["NSCompoundPredicateType": .int(type), "NSSubpredicates": list])
    }

    /// The `.mom` bytes.
    func data() throws -> Data {
        var b = self.b
        let root = b.begin()
        func dictionary(_ items: [(String, PropertyListValue)]) -> PropertyListValue {
            var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
            for (key, value) in items { entries.append((b.string(key), value)) }
            let dictionary = b.begin()
            b.endDictionary(dictionary, entries)
            return dictionary
        }
        var fields = ["NSEntities": dictionary(entities)]
        if !requests.isEmpty { fields["NSFetchRequestTemplates"] = dictionary(requests) }
        b.end(root, classes: ["NSManagedObjectModel", "NSObject"], fields)
        return try b.archive(root: root)
    }

    static let file = URL(fileURLWithPath: "/hand/Model.mom")

    /// Decodes the model, which must fail; returns the error.
    func failure(sourceLocation: SourceLocation = #_sourceLocation) throws -> ModelError {
        let bytes = try data()
        return try #require(throws: ModelError.self, sourceLocation: sourceLocation) {
            try CompiledModelLoader.decode(bytes, file: Self.file)
        }
    }

    func load() throws -> LoadedModel { try CompiledModelLoader.decode(try data(), file: Self.file) }
}

func index(_ value: PropertyListValue) -> Int {
    if case .uid(let n) = value { return n }
    return -1
}

/// Archives whose objects contain themselves or nest absurdly deep: each is a ``ModelError/Code/damagedArchive``
/// error naming the object by class and index, never a stack overflow.
@Suite("Archive cycles and depth")
struct ArchiveCycleTests {
    static let finding = Fixtures.root.appendingPathComponent("FuzzFindings/compiled-model-cyclic-predicate.mom")

    /// fuzz-compiled-model's finding: an NSCompoundPredicate among its own subpredicates, in a fetch request
    /// template. `model show` died with signal 11.
    @Test func theFuzzFindingIsADamagedArchive() throws {
        let bytes = try Data(contentsOf: Self.finding)
        let error = try #require(throws: ModelError.self) {
            try CompiledModelLoader.decode(bytes, file: URL(fileURLWithPath: "/fuzz/Model.mom"))
        }
        #expect(error == ModelError(.damagedArchive, "fetch request 'ObjectIDFetchRequest': NSCompoundPredicate #213 "
                                    + "contains itself", file: "/fuzz/Model.mom"))
        // The same archive as a store's model cache.
        let cached = try #require(throws: ModelError.self) {
            try ModelCacheDecoder.decode(try RawDeflate.deflate(bytes), file: URL(fileURLWithPath: "/s.sqlite#Z_MODELCACHE"))
        }
        #expect(cached.description == "/s.sqlite#Z_MODELCACHE: fetch request 'ObjectIDFetchRequest': "
                + "NSCompoundPredicate #213 contains itself")
        #expect(cached.code == .damagedArchive)
    }

    @Test func aPredicateContainingItself() throws {
        var m = HandBuiltModel()
        m.entity("Item")
        let p = m.b.begin()
        m.endCompound(p, type: 1, [p])
        m.fetchRequest("Loop", entity: "Item", predicate: p)
        #expect(try m.failure() == ModelError(.damagedArchive, "fetch request 'Loop': NSCompoundPredicate #\(index(p)) "
                                              + "contains itself", file: HandBuiltModel.file.path))
    }

    @Test func aPredicateContainingItselfThroughAnother() throws {
        var m = HandBuiltModel()
        m.entity("Item")
        let p = m.b.begin(), q = m.b.begin()
        m.endCompound(p, type: 2, [m.b.constantPredicate(true), q])
        m.endCompound(q, type: 0, [p])
        m.fetchRequest("Loop", entity: "Item", predicate: p)
        #expect(try m.failure().description == "/hand/Model.mom: fetch request 'Loop': NSCompoundPredicate #\(index(p)) "
                + "contains itself (through NSCompoundPredicate #\(index(q)))")
    }

    /// A derived attribute whose expression is `FUNCTION` of itself.
    @Test func anExpressionWhoseArgumentIsItself() throws {
        var m = HandBuiltModel()
        let f = m.b.begin()
        let arguments = m.b.array([f])
        m.b.end(f, classes: ["NSFunctionExpression", "NSExpression", "NSObject"],
                ["NSSelectorName": m.b.string("count:"), "NSArguments": arguments, "NSExpressionType": .int(4)])
        let total = m.attribute("total", classes: ["NSDerivedAttributeDescription"] + HandBuiltModel.attributeClasses,
                                fields: ["NSDerivationExpression": f])
        m.entity("Item", properties: [("total", total)])
        #expect(try m.failure() == ModelError(.damagedArchive, "NSFunctionExpression #\(index(f)) contains itself",
                                              file: HandBuiltModel.file.path, entity: "Item", property: "total"))
    }

    /// A validation predicate whose key path is applied to itself (its `NSOperand`): this path used to swallow
    /// every formatter error with `try?`.
    @Test func aKeyPathExpressionThatIsItsOwnOperand() throws {
        var m = HandBuiltModel()
        let k = m.b.begin()
        let specifier = m.b.object(classes: ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
                                   ["NSKeyPath": m.b.string("length")])
        let arguments = m.b.array([specifier])
        m.b.end(k, classes: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
                ["NSOperand": k, "NSArguments": arguments, "NSExpressionType": .int(3)])
        let predicate = m.b.comparisonPredicate(k, .greaterThanOrEqual, m.b.constantExpression(m.b.number(Int64(2))))
        let predicates = m.b.array([predicate])
        let name = m.attribute("name", fields: ["NSValidationPredicates": predicates])
        m.entity("Item", properties: [("name", name)])
        #expect(try m.failure() == ModelError(.damagedArchive, "NSKeyPathExpression #\(index(k)) contains itself",
                                              file: HandBuiltModel.file.path, entity: "Item", property: "name"))
    }

    @Test func anEntityThatIsItsOwnSuperentity() throws {
        var m = HandBuiltModel()
        let a = m.entity("A", superentity: "A")
        #expect(try m.failure() == ModelError(.damagedArchive, "NSEntityDescription #\(index(a)) is its own superentity",
                                              file: HandBuiltModel.file.path, entity: "A"))
    }

    @Test func aSuperentityChainThatLoops() throws {
        var m = HandBuiltModel()
        let a = m.entity("A", superentity: "B")
        let b = m.entity("B", superentity: "C")
        let c = m.entity("C", superentity: "A")
        #expect(try m.failure().description == "/hand/Model.mom: entity 'A': NSEntityDescription #\(index(a)) is its own "
                + "superentity (through NSEntityDescription #\(index(b)), NSEntityDescription #\(index(c)))")
    }

    @Test func aSuperentityChainLongerThanTheLimit() throws {
        var m = HandBuiltModel()
        m.entity("E0")
        for n in 1...300 { m.entity("E\(n)", superentity: "E\(n - 1)") }
        let error = try m.failure()
        #expect(error.code == .damagedArchive)
        #expect(error.message == "the superentity chain of NSEntityDescription #\(index(m.b.reference("entity:E256"))) "
                + "is longer than 256 entities")
        #expect(error.entity == "E256")
        // 256 levels are fine.
        var ok = HandBuiltModel()
        ok.entity("E0")
        for n in 1...255 { ok.entity("E\(n)", superentity: "E\(n - 1)") }
        #expect(try ok.load().model.entities.count == 256)
    }

    /// Relationships point at their inverses and back, so a loop through inverses is the normal case and nothing
    /// follows the chain further than one step. A chain r → s → t → r that never points back is what Core Data
    /// calls a one-sided inverse: it loads, and the validator reports each link (a warning where the inverse points back
    /// at the entity without naming the relationship, as real models have; an error where it points elsewhere).
    @Test func anInverseChainThatLoopsLoadsWithWarnings() throws {
        var m = HandBuiltModel()
        func relationship(_ name: String, of owner: String, to destination: String, inverse: String) -> PropertyListValue {
            let r = m.b.begin("rel:" + name)
            let fields: [String: PropertyListValue] = [
                "NSPropertyName": m.b.string(name), "NSDestinationEntity": m.b.reference("entity:" + destination),
                "NSInverseRelationship": m.b.reference("rel:" + inverse), "NSEntity": m.b.reference("entity:" + owner),
                "NSMaxCount": .int(1), "NSDeleteRule": .int(1),
            ]
            m.b.end(r, classes: HandBuiltModel.relationshipClasses, fields)
            return r
        }
        let r = relationship("r", of: "A", to: "B", inverse: "s")
        let s = relationship("s", of: "B", to: "A", inverse: "t")
        let t = relationship("t", of: "A", to: "A", inverse: "r")
        m.entity("A", properties: [("r", r), ("t", t)])
        m.entity("B", properties: [("s", s)])
        let loaded = try m.load()
        let inverses = loaded.model.entities.flatMap { e in
            e.relationships.map { "\(e.name).\($0.name) → \($0.inverseEntity ?? "-").\($0.inverseName ?? "-")" }
        }
        #expect(inverses == ["A.r → B.s", "A.t → A.r", "B.s → A.t"])
        let issues = ModelValidator.validate(loaded).map(\.description)
        #expect(issues == [
            "/hand/Model.mom: warning: entity 'A', property 'r': inverse 'B.s' does not point back (its inverse is 't')",
            "/hand/Model.mom: entity 'A', property 't': inverse 'A.r' is a relationship to 'B', not back to 'A'",
            "/hand/Model.mom: entity 'B', property 's': inverse 'A.t' is a relationship to 'A', not back to 'B'",
        ])
        #expect(VersionHasher.entityHashes(of: loaded.model).count == 2)
    }

    @Test func aUserInfoDictionaryContainingItself() throws {
        var m = HandBuiltModel()
        let info = m.b.begin()
        let key = m.b.string("me")
        m.b.endDictionary(info, [(key, info)], className: "NSMutableDictionary")
        m.entity("Item", fields: ["NSUserInfo": info])
        #expect(try m.failure() == ModelError(.damagedArchive, "NSMutableDictionary #\(index(info)) contains itself",
                                              file: HandBuiltModel.file.path, entity: "Item"))
    }

    /// A user-info value that is a container holding the user info, on an attribute.
    @Test func aUserInfoValueContainingTheUserInfo() throws {
        var m = HandBuiltModel()
        let info = m.b.begin(), list = m.b.begin()
        m.b.endArray(list, [info])
        m.b.endDictionary(info, [(m.b.string("list"), list), (m.b.string("plain"), m.b.string("text"))])
        let name = m.attribute("name", fields: ["NSUserInfo": info])
        m.entity("Item", properties: [("name", name)])
        #expect(try m.failure().description == "/hand/Model.mom: entity 'Item', property 'name': NSDictionary "
                + "#\(index(info)) contains itself (through NSArray #\(index(list)))")
    }

    /// A user-info container that does not loop is kept as before: strings, and "" for the container.
    @Test func aUserInfoContainerWithoutALoopStillLoads() throws {
        var m = HandBuiltModel()
        let list = m.b.array([m.b.string("x")])
        let info = m.b.begin()
        m.b.endDictionary(info, [(m.b.string("list"), list), (m.b.string("plain"), m.b.string("text"))])
        m.entity("Item", fields: ["NSUserInfo": info])
        #expect(try m.load().model.entities.first?.userInfo == ["list": "", "plain": "text"])
    }

    /// `NOT NOT … TRUEPREDICATE`, `count` levels, in a fetch request; returns the compound predicates outermost first.
    static func notChain(_ count: Int) -> (HandBuiltModel, [PropertyListValue]) {
        var m = HandBuiltModel()
        m.entity("Item")
        var chain: [PropertyListValue] = []
        for _ in 0..<count { chain.append(m.b.begin()) }
        let leaf = m.b.constantPredicate(true)
        for (n, p) in chain.enumerated() { m.endCompound(p, type: 0, [n + 1 < count ? chain[n + 1] : leaf]) }
        m.fetchRequest("Deep", entity: "Item", predicate: chain[0])
        return (m, chain)
    }

    @Test func predicatesNestedDeeperThanTheLimit() throws {
        // The fetch request is the first object on the path, so the 256th compound is one too many.
        let (m, chain) = Self.notChain(300)
        #expect(try m.failure() == ModelError(.damagedArchive, "fetch request 'Deep': NSCompoundPredicate "
                                              + "#\(index(chain[255])) is nested more than 256 objects deep",
                                              file: HandBuiltModel.file.path))
        // 254 compounds and the TRUEPREDICATE inside them fill the path.
        let (ok, _) = Self.notChain(254)
        let predicate = try #require(try ok.load().model.fetchRequests.first?.predicate)
        #expect(predicate == String(repeating: "NOT (", count: 253) + "NOT TRUEPREDICATE" + String(repeating: ")", count: 253))
    }

    /// Forty levels of `p AND p` where both are the same object: a few kilobytes that would print 2^40
    /// subpredicates. The walk counts visits and stops.
    @Test func exponentialSharingIsBounded() throws {
        var m = HandBuiltModel()
        m.entity("Item")
        var p = m.b.constantPredicate(true)
        for _ in 0..<40 { p = m.b.compoundPredicate(type: 1, [p, p]) }
        m.fetchRequest("Wide", entity: "Item", predicate: p)
        let error = try m.failure()
        #expect(error.code == .damagedArchive)
        let limit = (1 << 16) + 4 * (try KeyedArchive(data: try m.data())).objects.count
        #expect(error.message.hasPrefix("fetch request 'Wide': "))
        #expect(error.message.hasSuffix(" is one visit too many: the objects are shared so often that reading them "
                                        + "would take more than \(limit) visits"))
    }
}
