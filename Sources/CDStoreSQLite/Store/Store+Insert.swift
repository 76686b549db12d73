import CDStoreModel
import Foundation
import GRDB

extension Store {
    /// Inserts `records` as new objects of `entityName` (or of the sub-entity a record names with `"_entity"`),
    /// with every object nested in them, all in one transaction: either everything is stored or nothing is.
    ///
    /// In a record, an attribute takes a value; a to-one relationship a nested object (a new related object), an
    /// object ID (`x-coredata://…/Entity/p3`), `{"_ref": {"name": "Ann"}}` (the one existing object with those
    /// attribute values) or null; a to-many relationship an array of those. Missing attributes take the model's
    /// default. Everything is converted and validated against the model before the transaction commits:
    /// attribute rules, uniqueness constraints (merged into the existing object with
    /// ``InsertOptions/upsert``), relationship optionality and counts. Returns the number of records stored.
    ///
    /// Core Data equivalent: `NSEntityDescription.insertNewObject(forEntityName:into:)` for each object, then
    /// `save()`.
    @discardableResult
    public func insert(_ records: [InputRecord], into entityName: String, options: InsertOptions = .init()) throws -> Int {
        let entity = try resolveEntity(entityName)
        return try write { db in
            var inserter = GraphInserter(store: self, db: db, options: options)
            for (index, record) in records.enumerated() {
                do {
                    _ = try inserter.insert(record.fields, as: entity, entityName: record.entityName)
                } catch let error as StoreError {
                    throw error.at(record: index + 1, line: record.line)
                }
                if index % 2048 == 2047 { options.progress?(index + 1, records.count) }
            }
            options.progress?(records.count, records.count)
            try GraphValidation(store: self, db: db).validate(inserter.touched)
            try bumpOptimisticLockVersions(inserter.touched.subtracting(inserter.inserted), db: db)
            try inserter.allocator.save(db)
            return records.count
        }
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
