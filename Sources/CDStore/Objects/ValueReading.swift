import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine
import Foundation

/// Typed reads of named values, shared by fetched objects (``StoredObject``) and projection results
/// (``ProjectionRow``).
///
/// `get(_:as:)` and the typed subscript return nil both for a nil value and for a value of another type; use
/// ``value(forKey:)`` to tell them apart.
public protocol ValueReading {
    /// The value called `key`, or nil when there is no such key.
    func value(forKey key: String) -> ObjectValue?
}

extension ValueReading {
    /// The raw value called `key` (nil when there is no such key): `obj["photo"]`.
    public subscript(_ key: String) -> ObjectValue? { value(forKey: key) }

    /// The value called `key` as a `T`, or nil: `obj["firstName"] as String?`.
    public subscript<T: ObjectValueConvertible>(_ key: String) -> T? { value(forKey: key).flatMap { T(objectValue: $0) } }

    /// The value called `key` as a `T`, or nil: `obj.get("hiredAt", as: Date.self)`.
    public func get<T: ObjectValueConvertible>(_ key: String, as type: T.Type = T.self) -> T? {
        value(forKey: key).flatMap { T(objectValue: $0) }
    }

    // Shorthands for the project's own code and tests. Not public: `get(_:as:)` and the typed subscript say the same
    // for every type, so the public surface keeps one way to read a value (docs/decisions/0001-layers.md).

    /// A String (or URI) attribute's value.
    package func string(_ key: String) -> String? { get(key) }
    /// An integer attribute's value (Integer 16, 32 or 64; nil when it does not fit an `Int`).
    package func int(_ key: String) -> Int? { get(key) }
    /// An integer attribute's value as an `Int64`.
    package func int64(_ key: String) -> Int64? { get(key) }
    /// A Double (or any number) attribute's value.
    package func double(_ key: String) -> Double? { get(key) }
    /// A Float attribute's value.
    package func float(_ key: String) -> Float? { get(key) }
    /// A Decimal attribute's value (Core Data keeps decimals as SQLite REAL, with a Double's precision).
    package func decimal(_ key: String) -> Decimal? { get(key) }
    /// A Boolean attribute's value.
    package func bool(_ key: String) -> Bool? { get(key) }
    /// A Date attribute's value.
    package func date(_ key: String) -> Date? { get(key) }
    /// A Binary attribute's value.
    package func data(_ key: String) -> Data? { get(key) }
    /// A UUID attribute's value.
    package func uuid(_ key: String) -> UUID? { get(key) }
    /// A URI attribute's value.
    package func url(_ key: String) -> URL? { get(key) }
    /// Whether the value called `key` is nil (true also when there is no such key).
    public func isNull(_ key: String) -> Bool {
        guard let value = value(forKey: key) else { return true }
        if case .null = value { return true }
        return false
    }
}
