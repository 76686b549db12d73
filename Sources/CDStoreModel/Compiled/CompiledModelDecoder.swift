import Foundation

/// Decodes the NSKeyedArchiver archive of an `NSManagedObjectModel` — a compiled `.mom` or the model a store
/// caches in `Z_MODELCACHE` — into a ``ManagedObjectModel``.
///
/// Mapping rules (coredata-format.md §4.4):
/// - property flags come from `_P` when it is non-zero (optional 2, read-only 4, transient 8, ordered 0x400,
///   spotlight 0x100, stored-in-truth 0x200, cloud-encrypted 0x800), otherwise from the `NSIs…` booleans;
/// - `NSFlagsKey` gives external binary storage (4), preserve-after-deletion (0x10) and min/max limits (2/1,
///   `NSMinValueName`/`NSMaxValueName`); limits given as validation predicates (`SELF >= n`, `length <= n`,
///   `timeIntervalSinceReferenceDate >= d`, `SELF MATCHES "re"`) are mapped to the same model fields;
/// - defaults become the XML text forms (Boolean "YES"/"NO", numbers as text, dates as
///   `defaultDateTimeInterval`);
/// - a renaming identifier equal to the element's name, and the class name `NSManagedObject`, mean "not set";
/// - properties a sub-entity repeats from its ancestors (model caches list them, as proxies or copies) are not
///   counted as its own;
/// - entities and their properties are sorted by name (Xcode writes them so); the archive's own property order
///   is returned separately.
enum CompiledModelDecoder {
    struct Result {
        var model: ManagedObjectModel
        var propertyOrder: [String: [String]]
        var warnings: [String]
    }

    static func decode(_ data: Data, file: String) throws -> Result {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data: data)
        } catch let failure as KeyedArchive.Failure {
            throw ModelError(.unsupportedFormat, failure.description, file: file)
        }
        var decoder = Decoder(archive: archive, file: file)
        do {
            return try decoder.decodeModel()
        } catch let error as ObjectPathError {
            throw ModelError(.damagedArchive, error.description, file: file)
        }
    }

    struct Decoder {
        let archive: KeyedArchive
        let file: String
        var warnings: [String] = []
        /// The path of the decoder's walk through the archive: entity, property, then the predicates and
        /// expressions below it (see ``KeyedArchive/Walk``).
        let walk: KeyedArchive.Walk
        var formatter: ArchivedPredicateFormatter { ArchivedPredicateFormatter(archive: archive, walk: walk) }

        init(archive: KeyedArchive, file: String) {
            self.archive = archive
            self.file = file
            self.walk = KeyedArchive.Walk(archive)
        }

        func fail(_ message: String, entity: String? = nil, property: String? = nil) -> ModelError {
            ModelError(.invalidValue, message, file: file, entity: entity, property: property)
        }

        /// Runs `body` inside the object at `index`, turning a cycle or absurd nesting below it into a
        /// ``ModelError/Code/damagedArchive`` error that names the entity and property being read.
        func inside<T>(_ index: Int, entity: String? = nil, property: String? = nil, subject: String? = nil,
                       _ body: () throws -> T) throws -> T {
            do {
                return try walk.visit(index, body)
            } catch let error as ObjectPathError {
                throw ModelError(.damagedArchive, (subject.map { $0 + ": " } ?? "") + error.description, file: file,
                                 entity: entity, property: property)
            }
        }

        mutating func decodeModel() throws -> Result {
            let root = archive.root
            guard archive.classChain(root).contains("NSManagedObjectModel") else {
                throw ModelError(.unsupportedFormat, "the keyed archive holds a \(archive.className(root) ?? "?"), "
                                 + "not an NSManagedObjectModel", file: file)
            }
            let m = archive.fields(root)
            guard let entityEntries = archive.dictionary(m["NSEntities"]) else {
                throw ModelError(.unsupportedFormat, "the archived model has no entity dictionary (NSEntities)", file: file)
            }
            // Entity objects by archive index, and their names.
            var entityIndexes: [(name: String, index: Int)] = []
            for (key, value) in entityEntries {
                guard let index = archive.reference(value) else { throw fail("entity '\(key)' is missing from the archive") }
                let name = archive.string(archive.fields(index)["NSEntityName"]) ?? key
                entityIndexes.append((name, index))
            }
            var nameOfEntity: [Int: String] = [:]
            for (name, index) in entityIndexes { nameOfEntity[index] = name }
            try checkSuperentityChains(entityIndexes)

            // Property names per entity in archive order (inherited included when the archive lists them).
            var archiveOrder: [String: [(String, PropertyListValue)]] = [:]
            var parentOf: [String: String] = [:]
            for (name, index) in entityIndexes {
                let f = archive.fields(index)
                archiveOrder[name] = archive.dictionary(f["NSProperties"]) ?? []
                if let parent = archive.reference(f["NSSuperentity"]) {
                    parentOf[name] = nameOfEntity[parent] ?? archive.string(archive.fields(parent)["NSEntityName"])
                }
            }
            func ancestorPropertyNames(_ name: String) -> Set<String> {
                var result: Set<String> = []
                var seen: Set<String> = [name]
                var current = parentOf[name]
                while let p = current, seen.insert(p).inserted {
                    for (key, _) in archiveOrder[p] ?? [] { result.insert(key) }
                    current = parentOf[p]
                }
                return result
            }

            var entities: [Entity] = []
            var propertyOrder: [String: [String]] = [:]
            for (name, index) in entityIndexes {
                let inherited = ancestorPropertyNames(name)
                var entity = try inside(index, entity: name) {
                    try decodeEntity(index, name: name, parent: parentOf[name], nameOfEntity: nameOfEntity)
                }
                propertyOrder[name] = archiveOrder[name]?.map(\.0) ?? []
                for (key, value) in archiveOrder[name] ?? [] {
                    guard let pIndex = archive.reference(value) else { continue }
                    let cls = archive.className(pIndex) ?? ""
                    if cls == "_NSPropertyDescriptionProxy" || inherited.contains(key) { continue }
                    try inside(index, entity: name) {
                        try inside(pIndex, entity: name, property: key) {
                            try decodeProperty(pIndex, key: key, into: &entity, nameOfEntity: nameOfEntity)
                        }
                    }
                }
                entity.attributes.sort { utf16Order($0.name, $1.name) }
                entity.relationships.sort { utf16Order($0.name, $1.name) }
                entity.fetchedProperties.sort { utf16Order($0.name, $1.name) }
                entities.append(entity)
            }
            entities.sort { utf16Order($0.name, $1.name) }

            var model = ManagedObjectModel(entities: entities)
            model.versionIdentifiers = (archive.array(m["NSVersionIdentifiers"]) ?? []).compactMap { archive.string($0) }
                .sorted(by: utf16Order)
            for (key, value) in archive.dictionary(m["NSFetchRequestTemplates"]) ?? [] {
                guard let index = archive.reference(value) else { continue }
                model.fetchRequests.append(try inside(index, subject: "fetch request '\(key)'") {
                    try fetchRequest(index, name: key, nameOfEntity: nameOfEntity)
                })
            }
            model.fetchRequests.sort { utf16Order($0.name, $1.name) }
            for (key, value) in archive.dictionary(m["NSConfigurations"]) ?? [] {
                let members = (archive.array(value) ?? []).compactMap { item -> String? in
                    if let ref = archive.reference(item), let name = nameOfEntity[ref] { return name }
                    return archive.string(item)
                }
                model.configurations.append(Configuration(name: key, entities: members.sorted(by: utf16Order)))
            }
            model.configurations.sort { utf16Order($0.name, $1.name) }
            for key in ["CDMCompilerToolVersion", "CDMCompilerXcodeVersion"] where m[key] != nil {
                model.fileSettings[key] = archive.string(m[key]) ?? archive.describe(m[key])
            }
            return Result(model: model, propertyOrder: propertyOrder, warnings: warnings)
        }

        // MARK: Entities

        mutating func decodeEntity(_ index: Int, name: String, parent: String?,
                                   nameOfEntity: [Int: String]) throws -> Entity {
            let f = archive.fields(index)
            var entity = Entity(name: name, parentName: parent, isAbstract: archive.bool(f["NSIsAbstract"]))
            let className = archive.string(f["NSClassNameForEntity"])
            entity.className = className == "NSManagedObject" ? nil : className
            entity.renamingIdentifier = renaming(f["NSRenamingIdentifier"], name: name)
            entity.versionHashModifier = archive.string(f["NSVersionHashModifier"])
            entity.userInfo = try userInfo(f["NSUserInfo"])
            for tuple in archive.array(f["NSUniqueTuples"]) ?? [] {
                let names = (archive.array(tuple) ?? []).map { item -> String in
                    if let ref = archive.reference(item), archive.fields(ref)["NSPropertyName"] != nil {
                        return archive.string(archive.fields(ref)["NSPropertyName"]) ?? ""
                    }
                    return archive.string(item) ?? ""
                }
                entity.uniquenessConstraints.append(names)
            }
            for item in archive.array(f["NSFetchIndexDescriptions"]) ?? [] {
                guard let ref = archive.reference(item) else { continue }
                entity.fetchIndexes.append(try fetchIndex(ref, entity: name))
            }
            for item in archive.array(f["NSCompoundIndexes"]) ?? [] {
                let names = (archive.array(item) ?? []).map { element -> String in
                    if let ref = archive.reference(element), archive.fields(ref)["NSPropertyName"] != nil {
                        return archive.string(archive.fields(ref)["NSPropertyName"]) ?? ""
                    }
                    return archive.string(element) ?? ""
                }
                entity.compoundIndexes.append(names)
            }
            return entity
        }

        func fetchIndex(_ index: Int, entity: String) throws -> FetchIndex {
            let f = archive.fields(index)
            var result = FetchIndex(name: archive.string(f["NSIndexName"]) ?? "", elements: [])
            result.partialIndexPredicate = try formatter.predicate(f["NSPartialIndexPredicate"])
            for item in archive.array(f["NSIndexElements"]) ?? [] {
                guard let ref = archive.reference(item) else { continue }
                let e = archive.fields(ref)
                var property = archive.string(e["NSPropertyName"])
                if property == nil, let p = archive.reference(e["NSProperty"]) {
                    property = archive.string(archive.fields(p)["NSPropertyName"])
                }
                var expression: String? = nil
                if property == nil, archive.reference(e["NSExpression"]) != nil {
                    expression = try formatter.expression(e["NSExpression"])
                }
                let type = (archive.int(e["NSFetchIndexElementType"]) ?? 0) == 1 ? "RTree" : "Binary"
                let ascending = e["NSAscending"] == nil ? true : archive.bool(e["NSAscending"])
                result.elements.append(FetchIndex.Element(property: property, expression: expression,
                                                          type: type, isAscending: ascending))
            }
            return result
        }

        // MARK: Fetch requests

        /// A fetch request as the XML writes it. `NSFetchRequestFlags` bits (inferred from the corpus):
        /// 1 distinct results, 2 include sub-entities, 4 include property values, 8 include pending changes,
        /// 16 return objects as faults. momc clears "property values" for object-ID requests and "faults" for
        /// dictionary requests, so those two are not reported for those result types. Options equal to
        /// Xcode's defaults are omitted.
        func fetchRequest(_ index: Int, name: String, nameOfEntity: [Int: String]) throws -> FetchRequestTemplate {
            let f = archive.fields(index)
            var entity = archive.string(f["NSEntityName"]) ?? ""
            if let ref = archive.reference(f["NSEntity"]) {
                entity = nameOfEntity[ref] ?? archive.string(archive.fields(ref)["NSEntityName"]) ?? entity
            } else if let text = archive.string(f["NSEntity"]) {
                entity = text
            }
            var request = FetchRequestTemplate(name: name, entity: entity,
                                               predicate: try formatter.predicate(f["NSPredicate"]))
            let resultType = archive.int(f["NSResultType"]) ?? 0
            if resultType != 0 { request.options["resultType"] = String(resultType) }
            if let limit = archive.int(f["NSFetchLimit"]), limit != 0 { request.options["fetchLimit"] = String(limit) }
            if let batch = archive.int(f["NSBatchSize"]), batch != 0 { request.options["fetchBatchSize"] = String(batch) }
            if let offset = archive.int(f["NSFetchOffset"]), offset != 0 { request.options["fetchOffset"] = String(offset) }
            if f["NSFetchRequestFlags"] != nil {
                let flags = archive.int(f["NSFetchRequestFlags"]) ?? 0
                if flags & 1 != 0 { request.options["returnDistinctResults"] = "YES" }
                if flags & 2 == 0 { request.options["includeSubentities"] = "NO" }
                if flags & 4 == 0 && resultType != 1 { request.options["includePropertyValues"] = "NO" }
                if flags & 8 == 0 { request.options["includesPendingChanges"] = "NO" }
                if flags & 16 == 0 && resultType != 2 { request.options["returnObjectsAsFaults"] = "NO" }
            }
            return request
        }
    }
}
