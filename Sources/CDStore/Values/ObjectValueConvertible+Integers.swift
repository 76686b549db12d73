import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreEngine

/// The integer types read a value only when it fits: 70000 is not an `Int16`, 1.5 is not an `Int`.
extension ObjectValueConvertible where Self: FixedWidthInteger {
    /// An integer, or (a `UInt64` past `Int64.max`) the nearest double.
    public var objectValue: ObjectValue {
        Int64(exactly: self).map(ObjectValue.integer) ?? .double(Double(self))
    }

    public init?(objectValue: ObjectValue) {
        switch objectValue {
        case .integer(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .double(let value), .decimal(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .float(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .bool(let value):
            self = value ? 1 : 0
        default:
            return nil
        }
    }
}

extension Int: ObjectValueConvertible {}
extension Int8: ObjectValueConvertible {}
extension Int16: ObjectValueConvertible {}
extension Int32: ObjectValueConvertible {}
extension Int64: ObjectValueConvertible {}
extension UInt: ObjectValueConvertible {}
extension UInt8: ObjectValueConvertible {}
extension UInt16: ObjectValueConvertible {}
extension UInt32: ObjectValueConvertible {}
extension UInt64: ObjectValueConvertible {}
