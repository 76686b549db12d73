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
        return try decoder.decodeModel()
    }

    private struct Decoder {
        let archive: KeyedArchive
        let file: String
        var warnings: [String] = []
        var formatter: ArchivedPredicateFormatter { ArchivedPredicateFormatter(archive: archive) }

        init(archive: KeyedArchive, file: String) {
            self.archive = archive
            self.file = file
        }

        func fail(_ message: String, entity: String? = nil, property: String? = nil) -> ModelError {
            ModelError(.invalidValue, message, file: file, entity: entity, property: property)
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
                var entity = try decodeEntity(index, name: name, parent: parentOf[name], nameOfEntity: nameOfEntity)
                propertyOrder[name] = archiveOrder[name]?.map(\.0) ?? []
                for (key, value) in archiveOrder[name] ?? [] {
                    guard let pIndex = archive.reference(value) else { continue }
                    let cls = archive.className(pIndex) ?? ""
                    if cls == "_NSPropertyDescriptionProxy" || inherited.contains(key) { continue }
                    try decodeProperty(pIndex, key: key, into: &entity, nameOfEntity: nameOfEntity)
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
                model.fetchRequests.append(try fetchRequest(index, name: key, nameOfEntity: nameOfEntity))
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
            entity.userInfo = archive.stringDictionary(f["NSUserInfo"])
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

        // MARK: Properties

        struct PropertyFlags {
            var optional = false, readOnly = false, transient = false, ordered = false
            var spotlight = false, truth = false, cloudEncrypted = false
        }

        func flags(_ f: [String: PropertyListValue]) -> PropertyFlags {
            var flags = PropertyFlags()
            let p = archive.int(f["_P"]) ?? 0
            if p != 0 {
                flags.optional = p & 2 != 0
                flags.readOnly = p & 4 != 0
                flags.transient = p & 8 != 0
                flags.spotlight = p & 0x100 != 0
                flags.truth = p & 0x200 != 0
                flags.ordered = p & 0x400 != 0
                flags.cloudEncrypted = p & 0x800 != 0
            } else {
                flags.optional = archive.bool(f["NSIsOptional"])
                flags.readOnly = archive.bool(f["NSIsReadOnly"])
                flags.transient = archive.bool(f["NSIsTransient"])
                flags.spotlight = archive.bool(f["NSIndexedBySpotlight"])
                flags.truth = archive.bool(f["NSIsStoredInTruth"])
                flags.ordered = archive.bool(f["NSIsOrdered"])
                flags.cloudEncrypted = archive.bool(f["NSAllowsCloudEncryption"])
            }
            return flags
        }

        func renaming(_ value: PropertyListValue?, name: String) -> String? {
            guard let text = archive.string(value), text != name else { return nil }
            return text
        }

        mutating func decodeProperty(_ index: Int, key: String, into entity: inout Entity,
                                     nameOfEntity: [Int: String]) throws {
            let f = archive.fields(index)
            let chain = archive.classChain(index)
            let name = archive.string(f["NSPropertyName"]) ?? key
            let flags = flags(f)
            if chain.contains("NSRelationshipDescription") {
                var destination = archive.string(f["_NSDestinationEntityName"]) ?? ""
                if let ref = archive.reference(f["NSDestinationEntity"]) {
                    destination = nameOfEntity[ref] ?? archive.string(archive.fields(ref)["NSEntityName"]) ?? destination
                }
                let maxCount = Int(archive.int(f["NSMaxCount"]) ?? 0)
                var relationship = Relationship(name: name, destination: destination, isToMany: maxCount != 1)
                relationship.maxCount = maxCount
                relationship.minCount = Int(archive.int(f["NSMinCount"]) ?? 0)
                if let inverse = archive.reference(f["NSInverseRelationship"]) {
                    let inv = archive.fields(inverse)
                    relationship.inverseName = archive.string(inv["NSPropertyName"])
                    if let owner = archive.reference(inv["NSEntity"]) {
                        relationship.inverseEntity = nameOfEntity[owner] ?? destination
                    } else {
                        relationship.inverseEntity = destination
                    }
                } else if let inverseName = archive.string(f["_NSInverseRelationshipName"]) {
                    relationship.inverseName = inverseName
                    relationship.inverseEntity = destination
                } else {
                    relationship.inverseEntity = nil
                }
                relationship.isOptional = flags.optional
                relationship.isTransient = flags.transient
                relationship.isOrdered = flags.ordered
                let rule = Int(archive.int(f["NSDeleteRule"]) ?? 1)
                guard let deleteRule = DeleteRule(code: rule) else {
                    throw fail("unknown delete rule \(rule)", entity: entity.name, property: name)
                }
                relationship.deleteRule = deleteRule
                relationship.renamingIdentifier = renaming(f["NSRenamingIdentifier"], name: name)
                relationship.versionHashModifier = archive.string(f["NSVersionHashModifier"])
                relationship.userInfo = archive.stringDictionary(f["NSUserInfo"])
                entity.relationships.append(relationship)
            } else if chain.contains("NSAttributeDescription") {
                entity.attributes.append(try attribute(index, name: name, flags: flags, entity: entity.name))
            } else if chain.contains("NSFetchedPropertyDescription") {
                var request = FetchRequestTemplate(name: "fetchedPropertyFetchRequest",
                                                   entity: archive.string(f["_NSFetchRequestEntityName"]) ?? "")
                if let ref = archive.reference(f["NSFetchRequest"]) {
                    request = try fetchRequest(ref, name: "fetchedPropertyFetchRequest", nameOfEntity: nameOfEntity)
                    if request.entity.isEmpty { request.entity = archive.string(f["_NSFetchRequestEntityName"]) ?? "" }
                }
                var property = FetchedProperty(name: name, fetchRequest: request)
                property.isOptional = flags.optional
                property.userInfo = archive.stringDictionary(f["NSUserInfo"])
                entity.fetchedProperties.append(property)
            } else {
                warnings.append("\(file): entity '\(entity.name)': skipped property '\(name)' of class "
                                + "\(archive.className(index) ?? "?")")
            }
        }

        mutating func attribute(_ index: Int, name: String, flags: PropertyFlags, entity: String) throws -> Attribute {
            let f = archive.fields(index)
            let code = Int(archive.int(f["NSAttributeType"]) ?? 0)
            guard let type = AttributeType(code: code) else {
                throw fail("unknown attribute type \(code)", entity: entity, property: name)
            }
            var a = Attribute(name: name, type: type, isOptional: flags.optional)
            a.isTransient = flags.transient
            a.isReadOnly = flags.readOnly
            a.isIndexedBySpotlight = flags.spotlight
            a.isStoredInExternalRecord = flags.truth
            a.allowsCloudEncryption = flags.cloudEncrypted
            a.isIndexed = archive.bool(f["NSIsIndexed"])
            a.valueTransformerName = archive.string(f["NSValueTransformerName"])
            a.renamingIdentifier = renaming(f["NSRenamingIdentifier"], name: name)
            a.versionHashModifier = archive.string(f["NSVersionHashModifier"])
            a.userInfo = archive.stringDictionary(f["NSUserInfo"])
            if type == .transformable { a.customClassName = archive.string(f["NSAttributeValueClassName"]) }
            let flagsKey = archive.int(f["NSFlagsKey"]) ?? 0
            a.allowsExternalBinaryDataStorage = flagsKey & 4 != 0
            a.preservesValueInHistoryOnDeletion = flagsKey & 0x10 != 0
            if flagsKey & 2 != 0 { setLimit(&a, min: true, value: f["NSMinValueName"]) }
            if flagsKey & 1 != 0 { setLimit(&a, min: false, value: f["NSMaxValueName"]) }
            for item in archive.array(f["NSValidationPredicates"]) ?? [] {
                if let ref = archive.reference(item) { applyValidation(ref, to: &a, entity: entity) }
            }
            if archive.classChain(index).contains("NSDerivedAttributeDescription") {
                do {
                    a.derivationExpression = try formatter.expression(f["NSDerivationExpression"])
                    if let filter = try formatter.predicate(f["NSFilteringPredicate"]) {
                        warnings.append("\(file): entity '\(entity)', attribute '\(name)': filtering predicate "
                                        + "'\(filter)' is not kept by cdstore's model")
                    }
                } catch {
                    warnings.append("\(file): entity '\(entity)', attribute '\(name)': derivation expression not "
                                    + "decoded (\(error))")
                    a.derivationExpression = ""
                }
            }
            setDefault(&a, f["NSDefaultValue"], entity: entity)
            return a
        }

        func limitText(_ value: PropertyListValue?, type: AttributeType) -> String? {
            guard let resolved = archive.resolve(value) else { return nil }
            switch resolved {
            case .int(let n): return String(n)
            case .real(let d): return type.isInteger || type == .string || type == .binary ? formatNumber(d) : String(d)
            case .bool(let b): return b ? "1" : "0"
            case .string(let s): return s
            default: return nil
            }
        }

        func setLimit(_ a: inout Attribute, min: Bool, value: PropertyListValue?) {
            if a.type == .date {
                guard let d = archive.double(value) ?? dateValue(value) else { return }
                if min { a.minDateTimeInterval = d } else { a.maxDateTimeInterval = d }
                return
            }
            guard let text = limitText(value, type: a.type) ?? dateValue(value).map({ String($0) }) else { return }
            if min { a.minValue = text } else { a.maxValue = text }
        }

        func dateValue(_ value: PropertyListValue?) -> Double? {
            guard case .dictionary(let d)? = archive.resolve(value) else {
                if case .date(let t)? = archive.resolve(value) { return t }
                return nil
            }
            return archive.double(d["NS.time"])
        }

        /// Maps a validation predicate to the attribute's limit fields where it has one of the forms momc writes.
        mutating func applyValidation(_ index: Int, to a: inout Attribute, entity: String) {
            let f = archive.fields(index)
            guard archive.className(index) == "NSComparisonPredicate",
                  let op = archive.reference(f["NSPredicateOperator"]),
                  let left = archive.reference(f["NSLeftExpression"]),
                  let right = archive.reference(f["NSRightExpression"]) else {
                warnings.append("\(file): entity '\(entity)', attribute '\(a.name)': validation predicate not mapped")
                return
            }
            let type = archive.int(archive.fields(op)["NSOperatorType"]) ?? -1
            let leftText = (try? formatter.expression(at: left)) ?? ""
            let constant = archive.fields(right)["NSConstantValue"]
            switch (leftText, type) {
            case ("SELF", 6):
                a.regularExpression = archive.string(constant)
            case ("timeIntervalSinceReferenceDate", 3), ("timeIntervalSinceReferenceDate", 1):
                let d = archive.double(constant) ?? dateValue(constant)
                if type == 3 { a.minDateTimeInterval = d } else { a.maxDateTimeInterval = d }
            case ("SELF", 3), ("length", 3), ("SELF.length", 3):
                if a.type == .date { a.minDateTimeInterval = dateValue(constant) ?? archive.double(constant) }
                else { a.minValue = limitText(constant, type: a.type) }
            case ("SELF", 1), ("length", 1), ("SELF.length", 1):
                if a.type == .date { a.maxDateTimeInterval = dateValue(constant) ?? archive.double(constant) }
                else { a.maxValue = limitText(constant, type: a.type) }
            default:
                let text = (try? formatter.predicate(at: index)) ?? "?"
                warnings.append("\(file): entity '\(entity)', attribute '\(a.name)': validation predicate '\(text)' "
                                + "has no place in cdstore's model; skipped")
            }
        }

        mutating func setDefault(_ a: inout Attribute, _ value: PropertyListValue?, entity: String) {
            guard let resolved = archive.resolve(value) else { return }
            switch resolved {
            case .bool(let b):
                a.defaultValue = a.type == .boolean ? (b ? "YES" : "NO") : (b ? "1" : "0")
            case .int(let n):
                a.defaultValue = a.type == .boolean ? (n != 0 ? "YES" : "NO") : String(n)
            case .real(let d):
                if a.type == .date { a.defaultDateTimeInterval = d } else {
                    a.defaultValue = a.type.isInteger ? formatNumber(d) : String(d)
                }
            case .string(let s):
                a.defaultValue = s
            case .date(let t):
                a.defaultDateTimeInterval = t
            case .dictionary(let d):
                if case .string(let s)? = d["NS.string"] { a.defaultValue = s; return }
                if let t = archive.double(d["NS.time"]) { a.defaultDateTimeInterval = t; return }
                if let decimal = formatter.decimalText(d) { a.defaultValue = decimal; return }
                if case .data(let bytes)? = d["NS.uuidbytes"], bytes.count == 16 {
                    a.defaultValue = uuidString(bytes); return
                }
                if let relative = archive.string(d["NS.relative"]) { a.defaultValue = relative; return }
                warnings.append("\(file): entity '\(entity)', attribute '\(a.name)': default value of class "
                                + "\(archive.reference(value).flatMap(archive.className) ?? "?") not kept")
            default:
                warnings.append("\(file): entity '\(entity)', attribute '\(a.name)': default value not kept")
            }
        }

        func uuidString(_ b: [UInt8]) -> String {
            let hex = b.map { String(format: "%02X", $0) }.joined()
            let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                         hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
            return parts.joined(separator: "-")
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
