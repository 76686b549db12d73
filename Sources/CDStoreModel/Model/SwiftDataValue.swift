/// How SwiftData keeps a value of an app's Swift type in an attribute whose Core Data type says less
/// (coredata-format.md §1.5). Only the Swift sources tell: a store's cached model has the Core Data types alone,
/// and the same cached model can come from different Swift types (an `enum Tier: Int` in `var tier` and a
/// `struct Tier: Codable { var tier: Int }` both give a composite `tier` of one Integer 64 element `tier`).
package enum SwiftDataValue: String, Sendable, Equatable, CaseIterable {
    /// A Composite attribute holding a `RawRepresentable` enum: its one element, named after the property, is
    /// the raw value. The app's value is that raw value (`2`), not an object of one element (`{"tier": 2}`).
    case rawValue
    /// A Binary element of a composite holding a collection of a `Codable` struct (`[String]`, an array of
    /// structs, a dictionary) as the bytes of Foundation's `JSONEncoder` (compact, `/` written `\/`, object keys
    /// in no fixed order). The app's value is that JSON value.
    case json
}

extension Attribute {
    /// Whether this is a composite holding an enum's raw value (``SwiftDataValue/rawValue``) in its one element.
    package var holdsRawValue: Bool {
        type == .composite && swiftDataValue == .rawValue && compositeElements.count == 1
            && compositeElements[0].type != .composite
    }

    /// ``columnAttributes`` named as records give their values: by path, except that a composite holding an
    /// enum's raw value is the value itself (`tier`, not `tier.tier`). Same count and order as
    /// ``columnAttributes``, so the two zip.
    package var recordAttributes: [Attribute] {
        guard type == .composite else { return [self] }
        if holdsRawValue {
            var element = compositeElements[0]
            element.name = name
            if isOptional { element.isOptional = true }
            if isTransient { element.isTransient = true }
            return [element]
        }
        return compositeElements.flatMap { element -> [Attribute] in
            var renamed = element
            renamed.name = name + "." + element.name
            if isOptional { renamed.isOptional = true }
            if isTransient { renamed.isTransient = true }
            return renamed.recordAttributes
        }
    }
}
