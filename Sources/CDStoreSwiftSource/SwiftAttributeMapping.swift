import CDStoreModel

/// SwiftData's mapping of a property's Swift type to an attribute:
///
/// - `Int`, `Int64`, `UInt`, `UInt64` → Integer 64; `Int32`, `UInt32` → Integer 32; `Int16`, `UInt16`, `Int8`,
///   `UInt8` → Integer 16; `Double`, `CGFloat`, `TimeInterval` → Double; `Float` → Float; `String` → String;
///   `Bool` → Boolean; `Date` → Date; `Data` → Binary; `UUID` → UUID; `URL` → URI; `Decimal` → Decimal.
/// - A Codable struct → a Composite attribute whose elements are the struct's stored properties (mapped by
///   these same rules), every element optional whatever its Swift type, and a collection inside it a Binary
///   element (SwiftData keeps it as JSON bytes) rather than a Transformable one, marked
///   ``SwiftDataValue/json`` so that records show the JSON value.
/// - An enum with a raw value → a Composite with one optional element named after the property itself (not
///   `rawValue`), of the raw type: `var tier: Tier?` with `enum Tier: Int` gives the element `tier`, Integer 64,
///   and so the column `ZTIER` holding the raw value. Checked on a real SwiftData store with the app's sources
///   (coredata-format.md §1.5): its cached model and its columns say so, and its hashes follow from it. Marked
///   ``SwiftDataValue/rawValue``: records give the raw value (`2`), as the app's property holds it.
/// - A Codable enum without raw values → a Composite with one optional String element per case (checked on a
///   real store: `folderType {systemAll, user, …}` → columns `ZSYSTEMALL`, `ZUSER`).
/// - An enum with associated values is refused as a property's type, naming the type and the case: SwiftData
///   flattens the case and its values into the record, but no store in the corpus has one, so which columns it
///   makes is not known here. Inside an array, set or dictionary it is a Codable value like any other (the
///   collection is archived whole), so it is accepted there; so is a Codable class that is not a model.
/// - Arrays, sets and dictionaries of storable values → Transformable, `NSSecureUnarchiveFromData`.
///
/// Optionality comes from the Swift type.
struct SwiftAttributeMapping {
    /// Why a type cannot be stored, or (`isCDStoreLimit`) why cdstore cannot tell how SwiftData stores it.
    struct Problem: Error {
        var type: String
        var why: String
        var isCDStoreLimit = false
    }

    let builder: SwiftModelBuilder

    /// Value types and collections nest at most this deep.
    static let nestingLimit = 8

    static let scalars: [String: AttributeType] = [
        "Int": .integer64, "Int64": .integer64, "UInt": .integer64, "UInt64": .integer64,
        "Int32": .integer32, "UInt32": .integer32,
        "Int16": .integer16, "UInt16": .integer16, "Int8": .integer16, "UInt8": .integer16,
        "Double": .double, "Float64": .double, "CGFloat": .double, "TimeInterval": .double,
        "Float": .float, "Float32": .float,
        "String": .string, "Substring": .string, "Character": .string,
        "Bool": .boolean, "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri, "Decimal": .decimal,
    ]

    /// The attribute for a property `name` of Swift type `type`, seen from inside `scope`.
    /// `archived`: the value is inside a collection, which SwiftData archives whole, so it need not map to columns.
    func attribute(_ name: String, type: SwiftTypeReference, scope: [String], depth: Int = 0,
                   archived: Bool = false) throws -> Attribute {
        // A collection of itself through an alias (`typealias D = [D]`) would otherwise recurse without end.
        guard depth < Self.nestingLimit else {
            throw Problem(type: type.description, why: "it nests within itself (or more than \(Self.nestingLimit) deep)")
        }
        let (base, isOptional) = builder.resolvingAliases(type, from: scope).unwrapped
        switch base {
        case .named(let typeName, let arguments):
            if let scalar = Self.scalars[typeName], arguments.isEmpty {
                return Attribute(name: name, type: scalar, isOptional: isOptional)
            }
            guard arguments.isEmpty else {
                throw Problem(type: base.description, why: "a generic type has no single stored form")
            }
            var attribute = Attribute(name: name, type: .composite, isOptional: isOptional)
            attribute.compositeName = typeName
            (attribute.compositeElements, attribute.swiftDataValue) = try elements(
                of: typeName, propertyName: name, scope: scope, depth: depth, archived: archived)
            return attribute
        case .array(let element), .set(let element):
            try checkStorable(element, scope: scope, depth: depth)
            return collection(name, isOptional: isOptional, inComposite: depth > 0 && !archived)
        case .dictionary(let key, let value):
            try checkStorable(key, scope: scope, depth: depth)
            try checkStorable(value, scope: scope, depth: depth)
            return collection(name, isOptional: isOptional, inComposite: depth > 0 && !archived)
        case .unsupported(let text, let reason):
            throw Problem(type: text, why: reason, isCDStoreLimit: reason == SwiftTypeReference.unknownForm)
        case .optional:
            throw Problem(type: base.description, why: "nested optionals have no stored form")
        }
    }

    /// A collection: a property of the class is archived whole (Transformable, `NSSecureUnarchiveFromData`); an
    /// element of a composite is a Binary column holding the collection as JSON (marked so: records show the JSON).
    private func collection(_ name: String, isOptional: Bool, inComposite: Bool) -> Attribute {
        if inComposite {
            var attribute = Attribute(name: name, type: .binary, isOptional: isOptional)
            attribute.swiftDataValue = .json
            return attribute
        }
        var attribute = Attribute(name: name, type: .transformable, isOptional: isOptional)
        attribute.valueTransformerName = "NSSecureUnarchiveFromData"
        return attribute
    }

    /// Collection elements must be Codable values themselves (a tuple or function inside an array is refused).
    private func checkStorable(_ type: SwiftTypeReference, scope: [String], depth: Int) throws {
        _ = try attribute("element", type: type, scope: scope, depth: depth + 1, archived: true)
    }

    /// The elements of the composite a struct or enum named `typeName` gives to the property `propertyName`, and
    /// ``SwiftDataValue/rawValue`` for an enum with a raw value (records give the raw value, not the element).
    private func elements(of typeName: String, propertyName: String, scope: [String], depth: Int,
                          archived: Bool) throws -> ([Attribute], SwiftDataValue?) {
        guard depth < Self.nestingLimit else {
            throw Problem(type: typeName, why: "its stored properties nest it within itself (or more than "
                          + "\(Self.nestingLimit) deep)")
        }
        let found: SwiftValueType?
        do {
            found = try builder.valueType(typeName, from: scope)
        } catch let error as ModelError {
            throw Problem(type: typeName, why: error.message, isCDStoreLimit: true)
        }
        guard let valueType = found else {
            throw Problem(type: typeName, why: "these sources do not declare it (cdstore reads @Model classes, the "
                          + "standard types SwiftData stores, and Codable structs and enums from the sources it is "
                          + "given: add the file that declares '\(typeName)')", isCDStoreLimit: true)
        }
        guard isCodable(valueType) else {
            throw Problem(type: typeName, why: "\(valueType.kind == .enumeration ? "an enum" : valueType.kind == .structure ? "a struct" : "a class") must be "
                          + "Codable for SwiftData to store it, and these sources declare no conformance to Codable")
        }
        switch valueType.kind {
        case .plainClass:
            // Inside a collection it is archived with the collection; as a property of its own, no real store has
            // shown whether SwiftData makes columns of its stored properties as it does for a struct.
            if archived { return ([], nil) }
            throw Problem(type: typeName, why: "it is a Codable class, whose columns no real store has shown cdstore; "
                          + "an array of it is archived whole, and a struct is stored by its properties",
                          isCDStoreLimit: true)
        case .structure:
            var elements: [Attribute] = []
            for property in valueType.properties {
                guard let type = property.type else {
                    throw Problem(type: typeName, why: "cannot tell the type of its property '\(property.name)'",
                                  isCDStoreLimit: true)
                }
                let inner = valueType.scope + [valueType.name]
                var element = try attribute(property.name, type: type, scope: inner, depth: depth + 1, archived: archived)
                element.isOptional = true
                elements.append(element)
            }
            return (elements, nil)
        case .enumeration:
            if let raw = valueType.inherited.first, let rawType = Self.scalars[raw] {
                return ([Attribute(name: propertyName, type: rawType, isOptional: true)], .rawValue)
            }
            if let withValues = valueType.cases.first(where: \.hasAssociatedValues) {
                if archived { return ([], nil) }
                throw Problem(type: typeName, why: "its case '\(withValues.name)' has associated values, which "
                              + "SwiftData flattens into the record in a layout no real store has shown cdstore; "
                              + "store it encoded as Data, or as a Codable struct", isCDStoreLimit: true)
            }
            return (valueType.cases.map { Attribute(name: $0.name, type: .string, isOptional: true) }, nil)
        }
    }

    /// Whether the type conforms to Codable, directly, through an extension, or through a protocol of the sources.
    private func isCodable(_ valueType: SwiftValueType) -> Bool {
        var pending = valueType.inherited
            + (builder.declarations.extensionConformances[valueType.name] ?? [])
            + (builder.declarations.extensionConformances[valueType.qualifiedName] ?? [])
        var seen: Set<String> = []
        var encodable = false, decodable = false
        while let name = pending.popLast() {
            guard seen.insert(name).inserted else { continue }
            switch name {
            case "Codable": return true
            case "Encodable": encodable = true
            case "Decodable": decodable = true
            default: pending += builder.declarations.protocols[name] ?? []
            }
        }
        return encodable && decodable
    }
}
