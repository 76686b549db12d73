import CDStoreIO
import CDStoreEngine
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
// The primitive requirements of the encoding containers, each storing the value as the generic encode does.

extension NodeEncoder {
    mutating func encode(_ value: Bool) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: String) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Double) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Float) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Int) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Int8) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Int16) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Int32) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: Int64) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: UInt) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: UInt8) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: UInt16) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: UInt32) throws { node.content = .value(value.inputValue) }
    mutating func encode(_ value: UInt64) throws { node.content = .value(value.inputValue) }
}

extension NodeKeyedContainer {
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Float, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(value.inputValue) }
}

extension NodeUnkeyedContainer {
    mutating func encode(_ value: Bool) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: String) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Double) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Float) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Int) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Int8) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Int16) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Int32) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: Int64) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: UInt) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: UInt8) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: UInt16) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: UInt32) throws { node.appendChild().content = .value(value.inputValue) }
    mutating func encode(_ value: UInt64) throws { node.appendChild().content = .value(value.inputValue) }
}
