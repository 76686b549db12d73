import CDStoreIO
import CDStoreEngine
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
// The primitive requirements of the decoding containers, each forwarding to the generic decode: every type
// here converts through ObjectValueConvertible, so there is one code path.

extension ValueDecoder {
    func decode(_ type: Bool.Type) throws -> Bool { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: String.Type) throws -> String { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try ValueDecoder.decode(type, from: value, codingPath: codingPath) }
}

extension ObjectKeyedContainer {
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try ValueDecoder.decode(type, from: try value(key), codingPath: codingPath + [key]) }
}

extension ValueUnkeyedContainer {
    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let (value, path) = try take()
        return try ValueDecoder.decode(type, from: value, codingPath: path)
    }
}

