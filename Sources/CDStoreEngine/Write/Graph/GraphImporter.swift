import CDStoreJSON
import CDStoreModel
internal import GRDB

/// A whole object graph as `cdstore export` writes it: every object under its own entity, with its `_id` and
/// its relationships as object IDs.
package struct GraphDocument: Sendable {
    /// The objects of each entity, in document order.
    package var entities: [(entity: String, records: [InputRecord])]

    package init(entities: [(entity: String, records: [InputRecord])]) {
        self.entities = entities
    }
}

extension Store {
    /// Reads a graph document into the store in one transaction and returns the number of objects created.
    ///
    /// Objects keep their primary keys when the store holds no objects of their inheritance tree yet, so that
    /// exporting a store and importing it into an empty one gives an identical graph (only the store UUID in
    /// the object IDs differs); otherwise they get new keys. Relationships are set from the object IDs in the
    /// document, which may refer to objects of the document or of this store.
    @discardableResult
    package func importGraph(_ document: GraphDocument) throws -> Int {
        var source = SequenceRecordSource(document.entities.lazy.flatMap { entity, records in
            records.lazy.map { record in
                var named = record
                named.entityName = entity
                return named
            }
        })
        return try importGraph(from: &source)
    }

    /// Reads the objects `source` yields — each record names its entity (``InputRecord/entityName``), as NDJSON
    /// exports and graph documents do — into the store in one transaction, as ``importGraph(_:)`` does.
    ///
    /// Records are read one at a time and their attributes written at once; only their relationship values are
    /// kept until every object exists, so memory grows with the relationships of the input, not its size.
    /// `progress` is called every few thousand objects and once at the end.
    @discardableResult
    package func importGraph(from source: inout some RecordSource,
                            progress: (@Sendable (InsertProgress) -> Void)? = nil) throws -> Int {
        try write { db in
            let storage = RelationshipStorage(model: model, layout: layout, storeUUID: metadata.uuid)
            var allocator = PrimaryKeyAllocator(layout: layout)
            var objects: [String: ObjectRef] = [:]
            var created: [(ObjectRef, Entity, [(Relationship, InputValue)], Int?)] = []
            var count = 0
            let emptyTables = try Set(layout.entities.map(\.table).filter { table in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") == 0
            })
            var keptMax: [Int: Int64] = [:]
            var entityIndex: [String: Int] = [:]
            while let record = try source.next() {
                guard let entityName = record.entityName else {
                    throw StoreError(.invalidInput, "the object does not name its entity (\"_entity\")", line: record.line)
                }
                let entity = try resolveEntity(entityName)
                guard !entity.isAbstract, let entityLayout = layout.entity(named: entity.name) else {
                    throw StoreError(.invalidInput, "the entity is abstract: its objects belong under their own entity",
                                     entity: entityName)
                }
                let index = entityIndex[entityName, default: 0]
                entityIndex[entityName] = index + 1
                do {
                    do {
                        let values = try PropertyValues(fields: record.fields, entity: entity, model: model, mapping: nil)
                        let row = try AttributeRow(values: values.attributes, entity: entity, layout: entityLayout,
                                                   model: model, validation: validation)
                        let oldID = record.fields.first { $0.0 == "_id" }.flatMap { field -> ObjectID? in
                            if case .string(let text) = field.1 { return ObjectID(uri: text) } else { return nil }
                        }
                        let pk: Int64
                        if let oldID, emptyTables.contains(entityLayout.table) {
                            pk = oldID.primaryKey
                            let root = layout.entity(named: entityLayout.rootName)!.number
                            keptMax[root] = max(keptMax[root] ?? 0, pk)
                        } else {
                            pk = try allocator.next(entityNumber: entityLayout.number, table: entityLayout.table, db: db)
                        }
                        let object = ObjectRef(pk: pk, entityNumber: entityLayout.number)
                        do {
                            try row.insert(object, table: entityLayout.table, db: db)
                        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                            throw ConstraintReport.error(for: error, entity: entity, model: model, layout: layout,
                                                         values: values.attributeInputs)
                        }
                        if let oldID { objects[oldID.description] = object }
                        count += 1
                        if count % 4096 == 0 {
                            progress?(InsertProgress(records: count, input: source.position, isFinished: false))
                        }
                        if !values.relationships.isEmpty { created.append((object, entity, values.relationships, record.line)) }
                    }
                } catch let error as StoreError {
                    throw error.at(record: index + 1, line: record.line)
                }
            }
            progress?(InsertProgress(records: count, input: source.position, isFinished: true))
            var touched: Set<ObjectRef> = []
            // To-ones first, then to-manys, so that each to-many's own order wins.
            for pass in [false, true] {
                for (object, entity, relationships, line) in created {
                    for (relationship, value) in relationships where relationship.isToMany == pass {
                        do {
                            let edge = try storage.writableEdge(relationship.name, of: entity.name)
                            let targets = try referenced(value, relationship, entity, objects, db: db)
                            if pass {
                                touched.formUnion(try storage.add(targets, to: edge, of: object, db: db))
                            } else if let target = targets.first {
                                touched.formUnion(try storage.setToOne(edge, of: object, to: target, db: db))
                            }
                        } catch let error as StoreError {
                            throw error.at(record: nil, line: line)
                        }
                    }
                }
            }
            // Every object of a tree whose table was empty is new; elsewhere the new ones are those the allocator numbered.
            var first = allocator.first
            var next = allocator.next
            for (root, kept) in keptMax {
                first[root] = 1
                next[root] = max(next[root] ?? 0, kept + 1)
            }
            let validation = GraphValidation(store: self, db: db)
            try validation.validateNew(from: first, to: next)
            try validation.validate(touched.filter { object in
                guard let root = layout.entity(number: object.entityNumber).flatMap({ layout.entity(named: $0.rootName) })?.number,
                      let start = first[root], let end = next[root] else { return true }
                return !(start..<end).contains(object.pk)
            })
            try allocator.save(db)
            for (root, value) in keptMax {
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, ?) WHERE Z_ENT = ?", arguments: [value, root])
            }
            return count
        }
    }

    /// The objects a relationship value of an imported record names: object IDs of the document, or of this store.
    private func referenced(_ value: InputValue, _ relationship: Relationship, _ entity: Entity,
                            _ objects: [String: ObjectRef], db: Database) throws -> [ObjectRef] {
        let items: [InputValue]
        switch value {
        case .null: return []
        case .array(let list): items = list
        default: items = [value]
        }
        let destination = try resolveEntity(relationship.destination)
        return try items.map { item in
            guard case .string(let text) = item, let id = ObjectID(uri: text) else {
                throw StoreError(.invalidInput, "expected object IDs (x-coredata://…), got \(item.summary)",
                                 entity: entity.name, property: relationship.name).aboutRelationship()
            }
            if let found = objects[id.description] { return found }
            if id.storeUUID == metadata.uuid {
                return try ObjectLookup(store: self, db: db).object(id, in: destination, for: (entity.name, relationship.name))
            }
            throw StoreError(.invalidInput, "\(id) is neither in the document nor in this store",
                             entity: entity.name, property: relationship.name).aboutRelationship()
        }
    }
}
