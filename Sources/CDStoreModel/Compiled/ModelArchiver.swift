import Foundation

/// Writes a ``ManagedObjectModel`` as the NSKeyedArchiver archive of `NSManagedObjectModel` that Core Data
/// keeps in a store's `Z_MODELCACHE` (coredata-format.md §1.2, §4.3–4.4) — the inverse of the decoder behind
/// ``ModelCacheDecoder`` and ``CompiledModelLoader``.
///
/// What the archive holds follows the caches Apple wrote into the corpus stores (CartStorage_v1, TestModel,
/// contentful's Test, CartKitSwiftData_v1) and, for features none of them use, SwiftGen's compiled
/// `Model 2.mom`, whose classes and keys are the same:
/// - `NSManagedObjectModel {NSEntities, NSFetchRequestTemplates, NSVersionIdentifiers[, NSConfigurations]}`;
///   `NSEntities` is an `NSKnownKeysDictionary1` (keys sorted by name), as in every cache (a `.mom` has an
///   `NSMutableDictionary`); no `CDMCompiler…` keys, which only momc writes;
/// - `NSEntityDescription` with `NSSubentities` (an empty dictionary when there are none) and `NSUserInfo`
///   always, `NSIsAbstract` only when set, `NSUniqueTuples`, `NSFetchIndexDescriptions` and `NSCompoundIndexes`
///   only when the entity has such (momc writes the last two together);
/// - `NSClassNameForEntity` nil for an entity without a class name, as in the SwiftData store's cache;
/// - properties with `_P` (see `propertyFlags`), the `NSIs…` booleans only when true,
///   `NSUserInfo`/`NSVersionHashModifier`/`NSValidation…` only when present, and the renaming identifier always
///   (the name when not renamed); limits as `NSFlagsKey` with `NSMinValueName`/`NSMaxValueName`, a pattern as the
///   validation predicate `SELF MATCHES "…"` (warning 1680). `NSIsIndexed` is the model's own flag: momc also sets
///   it on an attribute a one-element fetch index covers, which would give a store laid out from the cache an
///   index the model does not have.
///
/// Checked value by value against the corpus: the caches of CartStorage_v1 and contentful's Test equal the
/// archives of their model versions but for the order of property dictionaries (Apple's hash order), and so
/// does SwiftGen's `Model 2.mom` but for that `NSIsIndexed` (tests: `ModelArchiverAppleCacheTests`).
///
/// Inherited properties: a cache lists a sub-entity's inherited properties in its `NSProperties` too, either as
/// `_NSPropertyDescriptionProxy` objects or as full copies (§1.2; the corpus stores have no sub-entities).
/// Copies are written — ordinary property classes any Core Data can unarchive — with `NSEntity` naming the
/// sub-entity; an inverse or a fetch request that names an inherited property points at the copy.
///
/// Property dictionaries are written in name order (UTF-16 code units), inherited properties included, so the
/// property order a reader takes from the archive is the name order a model read from XML gets: a store laid
/// out from the decoded cache has the same tables and columns as one laid out from the original model.
///
/// Predicates and expressions (fetch request templates, fetched properties, derived attributes, partial
/// indexes, expression index elements) are text in cdstore's model; ``PredicateArchiving`` turns them into
/// archived objects. A derivation is archived in the form Core Data hashes
/// (``VersionHasher/canonicalDerivation(_:)``: `items.@count` becomes `count:(items)`, as momc writes it).
///
/// Not archived, because cdstore's model does not hold them or its decoder does not read them: Spotlight
/// display-name expressions, sort descriptors and other fetch request settings beyond result type, limits,
/// batch size and the Boolean flags, a configuration's CloudKit flag and defaults of Transformable and ObjectID attributes. The object numbering differs from
/// Foundation's (strings are shared by value, not by identity); readers only follow UIDs.
///
/// Core Data equivalent: `NSKeyedArchiver.archivedData(withRootObject: model)`.
package enum ModelArchiver {
    /// An archive and what could not be put in it.
    package struct Result: Sendable {
        /// The `bplist00` bytes of the keyed archive.
        package var data: Data
        /// Settings left out, one sentence each naming the entity and property (e.g. a default value that is not
        /// a number of the attribute's type).
        package var warnings: [String]
    }

    /// Archives `model`. `predicates` archives predicate and expression text; without it a model holding any
    /// is refused. Throws ``ModelError`` (`unsupportedFormat`, naming the entity and property) for a
    /// predicate or expression that cannot be archived.
    package static func archive(_ model: ManagedObjectModel, predicates: (any PredicateArchiving)? = nil) throws -> Result {
        var context = Context(model: model, predicates: predicates)
        let root = try context.archiveModel()
        let data: Data
        do {
            data = try context.builder.archive(root: root)
        } catch let failure as KeyedArchiveBuilder.Failure {
            throw ModelError(.unsupportedFormat, "cannot archive the model: \(failure.description)")
        }
        return Result(data: data, warnings: context.warnings)
    }

    /// The `_P` summary of a property's flags (coredata-format.md §4.4): 1 always, 2 optional, 4 read-only,
    /// 8 transient, 0x10 no validation predicates, 0x20 no validation warnings, 0x40 no userInfo, 0x80 no
    /// version hash modifier, 0x100 Spotlight, 0x200 stored in truth, 0x400 ordered, 0x800 cloud-encrypted.
    /// A plain optional attribute gives 243, as in every cache.
    package static func propertyFlags(optional: Bool, readOnly: Bool, transient: Bool, ordered: Bool = false,
                                     spotlight: Bool = false, truth: Bool = false, cloudEncrypted: Bool = false,
                                     hasValidation: Bool = false, hasUserInfo: Bool = false,
                                     hasVersionHashModifier: Bool = false) -> Int64 {
        var p: Int64 = 1
        if optional { p |= 2 }
        if readOnly { p |= 4 }
        if transient { p |= 8 }
        if !hasValidation { p |= 0x10 | 0x20 }
        if !hasUserInfo { p |= 0x40 }
        if !hasVersionHashModifier { p |= 0x80 }
        if spotlight { p |= 0x100 }
        if truth { p |= 0x200 }
        if ordered { p |= 0x400 }
        if cloudEncrypted { p |= 0x800 }
        return p
    }

    /// The empty-slot marker of `NSKnownKeysDictionary1`, as every cache writes it.
    static let emptySlotToken = "__empty_slot_token_4c24_98dc_ac1e_b773__"

    /// The archiving of one model: the builder and what the entities look like with inheritance resolved.
    struct Context {
        let model: ManagedObjectModel
        let predicates: (any PredicateArchiving)?
        var builder = KeyedArchiveBuilder()
        var warnings: [String] = []
        /// Entities in name order (UTF-16), the order of `NSEntities`.
        let entities: [Entity]

        init(model: ManagedObjectModel, predicates: (any PredicateArchiving)?) {
            self.model = model
            self.predicates = predicates
            entities = model.entities.sorted { utf16Order($0.name, $1.name) }
        }

        static func entityIdentity(_ name: String) -> String { "entity " + name }
        static func propertyIdentity(_ entity: String, _ property: String) -> String { "property \(entity).\(property)" }

        /// The UID of entity `name`, or `$null` when the model has no such entity.
        mutating func referenceToEntity(_ name: String) -> PropertyListValue {
            guard model.entity(named: name) != nil else { return KeyedArchiveBuilder.null }
            return builder.reference(Self.entityIdentity(name))
        }

        // MARK: Model

        mutating func archiveModel() throws -> PropertyListValue {
            let root = builder.begin("model")
            var fields: [String: PropertyListValue] = [:]
            fields["NSEntities"] = try knownKeysEntities()
            fields["NSFetchRequestTemplates"] = try fetchRequestTemplates()
            let identifiers = model.versionIdentifiers.sorted(by: utf16Order).map { builder.string($0) }
            fields["NSVersionIdentifiers"] = builder.object(classes: ["NSSet", "NSObject"], ["NS.objects": .array(identifiers)])
            if !model.configurations.isEmpty { fields["NSConfigurations"] = configurations() }
            builder.end(root, classes: ["NSManagedObjectModel", "NSObject"], fields)
            return root
        }

        /// `NSEntities`: `NSKnownKeysDictionary1 {searchMapping: NSKnownKeysMappingStrategy1 {keys, length,
        /// version}, emptyToken, values, version}`, keys and values in entity-name order.
        mutating func knownKeysEntities() throws -> PropertyListValue {
            let dictionary = builder.begin()
            let mapping = builder.begin()
            let names = entities.map { builder.string($0.name) }
            let keys = builder.array(names)
            builder.end(mapping, classes: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"],
                       ["keys": keys, "length": .int(Int64(entities.count)), "version": .int(1)])
            let token = builder.string(ModelArchiver.emptySlotToken)
            let values = builder.begin()
            var written: [PropertyListValue] = []
            for entity in entities { written.append(try archiveEntity(entity)) }
            builder.endArray(values, written)
            builder.end(dictionary, classes: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary",
                                             "NSDictionary", "NSObject"],
                       ["searchMapping": mapping, "emptyToken": token, "values": values, "version": .int(1)])
            return dictionary
        }

        mutating func fetchRequestTemplates() throws -> PropertyListValue {
            guard !model.fetchRequests.isEmpty else { return KeyedArchiveBuilder.null }
            let dictionary = builder.begin()
            var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
            for request in model.fetchRequests.sorted(by: { utf16Order($0.name, $1.name) }) {
                let key = builder.string(request.name)
                entries.append((key, try fetchRequest(request, place: (request.entity, nil, "fetch request '\(request.name)'"))))
            }
            builder.endDictionary(dictionary, entries, className: "NSMutableDictionary")
            return dictionary
        }

        /// `NSConfigurations`: name → NSSet of the member entities.
        mutating func configurations() -> PropertyListValue {
            let dictionary = builder.begin()
            var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
            for configuration in model.configurations.sorted(by: { utf16Order($0.name, $1.name) }) {
                let key = builder.string(configuration.name)
                let members = configuration.entities.sorted(by: utf16Order).filter { model.entity(named: $0) != nil }
                    .map { referenceToEntity($0) }
                entries.append((key, builder.object(classes: ["NSSet", "NSObject"], ["NS.objects": .array(members)])))
            }
            builder.endDictionary(dictionary, entries, className: "NSMutableDictionary")
            return dictionary
        }

        // MARK: Entities

        mutating func archiveEntity(_ entity: Entity) throws -> PropertyListValue {
            let me = builder.begin(Self.entityIdentity(entity.name))
            var f: [String: PropertyListValue] = [:]
            f["NSEntityName"] = builder.string(entity.name)
            f["NSClassNameForEntity"] = builder.string(optional: entity.className)
            let subentities = builder.begin()
            var subentries: [(key: PropertyListValue, value: PropertyListValue)] = []
            for name in model.subentities(of: entity).map(\.name).sorted(by: utf16Order) {
                subentries.append((builder.string(name), referenceToEntity(name)))
            }
            builder.endDictionary(subentities, subentries, className: "NSMutableDictionary")
            f["NSSubentities"] = subentities
            let properties = builder.begin()
            var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
            for property in allProperties(of: entity) {
                let key = builder.string(property.name)
                entries.append((key, try archiveProperty(property, of: entity, entityReference: me)))
            }
            builder.endDictionary(properties, entries, className: "NSMutableDictionary")
            f["NSProperties"] = properties
            f["NSSuperentity"] = model.parent(of: entity).map { referenceToEntity($0.name) } ?? KeyedArchiveBuilder.null
            f["NSManagedObjectModel"] = builder.reference("model")
            f["NSUserInfo"] = builder.stringDictionary(entity.userInfo)
            f["NSVersionHashModifier"] = builder.string(optional: entity.versionHashModifier)
            f["NSRenamingIdentifier"] = builder.string(entity.renamingIdentifier ?? entity.name)
            if entity.isAbstract { f["NSIsAbstract"] = .bool(true) }
            if !entity.uniquenessConstraints.isEmpty {
                let tuples = builder.begin()
                var written: [PropertyListValue] = []
                for tuple in entity.uniquenessConstraints {
                    let names = tuple.map { builder.string($0) }
                    written.append(builder.array(names, className: "NSMutableArray"))
                }
                builder.endArray(tuples, written, className: "NSMutableArray")
                f["NSUniqueTuples"] = tuples
            }
            if !entity.fetchIndexes.isEmpty || !entity.compoundIndexes.isEmpty {
                let indexes = builder.begin()
                var written: [PropertyListValue] = []
                for index in entity.fetchIndexes { written.append(try fetchIndex(index, of: entity, entityReference: me)) }
                builder.endArray(indexes, written, className: "NSMutableArray")
                f["NSFetchIndexDescriptions"] = indexes
                let compound = builder.begin()
                var lists: [PropertyListValue] = []
                for names in entity.compoundIndexes {
                    let strings = names.map { builder.string($0) }
                    lists.append(builder.array(strings))
                }
                builder.endArray(compound, lists, className: "NSMutableArray")
                f["NSCompoundIndexes"] = compound
            }
            builder.end(me, classes: ["NSEntityDescription", "NSObject"], f)
            return me
        }

        /// Every property of `entity` — inherited ones (as copies) and its own — in name order.
        func allProperties(of entity: Entity) -> [ModelProperty] {
            var byName: [String: ModelProperty] = [:]
            for owner in model.ancestors(of: entity).reversed() + [entity] {
                for a in owner.attributes { byName[a.name] = .attribute(a) }
                for r in owner.relationships { byName[r.name] = .relationship(r) }
                for p in owner.fetchedProperties { byName[p.name] = .fetched(p) }
            }
            return byName.keys.sorted(by: utf16Order).map { byName[$0]! }
        }

        /// An `NSFetchIndexDescription {NSIndexName, NSIndexElements, NSPartialIndexPredicate, NSEntity}` with its
        /// `NSFetchIndexElementDescription {NSPropertyName, NSFetchIndexElementType, NSAscending,
        /// NSFetchIndexDescription}` elements; an element over an expression has `NSExpression` instead of a name.
        mutating func fetchIndex(_ index: FetchIndex, of entity: Entity, entityReference: PropertyListValue) throws -> PropertyListValue {
            let me = builder.begin()
            let place: Place = (entity.name, nil, "fetch index '\(index.name)'")
            var f: [String: PropertyListValue] = ["NSIndexName": builder.string(index.name)]
            let elements = builder.begin()
            var written: [PropertyListValue] = []
            for element in index.elements {
                let object = builder.begin()
                var e: [String: PropertyListValue] = [:]
                if let property = element.property {
                    e["NSPropertyName"] = builder.string(property)
                } else if let expression = element.expression {
                    e["NSExpression"] = try archiveExpression(expression, place: place)
                }
                e["NSFetchIndexElementType"] = .int(element.type == "RTree" ? 1 : 0)
                e["NSAscending"] = .bool(element.isAscending)
                e["NSFetchIndexDescription"] = me
                builder.end(object, classes: ["NSFetchIndexElementDescription", "NSObject"], e)
                written.append(object)
            }
            builder.endArray(elements, written)
            f["NSIndexElements"] = elements
            f["NSPartialIndexPredicate"] = try index.partialIndexPredicate.map { try archivePredicate($0, place: place) }
                ?? KeyedArchiveBuilder.null
            f["NSEntity"] = entityReference
            builder.end(me, classes: ["NSFetchIndexDescription", "NSObject"], f)
            return me
        }

        // MARK: Predicates

        /// Where a predicate sits, for errors: entity, property, and what it is.
        typealias Place = (entity: String, property: String?, what: String)

        mutating func archivePredicate(_ text: String, place: Place) throws -> PropertyListValue {
            try withPredicates(place) { archiver, builder in try archiver.archivePredicate(text, into: &builder) }
        }

        mutating func archiveExpression(_ text: String, place: Place) throws -> PropertyListValue {
            try withPredicates(place) { archiver, builder in try archiver.archiveExpression(text, into: &builder) }
        }

        private mutating func withPredicates(_ place: Place,
                                             _ body: (any PredicateArchiving, inout KeyedArchiveBuilder) throws -> PropertyListValue)
            throws -> PropertyListValue {
            let entity = place.entity.isEmpty ? nil : place.entity
            guard let predicates else {
                throw ModelError(.unsupportedFormat, "\(place.what): no predicate archiver was given", entity: entity,
                                 property: place.property)
            }
            do {
                return try body(predicates, &builder)
            } catch let error as ModelError {
                throw error
            } catch {
                throw ModelError(.unsupportedFormat, "\(place.what) cannot be archived: \(error)", entity: entity,
                                 property: place.property)
            }
        }
    }
}

/// One property of an entity, whatever its kind.
enum ModelProperty {
    case attribute(Attribute)
    case relationship(Relationship)
    case fetched(FetchedProperty)

    var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        case .fetched(let p): p.name
        }
    }
}
