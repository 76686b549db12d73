import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreEngine
import Foundation

/// A Swift type that attribute values are read as and written from, and that predicates take as arguments:
/// `String`, the integer types, `Double`, `Float`, `Decimal`, `Bool`, `Date`, `Data`, `UUID`, `URL`,
/// ``ObjectID`` (relationships), and optionals and arrays of them.
///
/// ```swift
/// let age: Int? = employee["age"]
/// try ctx.fetch("Employee", matching: try Criteria("hiredAt > %@ AND department == %@", someDate, deptID))
/// try ctx.insert("Employee", ["firstName": "Ann", "hiredAt": Date(), "department": deptID])
/// ```
///
/// Conform your own types (an enum stored as its raw value, say) by converting to and from one of these.
///
/// Core Data equivalent: the Objective-C classes an attribute's value has (`NSString`, `NSNumber`, `NSDate`,
/// `NSData`, `NSUUID`, `NSURL`, `NSDecimalNumber`, `NSManagedObjectID`).
public protocol ObjectValueConvertible: Sendable {
    /// The value as a store value: what inserts and updates write (read by the attribute's type) and what
    /// predicates compare with.
    var objectValue: ObjectValue { get }
    /// The Swift value of a fetched value, or nil when it is not one of this type (a string for an `Int`).
    init?(objectValue: ObjectValue)
}

extension ObjectValueConvertible {
    /// The value as a record field for inserts and updates, read by the attribute's type as JSON is.
    var inputValue: InputValue { (self as? any RecordFieldConvertible)?.recordField ?? objectValue.inputValue }
    /// The value as a predicate constant.
    var predicateValue: PredicateValue { objectValue.predicateValue }

    /// The value bound to a `%@` (or `%K`, `%d`, `%f`) in a predicate format.
    var formatArgument: FormatArgument {
        switch predicateValue {
        case .string(let text): .string(text)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .bool(let value): .bool(value)
        case .date(let value): .date(value)
        case .null: .null
        case .array(let values): .array(values)
        }
    }
}

extension String: ObjectValueConvertible {
    public var objectValue: ObjectValue { .string(self) }
    public init?(objectValue: ObjectValue) {
        switch objectValue {
        case .string(let text): self = text
        case .uuid(let uuid): self = uuid.uuidString
        default: return nil
        }
    }
}

extension Bool: ObjectValueConvertible {
    public var objectValue: ObjectValue { .bool(self) }
    public init?(objectValue: ObjectValue) {
        switch objectValue {
        case .bool(let value): self = value
        case .integer(let value): self = value != 0
        default: return nil
        }
    }
}

extension Double: ObjectValueConvertible {
    public var objectValue: ObjectValue { .double(self) }
    public init?(objectValue: ObjectValue) {
        switch objectValue {
        case .double(let value), .decimal(let value): self = value
        case .float(let value): self = Double(value)
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Float: ObjectValueConvertible {
    public var objectValue: ObjectValue { .float(self) }
    public init?(objectValue: ObjectValue) {
        switch objectValue {
        case .float(let value): self = value
        case .double(let value), .decimal(let value): self = Float(value)
        case .integer(let value): self = Float(value)
        default: return nil
        }
    }
}

extension Decimal: ObjectValueConvertible {
    public var objectValue: ObjectValue { .decimal(NSDecimalNumber(decimal: self).doubleValue) }
    public init?(objectValue: ObjectValue) {
        switch objectValue {
        // Through the shortest text that reads back to the stored Double: 0.1 is 0.1, not 0.1000000000000000055….
        case .decimal(let value), .double(let value):
            guard let decimal = Decimal(string: ValueText.number(value), locale: Locale(identifier: "en_US_POSIX")) else {
                return nil
            }
            self = decimal
        case .float(let value): self = Decimal(Double(value))
        case .integer(let value): self = Decimal(value)
        default: return nil
        }
    }
}

extension Date: ObjectValueConvertible {
    public var objectValue: ObjectValue { .date(timeIntervalSinceReferenceDate) }
    public init?(objectValue: ObjectValue) {
        guard case .date(let seconds) = objectValue else { return nil }
        self = Date(timeIntervalSinceReferenceDate: seconds)
    }
}

extension Data: ObjectValueConvertible {
    public var objectValue: ObjectValue { .data(self) }
    public init?(objectValue: ObjectValue) {
        guard case .data(let data) = objectValue else { return nil }
        self = data
    }
}

extension UUID: ObjectValueConvertible {
    public var objectValue: ObjectValue { .uuid(self) }
    public init?(objectValue: ObjectValue) {
        switch objectValue {
        case .uuid(let uuid): self = uuid
        case .string(let text):
            guard let uuid = UUID(uuidString: text) else { return nil }
            self = uuid
        default: return nil
        }
    }
}

extension URL: ObjectValueConvertible {
    public var objectValue: ObjectValue { .string(absoluteString) }
    public init?(objectValue: ObjectValue) {
        guard case .string(let text) = objectValue, let url = URL(string: text) else { return nil }
        self = url
    }
}

extension ObjectID: ObjectValueConvertible {
    public var objectValue: ObjectValue { .string(description) }
    public init?(objectValue: ObjectValue) {
        guard case .string(let text) = objectValue, let id = ObjectID(uri: text) else { return nil }
        self = id
    }
}

extension Optional: ObjectValueConvertible where Wrapped: ObjectValueConvertible {
    public var objectValue: ObjectValue { self?.objectValue ?? .null }
    /// Nil for a nil value; fails when the value is there but not a `Wrapped`.
    public init?(objectValue: ObjectValue) {
        if case .null = objectValue {
            self = .none
            return
        }
        guard let value = Wrapped(objectValue: objectValue) else { return nil }
        self = .some(value)
    }
}

extension Array: ObjectValueConvertible where Element: ObjectValueConvertible {
    public var objectValue: ObjectValue { .array(map(\.objectValue)) }
    public init?(objectValue: ObjectValue) {
        guard case .array(let values) = objectValue else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(objectValue: value) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}

/// A value whose record field is not its ``ObjectValueConvertible/objectValue``'s: a composite's dictionary,
/// whose elements are fields of their own rather than the members of a Transformable value.
protocol RecordFieldConvertible {
    /// The value as a record field.
    var recordField: InputValue { get }
}
