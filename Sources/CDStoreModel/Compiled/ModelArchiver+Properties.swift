import Foundation

/// Properties as the caches write them: `NSAttributeDescription` (and `NSDerivedAttributeDescription`),
/// `NSRelationshipDescription`, `NSFetchedPropertyDescription`, and the `NSFetchRequest`s of fetched
/// properties and templates.
extension ModelArchiver.Context {
    /// The flags every property has; `commonFields` writes them as `_P` (``ModelArchiver/propertyFlags(optional:readOnly:transient:ordered:spotlight:truth:cloudEncrypted:hasValidation:hasUserInfo:hasVersionHashModifier:)``)
    /// and the `NSIs…` booleans, the latter only when true, as the caches do.
    struct CommonFlags {
        var optional = false, readOnly = false, transient = false, ordered = false
        var spotlight = false, truth = false, cloudEncrypted = false
    }

    mutating func commonFields(name: String, entityReference: PropertyListValue, renaming: String?, flags: CommonFlags,
                               userInfo: [String: String], versionHashModifier: String?,
                               validation: (predicates: [PropertyListValue], warnings: [PropertyListValue])? = nil)
        -> [String: PropertyListValue] {
        var f: [String: PropertyListValue] = [:]
        f["NSPropertyName"] = builder.string(name)
        f["NSEntity"] = entityReference
        f["NSRenamingIdentifier"] = builder.string(renaming ?? name)
        let booleans = [("NSIsOptional", flags.optional), ("NSIsReadOnly", flags.readOnly), ("NSIsTransient", flags.transient),
                        ("NSIsOrdered", flags.ordered), ("NSIndexedBySpotlight", flags.spotlight),
                        ("NSIsStoredInTruth", flags.truth), ("NSAllowsCloudEncryption", flags.cloudEncrypted)]
        for (key, value) in booleans where value { f[key] = .bool(true) }
        if !userInfo.isEmpty { f["NSUserInfo"] = builder.stringDictionary(userInfo) }
        if let versionHashModifier { f["NSVersionHashModifier"] = builder.string(versionHashModifier) }
        if let validation {
            f["NSValidationPredicates"] = builder.array(validation.predicates)
            f["NSValidationWarnings"] = builder.array(validation.warnings)
        }
        f["_P"] = .int(ModelArchiver.propertyFlags(
            optional: flags.optional, readOnly: flags.readOnly, transient: flags.transient, ordered: flags.ordered,
            spotlight: flags.spotlight, truth: flags.truth, cloudEncrypted: flags.cloudEncrypted,
            hasValidation: validation != nil, hasUserInfo: !userInfo.isEmpty, hasVersionHashModifier: versionHashModifier != nil))
        return f
    }

    /// Writes `property` as it appears in `entity`'s `NSProperties` (a copy when `entity` inherits it).
    mutating func archiveProperty(_ property: ModelProperty, of entity: Entity,
                                  entityReference: PropertyListValue) throws -> PropertyListValue {
        let me = builder.begin(Self.propertyIdentity(entity.name, property.name))
        switch property {
        case .attribute(let a):
            let (classes, fields) = try attribute(a, of: entity, entityReference: entityReference)
            builder.end(me, classes: classes, fields)
        case .relationship(let r):
            builder.end(me, classes: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"],
                       relationship(r, entityReference: entityReference))
        case .fetched(let p):
            var flags = CommonFlags()
            (flags.optional, flags.readOnly, flags.transient) = (p.isOptional, true, true)
            var f = commonFields(name: p.name, entityReference: entityReference, renaming: nil, flags: flags,
                                 userInfo: p.userInfo, versionHashModifier: nil)
            f["NSFetchRequest"] = try fetchRequest(p.fetchRequest, place: (entity.name, p.name, "the fetch request"))
            f["_NSFetchRequestEntityName"] = builder.string(p.fetchRequest.entity)
            builder.end(me, classes: ["NSFetchedPropertyDescription", "NSPropertyDescription", "NSObject"], f)
        }
        return me
    }

    // MARK: Attributes

    mutating func attribute(_ a: Attribute, of entity: Entity,
                            entityReference: PropertyListValue) throws -> ([String], [String: PropertyListValue]) {
        var flags = CommonFlags()
        (flags.optional, flags.readOnly, flags.transient) = (a.isOptional, a.isReadOnly, a.isTransient)
        (flags.spotlight, flags.truth, flags.cloudEncrypted) = (a.isIndexedBySpotlight, a.isStoredInExternalRecord, a.allowsCloudEncryption)
        var validation: ([PropertyListValue], [PropertyListValue])?
        if let pattern = a.regularExpression {
            // momc's form of a pattern (§4.4): `SELF MATCHES "…"` with warning NSValidationStringPatternMatchingError.
            let left = builder.selfExpression()
            let right = builder.constantExpression(builder.string(pattern))
            validation = ([builder.comparisonPredicate(left, .matches, right)], [builder.number(Int64(1680))])
        }
        var f = commonFields(name: a.name, entityReference: entityReference, renaming: a.renamingIdentifier, flags: flags,
                             userInfo: a.userInfo, versionHashModifier: a.versionHashModifier, validation: validation)
        f["NSAttributeType"] = .int(Int64(a.type.code))
        f["NSAttributeValueClassName"] = builder.string(optional: Self.valueClassName(a))
        f["NSValueTransformerName"] = builder.string(optional: a.valueTransformerName)
        f["NSDefaultValue"] = defaultValue(a, entity: entity.name)
        if a.isIndexed { f["NSIsIndexed"] = .bool(true) }
        var flagsKey: Int64 = 0
        if a.allowsExternalBinaryDataStorage { flagsKey |= 4 }
        if a.preservesValueInHistoryOnDeletion { flagsKey |= 0x10 }
        if let min = limit(a, min: true, entity: entity.name) { flagsKey |= 2; f["NSMinValueName"] = min }
        if let max = limit(a, min: false, entity: entity.name) { flagsKey |= 1; f["NSMaxValueName"] = max }
        f["NSFlagsKey"] = .int(flagsKey)
        if let expression = a.derivationExpression {
            f["NSDerivationExpression"] = try archiveExpression(VersionHasher.canonicalDerivation(expression),
                                                                place: (entity.name, a.name, "the derivation expression"))
            f["NSFilteringPredicate"] = KeyedArchiveBuilder.null
            return (["NSDerivedAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"], f)
        }
        if a.type == .composite {
            // The elements are attribute descriptions of their own, which Core Data reads back to flatten the
            // composite into columns and to hash it.
            var elements: [PropertyListValue] = []
            for element in a.compositeElements {
                let me = builder.begin()
                let (classes, fields) = try attribute(element, of: entity, entityReference: entityReference)
                builder.end(me, classes: classes, fields)
                elements.append(me)
            }
            f["NSCompositeElements"] = builder.array(elements)
            return (["NSCompositeAttributeDescription", "NSAttributeDescription", "NSPropertyDescription", "NSObject"], f)
        }
        return (["NSAttributeDescription", "NSPropertyDescription", "NSObject"], f)
    }

    /// `NSAttributeValueClassName`: the class of the attribute's values, as momc writes it; a Transformable's
    /// custom class, or nil.
    static func valueClassName(_ a: Attribute) -> String? {
        switch a.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binary: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        case .transformable: a.customClassName
        case .undefined, .objectID, .composite: nil
        }
    }

    /// `NSMinValueName`/`NSMaxValueName`: an integer for integer, String and Binary attributes (a length), a
    /// double for the others; dates in seconds since 2001-01-01.
    mutating func limit(_ a: Attribute, min: Bool, entity: String) -> PropertyListValue? {
        if a.type == .date { return (min ? a.minDateTimeInterval : a.maxDateTimeInterval).map { .real($0) } }
        guard let text = min ? a.minValue : a.maxValue else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch a.type {
        case .integer16, .integer32, .integer64, .string, .binary:
            if let n = Int64(trimmed) { return .int(n) }
            if let d = Double(trimmed), d.rounded() == d, abs(d) < 9e18 { return .int(Int64(d)) }
        case .double, .float, .decimal:
            if let d = Double(trimmed) { return .real(d) }
        default:
            break
        }
        warnings.append("entity '\(entity)', attribute '\(a.name)': \(min ? "minimum" : "maximum") '\(text)' is not a "
                        + "limit of a \(a.type.rawValue) attribute; not kept in the model cache")
        return nil
    }

    /// `NSDefaultValue`: an NSNumber, NSString, NSDate, NSDecimalNumber, NSUUID or NSURL object, or `$null`.
    mutating func defaultValue(_ a: Attribute, entity: String) -> PropertyListValue {
        if a.type == .date, let seconds = a.defaultDateTimeInterval { return builder.date(seconds) }
        guard let text = a.defaultValue else { return KeyedArchiveBuilder.null }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch a.type {
        case .integer16, .integer32, .integer64:
            if let n = Int64(trimmed) { return builder.number(n) }
            if let d = Double(trimmed), d.rounded() == d, abs(d) < 9e18 { return builder.number(Int64(d)) }
        case .double, .float:
            if let d = Double(trimmed) { return builder.number(d) }
        case .boolean:
            switch trimmed.uppercased() {
            case "YES", "TRUE", "1": return builder.number(true)
            case "NO", "FALSE", "0": return builder.number(false)
            default: if let d = Double(trimmed) { return builder.number(d != 0) }  // "0.0" is seen in the corpus
            }
        case .string:
            return builder.string(text)
        case .decimal:
            if let decimal = DecimalNumberFields(trimmed) { return decimal.archive(into: &builder) }
        case .uuid:
            if let uuid = UUID(uuidString: trimmed) {
                let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
                return builder.object(classes: ["NSUUID", "NSObject"], ["NS.uuidbytes": .data(bytes)])
            }
        case .uri:
            let relative = builder.string(text)
            return builder.object(classes: ["NSURL", "NSObject"], ["NS.base": KeyedArchiveBuilder.null, "NS.relative": relative])
        default:
            break
        }
        warnings.append("entity '\(entity)', attribute '\(a.name)': default value '\(text)' is not a value of type "
                        + "\(a.type.rawValue), so the model cache leaves it out")
        return KeyedArchiveBuilder.null
    }

    // MARK: Relationships

    mutating func relationship(_ r: Relationship, entityReference: PropertyListValue) -> [String: PropertyListValue] {
        var flags = CommonFlags()
        (flags.optional, flags.transient, flags.ordered) = (r.isOptional, r.isTransient, r.isOrdered)
        var f = commonFields(name: r.name, entityReference: entityReference, renaming: r.renamingIdentifier, flags: flags,
                             userInfo: r.userInfo, versionHashModifier: r.versionHashModifier)
        f["NSDestinationEntity"] = referenceToEntity(r.destination)
        f["_NSDestinationEntityName"] = builder.string(optional: r.destination.isEmpty ? nil : r.destination)
        // The inverse object is the one in the entity that declares it (or inherits it: then its copy there).
        let owner = r.inverseEntity ?? r.destination
        if let inverse = r.inverseName, let ownerEntity = model.entity(named: owner),
           model.relationship(inverse, of: ownerEntity) != nil {
            f["NSInverseRelationship"] = builder.reference(Self.propertyIdentity(owner, inverse))
        } else {
            f["NSInverseRelationship"] = KeyedArchiveBuilder.null
        }
        f["_NSInverseRelationshipName"] = builder.string(optional: r.inverseName)
        f["NSDeleteRule"] = .int(Int64(r.deleteRule.code))
        f["NSMinCount"] = .int(Int64(r.minCount))
        f["NSMaxCount"] = .int(Int64(r.maxCount))
        return f
    }

    // MARK: Fetch requests

    /// An `NSFetchRequest` as momc writes a template: the entity, the predicate, result type, limits and
    /// `NSFetchRequestFlags` (1 distinct, 2 include sub-entities, 4 include property values, 8 include pending
    /// changes, 16 return faults; momc clears 4 for object-ID results and 16 for dictionary results: 30, 26
    /// and 14 in SwiftGen's model), the other keys nil or 0.
    mutating func fetchRequest(_ request: FetchRequestTemplate, place: Place) throws -> PropertyListValue {
        let me = builder.begin()
        var f: [String: PropertyListValue] = [:]
        f["NSEntity"] = model.entity(named: request.entity) != nil ? referenceToEntity(request.entity) : builder.string(request.entity)
        f["NSPredicate"] = try request.predicate.map { try archivePredicate($0, place: place) } ?? KeyedArchiveBuilder.null
        func number(_ key: String) -> Int64 { request.options[key].flatMap { Int64($0) } ?? 0 }
        func flag(_ key: String, default value: Bool) -> Bool {
            guard let text = request.options[key] else { return value }
            return ["YES", "TRUE", "1"].contains(text.uppercased())
        }
        let resultType = number("resultType")
        var flags: Int64 = 0
        if flag("returnDistinctResults", default: false) { flags |= 1 }
        if flag("includeSubentities", default: true) { flags |= 2 }
        if flag("includePropertyValues", default: true) && resultType != 1 { flags |= 4 }
        if flag("includesPendingChanges", default: true) { flags |= 8 }
        if flag("returnObjectsAsFaults", default: true) && resultType != 2 { flags |= 16 }
        f["NSResultType"] = .int(resultType)
        f["NSFetchLimit"] = .int(number("fetchLimit"))
        f["NSBatchSize"] = .int(number("fetchBatchSize"))
        f["NSFetchOffset"] = .int(number("fetchOffset"))
        f["NSHasFetchRequestFlags"] = .bool(true)
        f["NSFetchRequestFlags"] = .int(flags)
        f["NSAllocationType"] = .int(0)
        for key in ["NSSortDescriptors", "NSValuesToFetch", "NSValuesToGroupBy", "NSHavingPredicate",
                    "NSRelationshipKeyPathsForPrefetching"] {
            f[key] = KeyedArchiveBuilder.null
        }
        builder.end(me, classes: ["NSFetchRequest", "NSPersistentStoreRequest", "NSObject"], f)
        return me
    }
}

/// An NSDecimalNumber as NSKeyedArchiver writes it (`NSDecimalNumberPlaceholder`): a mantissa of up to eight
/// 16-bit words, little-endian in 16 bytes, a base-10 exponent, the number of words used and the sign. Apple's
/// `0.0` default is mantissa 0, exponent -1, length 0, not compact.
struct DecimalNumberFields {
    var words: [UInt16]
    var exponent: Int64
    var negative: Bool

    /// Parses `-12.50`, `3e-2` and the like; nil for text that is not a decimal number or does not fit
    /// NSDecimal (38 digits, exponent -128…127).
    init?(_ text: String) {
        var body = Substring(text)
        negative = body.hasPrefix("-")
        if body.hasPrefix("-") || body.hasPrefix("+") { body = body.dropFirst() }
        var exponentPart: Int64 = 0
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int64(body[body.index(after: e)...]) else { return nil }
            exponentPart = value
            body = body[..<e]
        }
        let pieces = body.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, !body.isEmpty else { return nil }
        let integer = pieces[0], fraction = pieces.count == 2 ? pieces[1] : ""
        let digits = Array(integer + fraction)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        let significant = digits.drop(while: { $0 == "0" })
        guard significant.count <= 38 else { return nil }
        exponent = exponentPart - Int64(fraction.count)
        guard (-128...127).contains(exponent) else { return nil }
        // Base-10 digits into base-65536 words, least significant first.
        var words: [UInt16] = []
        for digit in significant {
            var carry = UInt32(digit.wholeNumberValue!)
            for i in words.indices {
                let value = UInt32(words[i]) * 10 + carry
                words[i] = UInt16(value & 0xFFFF)
                carry = value >> 16
            }
            if carry != 0 { words.append(UInt16(carry)) }
        }
        self.words = words
        if words.isEmpty { negative = false }
    }

    func archive(into builder: inout KeyedArchiveBuilder) -> PropertyListValue {
        var mantissa = [UInt8](repeating: 0, count: 16)
        for (i, word) in words.enumerated() {
            mantissa[2 * i] = UInt8(word & 0xFF)
            mantissa[2 * i + 1] = UInt8(word >> 8)
        }
        return builder.object(classes: ["NSDecimalNumberPlaceholder", "NSDecimalNumber", "NSNumber", "NSValue", "NSObject"], [
            "NS.mantissa": .data(mantissa), "NS.mantissa.bo": .int(1), "NS.exponent": .int(exponent),
            "NS.length": .int(Int64(words.count)), "NS.negative": .bool(negative), "NS.compact": .bool(!words.isEmpty),
        ])
    }
}
