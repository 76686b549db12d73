import CDStoreModel

/// SwiftData's mapping of a property's Swift type to an attribute:
///
/// - `Int`, `Int64`, `UInt`, `UInt64` → Integer 64; `Int32`, `UInt32` → Integer 32; `Int16`, `UInt16`, `Int8`,
///   `UInt8` → Integer 16; `Double`, `CGFloat`, `TimeInterval` → Double; `Float` → Float; `String` → String;
///   `Bool` → Boolean; `Date` → Date; `Data` → Binary; `UUID` → UUID; `URL` → URI; `Decimal` → Decimal.
/// - A Codable struct → a Composite attribute whose elements are the struct's stored properties (mapped by
///   these same rules).
/// - An enum with a raw value → a Composite with one element, `rawValue`, of the raw type. UNVERIFIED: no real
///   store with such an enum is at hand (the corpus's two SwiftData stores, CartKit and FreezeRay, have no enum
///   and no composite: checked again for issue 25); the element name is cdstore's reading of the synthesized
///   Codable form. The external check of issue 25 covers stores with enums.
/// - A Codable enum without raw values → a Composite with one optional String element per case (checked on a
///   real store: `folderType {systemAll, user, …}` → columns `ZSYSTEMALL`, `ZUSER`).
/// - An enum with associated values is refused as a property's type, naming the type and the case: a composite
///   has a column per case or for the raw value, and nothing for an associated value. No store in the corpus has
///   one. Inside an array, set or dictionary it is a Codable value like any other (the collection is archived
///   whole), so it is accepted there.
/// - Arrays, sets and dictionaries of storable values → Transformable, `NSSecureUnarchiveFromData`.
///
/// Optionality comes from the Swift type.
struct SwiftAttributeMapping {
    /// Why a type cannot be stored.
    struct Problem: Error {
        var type: String
        var why: String
    }

    let builder: SwiftModelBuilder

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
        let (base, isOptional) = type.unwrapped
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
            attribute.compositeElements = try elements(of: typeName, scope: scope, depth: depth, archived: archived)
            return attribute
        case .array(let element), .set(let element):
            try checkStorable(element, scope: scope, depth: depth)
            return transformable(name, isOptional: isOptional)
        case .dictionary(let key, let value):
            try checkStorable(key, scope: scope, depth: depth)
            try checkStorable(value, scope: scope, depth: depth)
            return transformable(name, isOptional: isOptional)
        case .unsupported(let text, let reason):
            throw Problem(type: text, why: reason)
        case .optional:
            throw Problem(type: base.description, why: "nested optionals have no stored form")
        }
    }

    private func transformable(_ name: String, isOptional: Bool) -> Attribute {
        var attribute = Attribute(name: name, type: .transformable, isOptional: isOptional)
        attribute.valueTransformerName = "NSSecureUnarchiveFromData"
        return attribute
    }

    /// Collection elements must be Codable values themselves (a tuple or function inside an array is refused).
    private func checkStorable(_ type: SwiftTypeReference, scope: [String], depth: Int) throws {
        _ = try attribute("element", type: type, scope: scope, depth: depth + 1, archived: true)
    }

    /// The elements of the composite a struct or enum named `typeName` gives.
    private func elements(of typeName: String, scope: [String], depth: Int, archived: Bool) throws -> [Attribute] {
        guard depth < 8 else {
            throw Problem(type: typeName, why: "its stored properties nest it within itself (or more than 8 deep)")
        }
        let found: SwiftValueType?
        do {
            found = try builder.valueType(typeName, from: scope)
        } catch let error as ModelError {
            throw Problem(type: typeName, why: error.message)
        }
        guard let valueType = found else {
            throw Problem(type: typeName, why: "it is not a @Model class, a standard type SwiftData stores, or a "
                          + "Codable struct or enum declared in these sources")
        }
        guard isCodable(valueType) else {
            throw Problem(type: typeName, why: "a \(valueType.kind == .structure ? "struct" : "enum") must be "
                          + "Codable for SwiftData to store it")
        }
        switch valueType.kind {
        case .structure:
            var elements: [Attribute] = []
            for property in valueType.properties {
                guard let type = property.type else {
                    throw Problem(type: typeName, why: "cannot tell the type of its property '\(property.name)'")
                }
                let inner = valueType.scope + [valueType.name]
                elements.append(try attribute(property.name, type: type, scope: inner, depth: depth + 1,
                                              archived: archived))
            }
            return elements
        case .enumeration:
            if let raw = valueType.inherited.first, let rawType = Self.scalars[raw] {
                return [Attribute(name: "rawValue", type: rawType)]
            }
            if let withValues = valueType.cases.first(where: \.hasAssociatedValues) {
                if archived { return [] }
                throw Problem(type: typeName, why: "its case '\(withValues.name)' has associated values, which "
                              + "SwiftData cannot store as a composite attribute (an enum's columns are its raw value "
                              + "or one per case); store it encoded as Data, or as a Codable struct")
            }
            return valueType.cases.map { Attribute(name: $0.name, type: .string, isOptional: true) }
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
