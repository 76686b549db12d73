import CDStoreIO
import CDStorePredicate
import CDStoreJSON
import CDStoreModel
import CDStoreEngine
import Foundation

/// An object read from the store: its ID and a snapshot of its attribute and relationship values, with typed
/// access by name in constant time.
///
/// ```swift
/// for employee in try ctx.fetch("Employee", matching: .greaterThanOrEqual("age", 30)) {
///     let name: String? = employee["firstName"]
///     let age = employee.get("age", as: Int.self)         // Int?
///     let department = employee.related("department")    // ObjectID?
///     print(employee.objectID, name ?? "-", age ?? 0, department?.primaryKey ?? 0)
/// }
/// ```
///
/// A to-one relationship reads as the related object's ``ObjectID`` (``related(_:)``), a to-many as the IDs in
/// relationship order (``relatedMany(_:)``). The object is a value: it does not change when the store does.
///
/// Core Data equivalent: an `NSManagedObject` faulted in, read with `value(forKey:)`.
public struct StoredObject: Sendable, ValueReading {
    /// The object's ID (`x-coredata://<store>/<Entity>/p<key>`).
    public let objectID: ObjectID
    /// Attribute values in the model's order, then relationship values.
    public let values: [ObjectValue]
    let keys: ObjectKeys

    init(objectID: ObjectID, values: [ObjectValue], keys: ObjectKeys) {
        self.objectID = objectID
        self.values = values
        self.keys = keys
    }

    /// The name of the object's entity (a sub-entity of the one fetched, possibly).
    public var entity: String { objectID.entity }

    /// Its primary key (`Z_PK`).
    public var primaryKey: Int64 { objectID.primaryKey }

    /// The property names, in the order of ``values``.
    public var propertyNames: [String] { keys.names }

    /// The value of the property called `key`, or nil when the object has no such property (a nil value is
    /// `ObjectValue.null`).
    public func value(forKey key: String) -> ObjectValue? {
        keys.positions[key].map { values[$0] }
    }

    /// The ID of the object a to-one relationship holds; nil when it holds none.
    public func related(_ relationship: String) -> ObjectID? {
        ObjectID(objectValue: value(forKey: relationship) ?? .null)
    }

    /// The IDs of the objects a to-many relationship holds, in relationship order; empty when it holds none.
    public func relatedMany(_ relationship: String) -> [ObjectID] {
        guard case .array(let items)? = value(forKey: relationship) else { return [] }
        return items.compactMap { ObjectID(objectValue: $0) }
    }

    /// Whether `key` names a relationship of the object.
    public func isRelationship(_ key: String) -> Bool { keys.relationships.contains(key) }

    /// The object as a `Decodable` value: properties by name, relationships as ``ObjectID``s, and the object's
    /// own ID under the key `objectID` (when no property has that name).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try CDStoreError.wrapping { try T(from: ObjectDecoder(object: self)) }
    }
}

/// Property names and their positions, shared by every object of one entity in one fetch, so that each object
/// is only its values.
final class ObjectKeys: Sendable {
    let names: [String]
    let positions: [String: Int]
    let relationships: Set<String>

    init(names: [String], relationships: Set<String>) {
        self.names = names
        var positions: [String: Int] = [:]
        for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
        self.positions = positions
        self.relationships = relationships
    }
}

/// Turns the store layer's objects into ``StoredObject``s, building each entity's keys once.
struct StoredObjectFactory {
    let model: ManagedObjectModel
    private var keysByEntity: [String: ObjectKeys] = [:]

    init(model: ManagedObjectModel) { self.model = model }

    mutating func make(_ fetched: FetchedObject, storeUUID: String) -> StoredObject {
        let names = fetched.values.map(\.0)
        let keys: ObjectKeys
        if let known = keysByEntity[fetched.entity], known.names == names {
            keys = known
        } else {
            let relationships = model.entity(named: fetched.entity).map { model.relationships(of: $0).map(\.name) } ?? []
            keys = ObjectKeys(names: names, relationships: Set(relationships))
            keysByEntity[fetched.entity] = keys
        }
        let id = fetched.objectID ?? ObjectID(storeUUID: storeUUID, entity: fetched.entity, primaryKey: fetched.primaryKey)
        return StoredObject(objectID: id, values: fetched.values.map(\.1), keys: keys)
    }
}
