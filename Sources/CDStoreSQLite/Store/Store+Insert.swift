import CDStoreModel
import Foundation
import GRDB

extension Store {
    /// Inserts `records` as new objects of `entityName` (or of the sub-entity a record names with `"_entity"`),
    /// all in one transaction: either every record is stored or none is.
    ///
    /// Missing attributes take the model's default value; every value is converted and validated against the
    /// model before anything is written. Returns the number of objects inserted.
    ///
    /// Core Data equivalent: `NSEntityDescription.insertNewObject(forEntityName:into:)` for each record, then
    /// `save()`.
    @discardableResult
    public func insert(_ records: [InputRecord], into entityName: String) throws -> Int {
        let entity = try resolveEntity(entityName)
        return try write { db in
            var allocator = PrimaryKeyAllocator()
            for (index, record) in records.enumerated() {
                do {
                    try insert(record, entity: entity, db: db, allocator: &allocator)
                } catch let error as StoreError {
                    throw error.at(record: index + 1, line: record.line)
                }
            }
            try allocator.save(db)
            return records.count
        }
    }

    private func insert(_ record: InputRecord, entity requested: Entity, db: Database,
                        allocator: inout PrimaryKeyAllocator) throws {
        let entity = try concreteEntity(for: record, requested: requested)
        guard let entityLayout = layout.entity(named: entity.name) else {
            throw StoreError(.unknownName, "no table for this entity", entity: entity.name)
        }
        let attributes = model.attributes(of: entity).filter { !$0.isTransient }
        var given: [String: InputValue] = [:]
        for (key, value) in record.fields where key != "_entity" {
            guard attributes.contains(where: { $0.name == key }) else {
                if model.relationship(key, of: entity) != nil {
                    throw StoreError(.invalidInput, "relationships cannot be inserted yet", entity: entity.name, property: key)
                }
                if model.attributes(of: entity).contains(where: { $0.name == key }) {
                    throw StoreError(.invalidInput, "transient attributes are not stored", entity: entity.name, property: key)
                }
                throw StoreError(.unknownName, "no such attribute" + Suggestion.didYouMean(key, among: attributes.map(\.name)),
                                 entity: entity.name, property: key)
            }
            guard given[key] == nil else {
                throw StoreError(.invalidInput, "given twice", entity: entity.name, property: key)
            }
            given[key] = value
        }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        let pk = try allocator.next(for: entityLayout, layout: layout, db: db)
        var values: [DatabaseValue] = [pk.databaseValue, entityLayout.number.databaseValue, 1.databaseValue]
        for attribute in attributes {
            guard let column = entityLayout.attributeColumns[attribute.name] else { continue }
            let stored: DatabaseValue
            do {
                if let input = given[attribute.name] {
                    stored = try AttributeCoding.storedValue(input, for: attribute)
                } else {
                    stored = try DefaultValues.storedDefault(for: attribute)
                }
                try validation.validate(stored, for: attribute)
            } catch var error as StoreError {
                error.entity = entity.name
                throw error
            }
            columns.append(column)
            values.append(stored)
        }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(entityLayout.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
        do {
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConstraintReport.error(for: error, entity: entity, model: model, layout: layout, values: given)
        }
    }

    /// The entity a record is stored as: the requested one, or the sub-entity its `"_entity"` field names.
    private func concreteEntity(for record: InputRecord, requested: Entity) throws -> Entity {
        var entity = requested
        if let name = record.entityName ?? record.fields.first(where: { $0.0 == "_entity" }).flatMap({ field -> String? in
            if case .string(let s) = field.1 { return s }
            return nil
        }), name != requested.name {
            guard let named = model.entity(named: name),
                  model.subtree(of: requested).contains(where: { $0.name == named.name }) else {
                throw StoreError(.unknownName, "'\(name)' is not \(requested.name) or one of its sub-entities",
                                 entity: requested.name, property: "_entity")
            }
            entity = named
        }
        guard !entity.isAbstract else {
            let concrete = model.subtree(of: entity).filter { !$0.isAbstract }.map(\.name)
            throw StoreError(.invalidInput, "the entity is abstract and cannot have objects of its own"
                             + (concrete.isEmpty ? "" : "; insert one of \(concrete.joined(separator: ", ")) "
                                + "(or set \"_entity\")"), entity: entity.name)
        }
        return entity
    }

    /// The entity called `name`, or an error that suggests the nearest name.
    public func resolveEntity(_ name: String) throws -> Entity {
        guard let entity = model.entity(named: name) else {
            throw StoreError(.unknownName, "no entity '\(name)' in the model"
                             + Suggestion.didYouMean(name, among: model.entities.map(\.name)))
        }
        return entity
    }
}

/// Hands out primary keys as Core Data does: `Z_MAX` of the root entity's `Z_PRIMARYKEY` row, plus one.
struct PrimaryKeyAllocator {
    private var next: [Int: Int64] = [:]

    mutating func next(for entity: EntityLayout, layout: StoreLayout, db: Database) throws -> Int64 {
        let root = layout.entity(named: entity.rootName)?.number ?? entity.number
        if next[root] == nil {
            let max = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root]) ?? 0
            // Z_MAX can lag behind rows written by other tools; never hand out a key that exists.
            let existing = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(entity.table)") ?? 0
            next[root] = Swift.max(max, existing) + 1
        }
        defer { next[root]! += 1 }
        return next[root]!
    }

    func save(_ db: Database) throws {
        for (root, value) in next {
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [value - 1, root])
        }
    }
}
