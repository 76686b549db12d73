import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreEngine
import Foundation

extension CDStore.Context {
    /// Inserts a new object of `entity` and returns its ID; with `upsert`, puts `values` into the object that has
    /// the same values for a uniqueness constraint instead, when there is one.
    ///
    /// ```swift
    /// let ann = try ctx.insert("Employee", ["employeeNumber": 7, "firstName": "Ann", "lastName": "Moreau",
    ///                                       "hiredAt": Date(), "department": deptID])
    /// ```
    ///
    /// Attributes take Swift values (``ObjectValueConvertible``); a relationship takes the ``ObjectID`` of an
    /// existing object (an array of them for a to-many). Missing attributes take the model's default. The
    /// object is validated as Core Data validates on save — required values (``CDStoreError/Code/missingValue``),
    /// ranges, lengths and patterns (``CDStoreError/Code/validation``), uniqueness constraints
    /// (``CDStoreError/Code/constraintViolation``, unless `upsert`), relationship counts — and a failure changes
    /// nothing.
    ///
    /// Core Data equivalent: `NSEntityDescription.insertNewObject(forEntityName:into:)`, setting each value;
    /// `upsert` is saving with `NSMergeByPropertyObjectTrumpMergePolicy`.
    @discardableResult
    public func insert(_ entity: String, _ values: [String: (any ObjectValueConvertible)?], upsert: Bool = false) throws -> ObjectID {
        try insert(records: [Self.record(values)], into: entity, upsert: upsert)[0]
    }

    /// Inserts an `Encodable` value as a new object of `entity` (an ``EntityRecord`` names its own: `entity`
    /// defaults to `T.entityName`) and returns its ID: each coding key is a property name (a key `objectID` is
    /// left out), nil optionals take the model's default, ``ObjectID`` values set relationships, and nested structs
    /// become new related objects. With `upsert`, as ``insert(_:_:upsert:)``.
    ///
    /// ```swift
    /// struct Employee: Codable { var employeeNumber: Int; var firstName, lastName: String; var age: Int? }
    /// let id = try ctx.insert(Employee(employeeNumber: 8, firstName: "Bo", lastName: "Li", age: 41), into: "Employee")
    /// ```
    @discardableResult
    public func insert<T: Encodable>(_ record: T, into entity: String? = nil, upsert: Bool = false) throws -> ObjectID {
        try insert([record], into: entity, upsert: upsert)[0]
    }

    /// Inserts `Encodable` values as new objects of `entity` (by default `T.entityName`, for an ``EntityRecord``),
    /// in one savepoint (all or none), and returns their IDs in order. A failure names the record (1-based) in
    /// ``CDStoreError/record``.
    @discardableResult
    public func insert<T: Encodable>(_ records: [T], into entity: String? = nil, upsert: Bool = false) throws -> [ObjectID] {
        let name = try Self.entityName(of: T.self, entity, argument: "into")
        let encoded = try perform { try records.map { InputRecord(fields: try ObjectEncoder.fields(of: $0)) } }
        return try insert(records: encoded, into: name, upsert: upsert)
    }

    /// Inserts store-layer records (JSON values: nested objects, `{"_ref": {…}}` references, object ID strings)
    /// and returns the IDs of the objects they became.
    @discardableResult
    package func insert(records: [InputRecord], into entity: String, upsert: Bool = false) throws -> [ObjectID] {
        let collected = IDCollector()
        _ = try perform(writing: true) {
            try store.insert(records, into: entity, options: InsertSettings(upsert: upsert, onInsert: collected.add))
        }
        return collected.ids
    }

    /// Sets attributes and relationships of one object; false when the store has no object with this ID.
    ///
    /// ```swift
    /// try ctx.update(annID, set: ["salary": 75_000, "department": salesID])   // a to-one: an ObjectID or nil
    /// try ctx.update(salesID, set: ["employees": [annID, boID]])              // a to-many: all its objects
    /// ```
    ///
    /// A relationship takes an ``ObjectID`` (nil clears a to-one) or, for a to-many, the array of every object
    /// it should hold; inverses follow, and delete rules do not apply (objects let go are not deleted).
    ///
    /// Core Data equivalent: `setValue(_:forKey:)` on the object, then `save()`.
    @discardableResult
    public func update(_ id: ObjectID, set values: [String: (any ObjectValueConvertible)?]) throws -> Bool {
        let entity = try perform { try store.resolveEntity(id.entity) }
        let relationshipNames = Set(store.model.relationships(of: entity).map(\.name))
        let attributes = values.filter { !relationshipNames.contains($0.key) }
        let relationships = values.filter { relationshipNames.contains($0.key) }
        guard try object(id) != nil else { return false }
        return try perform(writing: true) {
            if !attributes.isEmpty {
                _ = try store.update(UpdateRequest(entity: id.entity, predicate: Self.identity(id),
                                                   assignments: Self.assignments(attributes), includesSubentities: false))
            }
            for (name, value) in relationships.sorted(by: { $0.key < $1.key }) {
                try store.setRelationship(name, of: id, to: try Self.objectIDs(value, for: name, of: id.entity))
            }
            return true
        }
    }

    /// The objects a relationship value names: nil, an ``ObjectID`` or an array of them.
    static func objectIDs(_ value: (any ObjectValueConvertible)?, for relationship: String, of entity: String) throws -> [ObjectID] {
        switch value {
        case nil: return []
        case let id as ObjectID: return [id]
        case let id as ObjectID?: return id.map { [$0] } ?? []
        case let ids as [ObjectID]: return ids
        default:
            throw CDStoreError(.invalidInput, "a relationship takes ObjectIDs, got \(String(describing: value!))",
                               entity: entity, property: relationship, isRelationship: true)
        }
    }

    /// Deletes one object (and what its Cascade rules reach); false when the store has no object with this ID.
    @discardableResult
    public func delete(_ id: ObjectID) throws -> Bool {
        let request = ObjectFetchRequest(entity: id.entity, includesSubentities: false, primaryKeys: [id.primaryKey])
        return try perform(writing: true) { try store.delete(request).requested > 0 }
    }

    /// A record of Swift values.
    static func record(_ values: [String: (any ObjectValueConvertible)?]) -> InputRecord {
        InputRecord(fields: values.sorted { $0.key < $1.key }.map { ($0.key, $0.value?.inputValue ?? .null) })
    }

    static func assignments(_ values: [String: (any ObjectValueConvertible)?]) -> [UpdateAssignment] {
        values.sorted { $0.key < $1.key }.map { UpdateAssignment($0.key, .literal($0.value?.inputValue ?? .null)) }
    }

    /// `SELF == <id>`: the one object.
    static func identity(_ id: ObjectID) -> PredicateNode {
        .comparison(PredicateComparison(left: .evaluatedObject, op: .equal, right: .constant(.string(id.description))))
    }
}

/// Gathers the IDs an insert reports, in order.
final class IDCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [ObjectID] = []

    var ids: [ObjectID] { lock.withLock { collected } }

    @Sendable func add(_ id: ObjectID) { lock.withLock { collected.append(id) } }
}
