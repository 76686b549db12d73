import CDStoreModel
import Foundation
import GRDB

/// Options of an insert.
public struct InsertOptions: Sendable {
    /// Merge a record into the existing object that has the same values for a uniqueness constraint (or for the
    /// mapping's identity attributes) instead of failing, like `NSMergeByPropertyObjectTrumpMergePolicy`.
    public var upsert: Bool
    /// How input keys map to properties (nil: input keys are property names).
    public var mapping: JSONMapping?
    /// Called now and then with the number of records stored so far and the total, for progress displays.
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    public init(upsert: Bool = false, mapping: JSONMapping? = nil,
                progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) {
        self.upsert = upsert
        self.mapping = mapping
        self.progress = progress
    }
}

/// Inserts a graph of objects from nested records within one transaction: nested objects become new
/// related objects, object ID strings and `{"_ref": {…}}` refer to existing ones.
struct GraphInserter {
    let store: Store
    let db: Database
    let options: InsertOptions
    let storage: RelationshipStorage
    var allocator = PrimaryKeyAllocator()
    /// Objects written by this transaction: inserted ones, and existing ones whose rows changed.
    var touched: Set<ObjectRef> = []
    /// Each entity's properties, looked up once per insert rather than once per record.
    private var propertiesByEntity: [String: EntityProperties] = [:]
    var inserted: Set<ObjectRef> = []

    init(store: Store, db: Database, options: InsertOptions) {
        self.store = store
        self.db = db
        self.options = options
        self.storage = RelationshipStorage(model: store.model, layout: store.layout, storeUUID: store.metadata.uuid)
    }

    var model: ManagedObjectModel { store.model }

    /// Inserts (or, with upsert, merges) one object from `fields`, with everything nested in it.
    mutating func insert(_ fields: [(String, InputValue)], as requested: Entity, entityName: String?) throws -> ObjectRef {
        let entity = try concreteEntity(requested, named: entityName ?? stringField(fields, "_entity"))
        guard let entityLayout = store.layout.entity(named: entity.name) else {
            throw StoreError(.unknownName, "no table for this entity", entity: entity.name)
        }
        let properties = propertiesByEntity[entity.name] ?? EntityProperties(entity, in: model)
        propertiesByEntity[entity.name] = properties
        let values = try PropertyValues(fields: fields, entity: entity, model: model,
                                        mapping: options.mapping?.mapping(for: entity, in: model), properties: properties)

        // Related objects first: nested inserts and references resolve to rows before this one is written.
        var toOneTargets: [(RelationshipStorage.Edge, ObjectRef?)] = []
        var toManyTargets: [(RelationshipStorage.Edge, [ObjectRef])] = []
        for (relationship, value) in values.relationships {
            let edge = try storage.edge(relationship.name, of: entity.name)
            if relationship.isToMany {
                guard case .array(let items) = value else {
                    if case .null = value { toManyTargets.append((edge, [])); continue }
                    // A CSV cell holds a to-many as the JSON array of object IDs that CSV output writes (`[]`).
                    if case .string(let text) = value, text.first == "[",
                       let ids = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String] {
                        toManyTargets.append((edge, try ids.map { try resolve(.string($0), edge: edge) }))
                        continue
                    }
                    throw failure(entity, relationship.name, "a to-many relationship takes an array, got \(value.summary)")
                }
                toManyTargets.append((edge, try items.map { try resolve($0, edge: edge) }))
            } else {
                if case .null = value { toOneTargets.append((edge, nil)); continue }
                toOneTargets.append((edge, try resolve(value, edge: edge)))
            }
        }

        // A record that merges into an existing object (upsert) needs only valid given attributes; a new object
        // needs every attribute valid, checked once it is known to be new (so a duplicate is reported as one).
        let mayMerge = !model.uniquenessConstraintsInHierarchy(of: entity).isEmpty
            || !(options.mapping?.mapping(for: entity, in: model).identity.isEmpty ?? true)
        var row = try AttributeRow(values: values.attributes, entity: entity, layout: entityLayout, model: model,
                                   validation: store.validation, validatingMissing: !mayMerge,
                                   attributes: properties.attributes)
        let foreignKeys = Dictionary(toOneTargets.compactMap { edge, target in target.map { (edge.relationship.name, $0.pk) } },
                                     uniquingKeysWith: { a, _ in a })
        let object: ObjectRef
        if mayMerge, let existing = try existingObject(entity: entity, layout: entityLayout, row: row, foreignKeys: foreignKeys) {
            do {
                try row.update(existing, table: entityLayout.table, db: db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                // Merged into the object of one constraint, the values collide with another object on another one.
                throw ConstraintReport.error(for: error, entity: entity, model: model, layout: store.layout,
                                             values: values.attributeInputs)
            }
            object = existing
        } else {
            if mayMerge {
                row = try AttributeRow(values: values.attributes, entity: entity, layout: entityLayout, model: model,
                                       validation: store.validation, attributes: properties.attributes)
            }
            let pk = try allocator.next(for: entityLayout, layout: store.layout, db: db)
            object = ObjectRef(pk: pk, entityNumber: entityLayout.number)
            do {
                try row.insert(object, table: entityLayout.table, db: db)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                throw ConstraintReport.error(for: error, entity: entity, model: model, layout: store.layout,
                                             values: values.attributeInputs)
            }
            inserted.insert(object)
        }
        touched.insert(object)
        do {
            for (edge, target) in toOneTargets {
                touched.formUnion(try storage.setToOne(edge, of: object, to: target, db: db))
            }
            for (edge, targets) in toManyTargets {
                if !inserted.contains(object) { touched.formUnion(try storage.removeAll(from: edge, of: object, db: db)) }
                touched.formUnion(try storage.add(targets, to: edge, of: object, db: db))
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConstraintReport.error(for: error, entity: entity, model: model, layout: store.layout,
                                         values: values.attributeInputs)
        }
        return object
    }

    /// The object a relationship value stands for: a nested object (inserted), an object ID, a `{"_ref": …}`
    /// lookup, or — when the mapping says which destination attribute it names — a scalar key.
    private mutating func resolve(_ value: InputValue, edge: RelationshipStorage.Edge) throws -> ObjectRef {
        let destination = model.entity(named: edge.relationship.destination)!
        let name = edge.relationship.name
        let owner = edge.entity.name
        switch value {
        case .object(let fields):
            if let reference = fields.first(where: { $0.0 == "_ref" }) {
                guard case .object(let criteria) = reference.1, fields.count == 1 else {
                    throw failure(owner, name, "\"_ref\" takes an object of attribute values, alone: {\"_ref\": {\"name\": \"Ann\"}}")
                }
                return try ObjectLookup(store: store, db: db).unique(matching: criteria, in: destination, for: (owner, name))
            }
            return try insert(fields, as: destination, entityName: nil)
        case .string(let text) where text.hasPrefix("x-coredata://"):
            guard let id = ObjectID(uri: text) else { throw failure(owner, name, "'\(text)' is not an object ID") }
            return try ObjectLookup(store: store, db: db).object(id, in: destination, for: (owner, name))
        case .string, .integer, .double, .bool:
            let mapping = options.mapping?.mapping(for: model.entity(named: owner)!, in: model)
            let keyAttribute = mapping?.relatedBy[name]
                ?? options.mapping?.mapping(for: destination, in: model).identity.first
            guard let keyAttribute else {
                throw failure(owner, name, "expected a nested object, an object ID (x-coredata://…) or {\"_ref\": {…}}, "
                              + "got \(value.summary)")
            }
            if let found = try ObjectLookup(store: store, db: db).first(matching: [(keyAttribute, value)], in: destination) {
                return found
            }
            return try insert([(keyAttribute, value)], as: destination, entityName: nil)
        default:
            throw failure(owner, name, "expected a nested object, an object ID or {\"_ref\": {…}}, got \(value.summary)")
        }
    }

    /// An existing object this record must merge into (with upsert) or collide with (without it): one with the
    /// same values for a uniqueness constraint or for the mapping's identity attributes.
    private func existingObject(entity: Entity, layout: EntityLayout, row: AttributeRow,
                                foreignKeys: [String: Int64]) throws -> ObjectRef? {
        // Identity attributes from a JSON mapping always merge, as Groot and MagicalRecord unique API objects by
        // them; uniqueness constraints merge only with --upsert (Core Data's merge policy is the app's choice).
        var keys = model.uniquenessConstraintsInHierarchy(of: entity).map { (properties: $0, merges: options.upsert) }
        if let identity = options.mapping?.mapping(for: entity, in: model).identity, !identity.isEmpty {
            keys.insert((identity, true), at: 0)
        }
        for (key, merges) in keys {
            var conditions: [String] = []
            var arguments: [DatabaseValue] = []
            var described: [String] = []
            for property in key {
                if let column = layout.attributeColumns[property], let value = row.value(of: property), !value.isNull {
                    conditions.append("\(column) = ?")
                    arguments.append(value)
                    let shown = AttributeCoding.objectValue(value, for: model.attribute(property, of: entity)!)
                    described.append("\(property) = " + (shown.isText ? "'\(ValueText.plain(shown))'" : ValueText.plain(shown)))
                } else if let toOne = layout.toOnes[property], let pk = foreignKeys[property] {
                    conditions.append("\(toOne.foreignKey) = ?")
                    arguments.append(pk.databaseValue)
                    described.append("\(property) = p\(pk)")
                } else {
                    conditions = []
                    break
                }
            }
            guard !conditions.isEmpty else { continue }
            let root = store.layout.entity(named: layout.rootName)!
            let sql = "SELECT Z_PK, Z_ENT FROM \(layout.table) WHERE Z_ENT BETWEEN \(root.number) AND \(root.subtreeMax) AND "
                + conditions.joined(separator: " AND ") + " LIMIT 1"
            guard let found = try Row.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) else { continue }
            let object = ObjectRef(pk: found[0], entityNumber: found[1])
            guard merges else {
                throw StoreError(.constraintViolation, "uniqueness constraint (\(key.joined(separator: ", "))) violated: an object "
                                 + "with \(described.joined(separator: ", ")) already exists (\(store.objectID(object))); "
                                 + "use --upsert to merge into it", entity: entity.name)
            }
            return object
        }
        return nil
    }

    private func concreteEntity(_ requested: Entity, named name: String?) throws -> Entity {
        var entity = requested
        if let name, name != requested.name {
            guard let named = model.entity(named: name), model.subtree(of: requested).contains(where: { $0.name == name }) else {
                throw StoreError(.unknownName, "'\(name)' is not \(requested.name) or one of its sub-entities",
                                 entity: requested.name, property: "_entity")
            }
            entity = named
        }
        guard !entity.isAbstract else {
            let concrete = model.subtree(of: entity).filter { !$0.isAbstract }.map(\.name)
            throw StoreError(.invalidInput, "the entity is abstract and cannot have objects of its own"
                             + (concrete.isEmpty ? "" : "; insert one of \(concrete.joined(separator: ", ")) (or set \"_entity\")"),
                             entity: entity.name)
        }
        return entity
    }

    private func stringField(_ fields: [(String, InputValue)], _ key: String) -> String? {
        guard let field = fields.first(where: { $0.0 == key }), case .string(let s) = field.1 else { return nil }
        return s
    }

    private func failure(_ entity: Entity, _ property: String, _ message: String) -> StoreError {
        failure(entity.name, property, message)
    }

    private func failure(_ entity: String, _ relationship: String, _ message: String) -> StoreError {
        StoreError(.invalidInput, message, entity: entity, property: relationship).aboutRelationship()
    }
}

extension ManagedObjectModel {
    /// Uniqueness constraints that apply to objects of `entity`: its own and its ancestors'.
    func uniquenessConstraintsInHierarchy(of entity: Entity) -> [[String]] {
        (ancestors(of: entity) + [entity]).flatMap(\.uniquenessConstraints)
    }
}
