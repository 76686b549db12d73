import CDStorePredicate
import CDStoreEngine

/// A composite attribute's value (a SwiftData Codable struct, an Xcode 15 composite type): its elements by name.
///
/// ```swift
/// try ctx.insert("Person", ["name": "Ann", "home": ["street": "1 Rue de Rivoli", "city": "Paris"]])
/// let home: [String: String?]? = person["home"]
/// ```
///
/// Compare one element in a predicate (`home.city == %@`): a whole composite is no predicate constant, and is
/// passed as nil.
extension Dictionary: ObjectValueConvertible where Key == String, Value: ObjectValueConvertible {
    /// The elements in name order; as a predicate constant, nil (predicates compare a composite's elements, not
    /// the composite).
    public var objectValue: ObjectValue {
        .dictionary(keys.sorted().map { ($0, self[$0]!.objectValue) })
    }

    /// The elements of a fetched composite; nil when the value is not one or an element is not a `Value`.
    public init?(objectValue: ObjectValue) {
        guard case .dictionary(let members) = objectValue else { return nil }
        var result: [String: Value] = [:]
        for (key, value) in members {
            guard let element = Value(objectValue: value) else { return nil }
            result[key] = element
        }
        self = result
    }
}

extension Dictionary: RecordFieldConvertible where Key == String, Value: ObjectValueConvertible {
    /// The elements as a record object, each element as it would be a field of its own (a date as seconds since
    /// 2001, not tagged as inside a Transformable value).
    var recordField: InputValue {
        .object(keys.sorted().map { ($0, self[$0]!.inputValue) })
    }
}
