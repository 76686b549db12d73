import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine
import Foundation

/// Decodes a `Decodable` type from a fetched object: each coding key is a property name; values convert as
/// ``ObjectValueConvertible`` says (so `Date`, `Data`, `UUID`, `URL`, `Decimal` and ``ObjectID`` come out
/// as themselves, not as their `Codable` forms); nested arrays and dictionaries (a Transformable's JSON) decode
/// as containers.
///
/// The key `objectID` (when the object has no property of that name) is the object's own ``ObjectID``.
struct ObjectDecoder: Decoder {
    let object: StoredObject
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ObjectKeyedContainer<Key>(lookup: { key in
            if let value = object.value(forKey: key) { return value }
            return key == "objectID" ? .string(object.objectID.description) : nil
        }, allKeys: object.propertyNames + ["objectID"], codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath,
            debugDescription: "an object decodes as a keyed container (a struct), not an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath,
            debugDescription: "an object decodes as a keyed container (a struct), not a single value"))
    }
}

/// Decodes one value (an element, a nested value): scalars by ``ObjectValueConvertible``, arrays and
/// dictionaries as containers.
struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: ObjectValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let pairs) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath,
                debugDescription: "expected a dictionary, found \(ValueText.plain(value))"))
        }
        let lookup = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        return KeyedDecodingContainer(ObjectKeyedContainer<Key>(lookup: { lookup[$0] }, allKeys: pairs.map(\.0),
                                                                codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath,
                debugDescription: "expected an array, found \(ValueText.plain(value))"))
        }
        return ValueUnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder.decode(type, from: value, codingPath: codingPath)
    }

    /// `value` as a `T`: directly when `T` converts from stored values, else through `T`'s `Decodable`
    /// implementation.
    static func decode<T: Decodable>(_ type: T.Type, from value: ObjectValue, codingPath: [any CodingKey]) throws -> T {
        if let convertible = T.self as? any ObjectValueConvertible.Type {
            guard let converted = convertible.init(objectValue: value) as? T else {
                if case .null = value {
                    throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath, debugDescription: "the value is nil"))
                }
                throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath,
                    debugDescription: "\(ValueText.plain(value)) is not a \(T.self)"))
            }
            return converted
        }
        return try T(from: ValueDecoder(value: value, codingPath: codingPath))
    }
}

/// A keyed container over named values.
struct ObjectKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let lookup: (String) -> ObjectValue?
    let names: [String]
    var codingPath: [any CodingKey]

    init(lookup: @escaping (String) -> ObjectValue?, allKeys: [String], codingPath: [any CodingKey]) {
        self.lookup = lookup
        self.names = allKeys
        self.codingPath = codingPath
    }

    var allKeys: [Key] { names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { lookup(key.stringValue) != nil }

    func value(_ key: Key) throws -> ObjectValue {
        guard let value = lookup(key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath,
                debugDescription: "the object has no property '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = lookup(key.stringValue) else { return true }
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "objects have no super decoder"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: try value(key), codingPath: codingPath + [key])
    }
}

/// An unkeyed container over an array value (a to-many's IDs, a Transformable's JSON array).
struct ValueUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [ObjectValue]
    var codingPath: [any CodingKey]
    var currentIndex = 0

    init(items: [ObjectValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func take() throws -> (ObjectValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no more elements"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [IndexKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if case .null = items[currentIndex] {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try take()
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try take()
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try take()
        return ValueDecoder(value: value, codingPath: path)
    }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}
