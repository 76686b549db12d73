/// The type of an attribute, spelled as Xcode's model editor spells it.
///
/// The raw value is the `attributeType` string of the Xcode model XML ("Integer 16", "String", …);
/// ``code`` is the `NSAttributeType` number that compiled models and version hashes use.
///
/// Core Data equivalent: `NSAttributeDescription.AttributeType`.
public enum AttributeType: String, CaseIterable, Sendable, Codable {
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    case composite = "Composite"

    /// The `NSAttributeType` raw value (100 for Integer 16 … 2100 for Composite).
    package var code: Int32 {
        switch self {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .composite: 2100
        }
    }

    /// The type whose `NSAttributeType` raw value is `code`, if any.
    package init?(code: Int) {
        guard let type = AttributeType.allCases.first(where: { Int($0.code) == code }) else { return nil }
        self = type
    }

    /// Whether values of this type are whole numbers (Boolean is not counted).
    package var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }

    /// Whether values of this type are numbers of any kind (integers, Decimal, Double, Float).
    package var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The closed range an integer attribute of this type can hold, or nil for non-integer types.
    package var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}

/// What happens to related objects when an object is deleted.
///
/// Core Data equivalent: `NSDeleteRule`. The raw value is the XML spelling.
public enum DeleteRule: String, CaseIterable, Sendable, Codable {
    case noAction = "No Action"
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"

    /// The `NSDeleteRule` raw value (0 no action, 1 nullify, 2 cascade, 3 deny).
    package var code: Int {
        switch self {
        case .noAction: 0
        case .nullify: 1
        case .cascade: 2
        case .deny: 3
        }
    }

    /// The rule whose `NSDeleteRule` raw value is `code`, if any.
    package init?(code: Int) {
        guard let rule = DeleteRule.allCases.first(where: { $0.code == code }) else { return nil }
        self = rule
    }
}
