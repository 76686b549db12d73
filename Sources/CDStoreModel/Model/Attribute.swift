/// An attribute of an entity: everything Xcode's model editor can say about it.
///
/// Limits and defaults are kept as the model file writes them (strings for numbers and string lengths,
/// seconds since 2001-01-01 for dates), so that loading and writing a model never changes it.
///
/// Core Data equivalent: `NSAttributeDescription` (and `NSDerivedAttributeDescription` when
/// ``derivationExpression`` is set).
public struct Attribute: Sendable, Equatable {
    /// The property name, as the app's code uses it.
    public var name: String
    /// The attribute type.
    public var type: AttributeType
    /// Whether the value may be nil (XML `optional="YES"`; absent means required).
    public var isOptional: Bool = false
    /// Transient attributes have no column and no part in the version hash.
    public var isTransient: Bool = false
    /// Read-only attributes (derived attributes are read-only).
    public var isReadOnly: Bool = false
    /// The derivation expression of a derived attribute, as written in the model (XML `derivationExpression`).
    public var derivationExpression: String? = nil
    /// The default value as text (XML `defaultValueString`): numbers as text, Boolean "YES"/"NO".
    public var defaultValue: String? = nil
    /// The default value of a Date attribute, in seconds since 2001-01-01 (XML `defaultDateTimeInterval`).
    public var defaultDateTimeInterval: Double? = nil
    /// Minimum value (numbers) or minimum length (strings, binary data), as text (XML `minValueString`).
    public var minValue: String? = nil
    /// Maximum value (numbers) or maximum length (strings, binary data), as text (XML `maxValueString`).
    public var maxValue: String? = nil
    /// Earliest allowed date, seconds since 2001-01-01 (XML `minDateTimeInterval`).
    package var minDateTimeInterval: Double? = nil
    /// Latest allowed date, seconds since 2001-01-01 (XML `maxDateTimeInterval`).
    package var maxDateTimeInterval: Double? = nil
    /// A regular expression every string value must match as a whole (XML `regularExpressionString`).
    public var regularExpression: String? = nil
    /// Whether generated code uses a scalar type; no effect on storage (XML `usesScalarValueType`).
    package var usesScalarValueType: Bool? = nil
    /// The value transformer of a Transformable attribute (XML `valueTransformerName`).
    public var valueTransformerName: String? = nil
    /// The class generated code uses for a Transformable attribute (XML `customClassName`).
    package var customClassName: String? = nil
    /// Binary data may live in files beside the store (XML `allowsExternalBinaryDataStorage`).
    public var allowsExternalBinaryDataStorage: Bool = false
    /// Persistent history keeps the value after deletion (XML `preserveAfterDeletion`).
    package var preservesValueInHistoryOnDeletion: Bool = false
    /// Indexed by Spotlight (XML `spotlightIndexingEnabled`).
    package var isIndexedBySpotlight: Bool = false
    /// Stored in the external record (XML `storedInTruthFile`).
    package var isStoredInExternalRecord: Bool = false
    /// Encrypted in CloudKit (XML `allowsCloudEncryption`).
    package var allowsCloudEncryption: Bool = false
    /// The legacy per-attribute index flag (XML `indexed`).
    public var isIndexed: Bool = false
    /// The name of the composite type of a Composite attribute (XML `composite`).
    package var compositeName: String? = nil
    /// The elements of a Composite attribute (`NSCompositeAttributeDescription.elements`), each an attribute
    /// of its own (a SwiftData Codable struct's stored properties). Core Data flattens them into columns of the
    /// entity's table and hashes the composite from them alone; empty for every other type.
    public var compositeElements: [Attribute] = []
    /// What the app's Swift type makes of the stored value, for a model read from SwiftData `@Model` sources
    /// (``SwiftDataValue``): records print and take the app's value rather than the columns' form. Nil for
    /// models from any other source; not part of the version hash, an Xcode model or a store's cached model.
    package var swiftDataValue: SwiftDataValue? = nil
    /// The attribute's name in an earlier model version, for migration (XML `elementID`).
    package var renamingIdentifier: String? = nil
    /// Text mixed into the version hash to force a new version (XML `versionHashModifier`).
    package var versionHashModifier: String? = nil
    /// Whether the attribute is marked syncable (XML `syncable`); kept only so models round-trip.
    package var syncable: Bool? = nil
    /// Free-form key/value pairs (XML `userInfo`).
    package var userInfo: [String: String] = [:]

    /// Creates an attribute; every other setting takes its XML default.
    public init(name: String, type: AttributeType, isOptional: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }

    /// Whether this is a derived attribute (`NSDerivedAttributeDescription`).
    public var isDerived: Bool { derivationExpression != nil }
}
