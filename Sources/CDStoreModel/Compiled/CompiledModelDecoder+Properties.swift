import Foundation

/// Properties of an archived entity: attributes, relationships and fetched properties, with their flags,
/// limits and defaults.
extension CompiledModelDecoder.Decoder {
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
            relationship.userInfo = try userInfo(f["NSUserInfo"])
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
            property.userInfo = try userInfo(f["NSUserInfo"])
            entity.fetchedProperties.append(property)
        } else {
            warnings.append("\(file): entity '\(entity.name)': skipped property '\(name)' of class "
                            + "\(archive.className(index) ?? "?")")
        }
    }

    mutating func attribute(_ index: Int, name: String, flags: PropertyFlags, entity: String,
                            depth: Int = 0) throws -> Attribute {
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
        a.userInfo = try userInfo(f["NSUserInfo"])
        if type == .transformable { a.customClassName = archive.string(f["NSAttributeValueClassName"]) }
        let flagsKey = archive.int(f["NSFlagsKey"]) ?? 0
        a.allowsExternalBinaryDataStorage = flagsKey & 4 != 0
        a.preservesValueInHistoryOnDeletion = flagsKey & 0x10 != 0
        if flagsKey & 2 != 0 { setLimit(&a, min: true, value: f["NSMinValueName"]) }
        if flagsKey & 1 != 0 { setLimit(&a, min: false, value: f["NSMaxValueName"]) }
        for item in archive.array(f["NSValidationPredicates"]) ?? [] {
            if let ref = archive.reference(item) { try applyValidation(ref, to: &a, entity: entity) }
        }
        if archive.classChain(index).contains("NSDerivedAttributeDescription") {
            do {
                a.derivationExpression = try formatter.expression(f["NSDerivationExpression"])
                if let filter = try formatter.predicate(f["NSFilteringPredicate"]) {
                    warnings.append("\(file): entity '\(entity)', attribute '\(name)': filtering predicate "
                                    + "'\(filter)' is not kept by cdstore's model")
                }
            } catch let error as ArchivedPredicateFormatter.Unsupported {
                warnings.append("\(file): entity '\(entity)', attribute '\(name)': derivation expression not "
                                + "decoded (\(error))")
                a.derivationExpression = ""
            }
        }
        setDefault(&a, f["NSDefaultValue"], entity: entity)
        if type == .composite {
            a.compositeElements = try compositeElements(f["NSCompositeElements"], of: name, entity: entity,
                                                        depth: depth)
        }
        return a
    }

    /// The elements of a composite attribute (`NSCompositeElements`: an array of attribute descriptions).
    /// Nesting deeper than any real model is refused, so an archive whose elements contain themselves ends.
    mutating func compositeElements(_ value: PropertyListValue?, of name: String, entity: String,
                                    depth: Int) throws -> [Attribute] {
        guard depth < 16 else {
            throw fail("composite attribute nested more than 16 levels deep", entity: entity, property: name)
        }
        var elements: [Attribute] = []
        for item in archive.array(value) ?? [] {
            guard let ref = archive.reference(item) else { continue }
            let fields = archive.fields(ref)
            let elementName = archive.string(fields["NSPropertyName"]) ?? ""
            elements.append(try attribute(ref, name: elementName, flags: flags(fields), entity: entity,
                                          depth: depth + 1))
        }
        return elements
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
    mutating func applyValidation(_ index: Int, to a: inout Attribute, entity: String) throws {
        let f = archive.fields(index)
        guard archive.className(index) == "NSComparisonPredicate",
              let op = archive.reference(f["NSPredicateOperator"]),
              let left = archive.reference(f["NSLeftExpression"]),
              let right = archive.reference(f["NSRightExpression"]) else {
            warnings.append("\(file): entity '\(entity)', attribute '\(a.name)': validation predicate not mapped")
            return
        }
        let type = archive.int(archive.fields(op)["NSOperatorType"]) ?? -1
        let leftText = try unlessUnsupported { try formatter.expression(at: left) } ?? ""
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
            let text = try unlessUnsupported { try formatter.predicate(at: index) } ?? "?"
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
}
