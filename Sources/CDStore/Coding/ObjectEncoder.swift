import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine
import Foundation

/// Encodes an `Encodable` value as the fields of a record to insert: each coding key is a property name; values
/// convert as ``ObjectValueConvertible`` says (`Date` as seconds since 2001, ``ObjectID`` as a reference to an
/// existing object); a nested struct is a new related object, an array of them a to-many of new objects.
///
/// A key `objectID` is left out (it is the object's identity, which the store gives), and so are nil
/// optionals, so that their attributes take the model's default.
enum ObjectEncoder {
    static func fields<T: Encodable>(of value: T) throws -> [(String, InputValue)] {
        let root = EncodingNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        guard case .object(let members) = root.resolved else {
            throw EncodingError.invalidValue(value, .init(codingPath: [],
                debugDescription: "a record encodes as a keyed container (a struct), not \(root.resolved.summary)"))
        }
        return members.filter { $0.0 != "objectID" }
    }
}

/// A value being encoded: containers hand out child nodes before they are filled.
final class EncodingNode {
    enum Content {
        case empty
        case value(InputValue)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }

    var content: Content = .empty

    /// The finished value; nil members (``ObjectEncoder`` leaves them out) are dropped from objects.
    var resolved: InputValue {
        switch content {
        case .empty: return .object([])
        case .value(let value): return value
        case .object(let members):
            return .object(members.compactMap { key, node in
                let value = node.resolved
                if case .null = value { return nil }
                return (key, value)
            })
        case .array(let items): return .array(items.map(\.resolved))
        }
    }

    func child(forKey key: String) -> EncodingNode {
        let node = EncodingNode()
        if case .object(var members) = content {
            members.removeAll { $0.0 == key }
            members.append((key, node))
            content = .object(members)
        } else {
            content = .object([(key, node)])
        }
        return node
    }

    func appendChild() -> EncodingNode {
        let node = EncodingNode()
        if case .array(let items) = content { content = .array(items + [node]) } else { content = .array([node]) }
        return node
    }

    /// Stores `value`: directly when it converts to a stored value, else through its `Encodable` implementation.
    func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
        if let convertible = value as? any ObjectValueConvertible {
            content = .value(convertible.inputValue)
        } else {
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }
}

struct NodeEncoder: Encoder, SingleValueEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(NodeKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return NodeUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
}

struct NodeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

struct NodeUnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey]
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    mutating func encodeNil() throws { node.appendChild().content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.appendChild().encode(value, codingPath: codingPath + [IndexKey(intValue: count)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath)
    }
}
