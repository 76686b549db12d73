import CDStoreJSON
import CDStoreModel
internal import GRDB

extension RelationshipStorage {
    /// Makes `target` the value of the to-one `edge` of `source` (nil clears it), keeping the inverse consistent:
    /// for a one-to-one, the target's previous partner and the source's previous target let go. Returns every
    /// object whose stored row changed, so callers can bump `Z_OPT` and re-validate them.
    @discardableResult
    func setToOne(_ edge: Edge, of source: ObjectRef, to target: ObjectRef?, db: Database) throws -> Set<ObjectRef> {
        guard let toOne = edge.toOne else { return [] }
        var changed: Set<ObjectRef> = [source]
        let table = edge.entity.table
        let previous = try Int64.fetchOne(db.cachedStatement(sql: "SELECT \(toOne.foreignKey) FROM \(table) WHERE Z_PK = ?"), arguments: [source.pk])
        if previous == target?.pk { return [] }
        if let inverse = edge.inverse, !inverse.isToMany, let inverseColumns = edge.destination.toOnes[inverse.name] {
            let destinationTable = edge.destination.table
            if let previous {
                try db.cachedStatement(sql: "UPDATE \(destinationTable) SET \(assignments(inverseColumns, nil)) WHERE Z_PK = ?").execute(arguments: [previous])
                if let ent = try Int.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(destinationTable) WHERE Z_PK = ?"), arguments: [previous]) {
                    changed.insert(ObjectRef(pk: previous, entityNumber: ent))
                }
            }
            if let target {
                // The target's previous partner loses it.
                let partners = try Row.fetchAll(db.cachedStatement(sql: "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(toOne.foreignKey) = ? AND Z_PK <> ?"),
                                                arguments: [target.pk, source.pk])
                for partner in partners {
                    try db.cachedStatement(sql: "UPDATE \(table) SET \(assignments(toOne, nil)) WHERE Z_PK = ?").execute(arguments: [partner[0] as Int64])
                    changed.insert(ObjectRef(pk: partner[0], entityNumber: partner[1]))
                }
                try db.cachedStatement(sql: "UPDATE \(destinationTable) SET \(assignments(inverseColumns, source)) WHERE Z_PK = ?").execute(arguments: StatementArguments(values(inverseColumns, source) + [target.pk.databaseValue]))
                changed.insert(target)
            }
        } else if let target {
            changed.insert(target)
            if let previous, let ent = try Int.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(edge.destination.table) WHERE Z_PK = ?"),
                                                          arguments: [previous]) {
                changed.insert(ObjectRef(pk: previous, entityNumber: ent))
            }
        }
        var columnValues = values(toOne, target)
        if let orderKey = toOne.orderKey, let target {
            let position = try nextPosition(table: table, column: orderKey, where: toOne.foreignKey, equals: target.pk, db: db)
            columnValues[columnValues.count - 1] = position.databaseValue
            _ = orderKey
        }
        try db.cachedStatement(sql: "UPDATE \(table) SET \(assignments(toOne, target)) WHERE Z_PK = ?").execute(arguments: StatementArguments(columnValues + [source.pk.databaseValue]))
        return changed
    }

    /// Adds `targets` to the to-many `edge` of `source`, after the objects it already holds, keeping inverses
    /// consistent (a target with a to-one inverse leaves its previous owner). Returns the objects whose rows changed.
    @discardableResult
    func add(_ targets: [ObjectRef], to edge: Edge, of source: ObjectRef, db: Database) throws -> Set<ObjectRef> {
        guard !targets.isEmpty, let toMany = edge.toMany else { return [] }
        var changed: Set<ObjectRef> = [source]
        switch toMany {
        case .foreignKey(let table, let foreignKey, let entityKey, let orderKey):
            var position = try orderKey.map { try nextPosition(table: table, column: $0, where: foreignKey, equals: source.pk, db: db) } ?? 0
            var columns = [foreignKey]
            if let entityKey { columns.append(entityKey) }
            if let orderKey { columns.append(orderKey) }
            let sql = "UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE Z_PK = ?"
            for target in targets {
                if let owner = try Row.fetchOne(db.cachedStatement(sql: "SELECT s.Z_PK, s.Z_ENT FROM \(table) d JOIN \(edge.entity.table) s "
                                                + "ON s.Z_PK = d.\(foreignKey) WHERE d.Z_PK = ?"), arguments: [target.pk]) {
                    changed.insert(ObjectRef(pk: owner[0], entityNumber: owner[1]))
                }
                var arguments: [DatabaseValue] = [source.pk.databaseValue]
                if entityKey != nil { arguments.append(source.entityNumber.databaseValue) }
                if orderKey != nil { arguments.append(position.databaseValue); position += Self.orderStep }
                do {
                    try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(arguments + [target.pk.databaseValue]))
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    // A uniqueness constraint of the destination that includes the inverse to-one (Task[project, title]).
                    throw try uniquenessConflict(table: table, object: target.pk,
                                                 assigning: Dictionary(uniqueKeysWithValues: zip(columns, arguments)),
                                                 db: db) ?? error
                }
                changed.insert(target)
            }
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            let inverseOrder: String?
            if let inverse = edge.inverse, case .joinTable(_, _, _, let column)? = edge.destination.toManys[inverse.name],
               destinationColumn != "REFLEXIVE" {
                inverseOrder = column
            } else {
                inverseOrder = nil
            }
            var position = try orderColumn.map { try nextPosition(table: table, column: $0, where: sourceColumn, equals: source.pk, db: db) } ?? 0
            for target in targets {
                let exists = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(table) WHERE \(sourceColumn) = ? AND \(destinationColumn) = ?"),
                                               arguments: [source.pk, target.pk]) ?? false
                if exists {
                    // The pair was linked from the other side; this side still decides its own order.
                    if let orderColumn {
                        try db.cachedStatement(sql: "UPDATE \(table) SET \(orderColumn) = ? WHERE \(sourceColumn) = ? AND \(destinationColumn) = ?").execute(arguments: [position, source.pk, target.pk])
                        position += Self.orderStep
                    }
                    continue
                }
                var columns = [sourceColumn, destinationColumn]
                var arguments: [DatabaseValue] = [source.pk.databaseValue, target.pk.databaseValue]
                if let orderColumn {
                    columns.append(orderColumn)
                    arguments.append(position.databaseValue)
                    position += Self.orderStep
                }
                if let inverseOrder {
                    columns.append(inverseOrder)
                    arguments.append(try nextPosition(table: table, column: inverseOrder, where: destinationColumn,
                                                      equals: target.pk, db: db).databaseValue)
                }
                let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                try db.cachedStatement(sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(marks))")
                    .execute(arguments: StatementArguments(arguments))
                changed.insert(target)
                if destinationColumn == "REFLEXIVE" && target.pk != source.pk {
                    // The relationship is its own inverse: the target holds the source too, in its own row.
                    let mirrored = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(table) WHERE \(sourceColumn) = ? AND \(destinationColumn) = ?"),
                                                     arguments: [target.pk, source.pk]) ?? false
                    if !mirrored {
                        var mirrorArguments: [DatabaseValue] = [target.pk.databaseValue, source.pk.databaseValue]
                        if let orderColumn {
                            mirrorArguments.append(try nextPosition(table: table, column: orderColumn, where: sourceColumn,
                                                                    equals: target.pk, db: db).databaseValue)
                        }
                        let mirrorColumns = [sourceColumn, destinationColumn] + (orderColumn.map { [$0] } ?? [])
                        try db.cachedStatement(sql: "INSERT INTO \(table) (\(mirrorColumns.joined(separator: ", "))) VALUES "
                                       + "(\(Array(repeating: "?", count: mirrorColumns.count).joined(separator: ", ")))").execute(arguments: StatementArguments(mirrorArguments))
                    }
                }
            }
        }
        return changed
    }

    /// Adds `children`, objects this transaction just created without an owner, to the unordered to-many `edge`
    /// of `source` kept by the inverse's foreign key: one UPDATE for all of them, as none has an owner to leave.
    func adopt(_ children: [ObjectRef], to edge: Edge, of source: ObjectRef, db: Database) throws {
        guard case .foreignKey(let table, let foreignKey, let entityKey, nil)? = edge.toMany else {
            _ = try add(children, to: edge, of: source, db: db)
            return
        }
        let assignments = ["\(foreignKey) = ?"] + (entityKey.map { ["\($0) = ?"] } ?? [])
        let owner: [DatabaseValue] = [source.pk.databaseValue] + (entityKey != nil ? [source.entityNumber.databaseValue] : [])
        for start in stride(from: 0, to: children.count, by: 500) {
            let slice = children[start..<min(start + 500, children.count)]
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
            try db.cachedStatement(sql: "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN (\(marks))")
                .execute(arguments: StatementArguments(owner + slice.map(\.pk.databaseValue)))
        }
    }

    /// Empties the to-many `edge` of `source`. Returns the objects whose rows changed.
    @discardableResult
    func removeAll(from edge: Edge, of source: ObjectRef, db: Database) throws -> Set<ObjectRef> {
        guard let toMany = edge.toMany else { return [] }
        var changed: Set<ObjectRef> = [source]
        for target in try related(edge, of: [source.pk], db: db)[source.pk] ?? [] { changed.insert(target) }
        switch toMany {
        case .foreignKey(let table, let foreignKey, let entityKey, let orderKey):
            let columns = [foreignKey] + [entityKey, orderKey].compactMap { $0 }
            try db.cachedStatement(sql: "UPDATE \(table) SET \(columns.map { "\($0) = NULL" }.joined(separator: ", ")) WHERE \(foreignKey) = ?").execute(arguments: [source.pk])
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(sourceColumn) = ?").execute(arguments: [source.pk])
            if destinationColumn == "REFLEXIVE" {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(destinationColumn) = ?").execute(arguments: [source.pk])
            }
        }
        return changed
    }

    /// The error for a uniqueness constraint that assigning `assigning` (column → value) to the row `object` of
    /// `table` would violate: it names the constraint of the row's entity in model terms, the values and the object
    /// that already has them. Nil when no constraint of the entity explains the failure.
    func uniquenessConflict(table: String, object pk: Int64, assigning: [String: DatabaseValue], db: Database) throws -> StoreError? {
        guard let number = try Int.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(table) WHERE Z_PK = ?"), arguments: [pk]),
              let entityLayout = layout.entity(number: number), let entity = model.entity(named: entityLayout.name) else { return nil }
        constraints: for key in model.uniquenessConstraintsInHierarchy(of: entity) {
            var conditions: [String] = []
            var arguments: [DatabaseValue] = []
            var described: [String] = []
            var touched = false
            for property in key {
                let column: String
                if let attributeColumn = entityLayout.attributeColumns[property] {
                    column = attributeColumn
                } else if let toOne = entityLayout.toOnes[property] {
                    column = toOne.foreignKey
                } else {
                    continue constraints
                }
                touched = touched || assigning[column] != nil
                let value = try assigning[column]
                    ?? db.fetchExactRows(sql: "SELECT \(column) FROM \(table) WHERE Z_PK = ?", values: [pk.databaseValue]).first?.first ?? .null
                if value.isNull { continue constraints }
                conditions.append("\(column) = ?")
                arguments.append(value)
                if let attribute = model.attribute(property, of: entity) {
                    let shown = AttributeCoding.objectValue(value, for: attribute)
                    described.append("\(property) = " + (shown.isText ? "'\(ValueText.plain(shown))'" : ValueText.plain(shown)))
                } else {
                    described.append("\(property) = p\(Int64.fromDatabaseValue(value) ?? 0)")
                }
            }
            guard touched else { continue }
            let sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE Z_PK <> ? AND " + conditions.joined(separator: " AND ") + " LIMIT 1"
            guard let other = try db.fetchExactRows(sql: sql, values: [pk.databaseValue] + arguments).first else { continue }
            let otherEntity = entityName(Int.fromDatabaseValue(other[1]) ?? 0)
            let otherPK = Int64.fromDatabaseValue(other[0]) ?? 0
            let name = storeUUID.map { ObjectID(storeUUID: $0, entity: otherEntity, primaryKey: otherPK).description }
                ?? "\(otherEntity)/p\(otherPK)"
            let thisName = storeUUID.map { ObjectID(storeUUID: $0, entity: entity.name, primaryKey: pk).description }
                ?? "\(entity.name)/p\(pk)"
            return StoreError(.constraintViolation, "uniqueness constraint (\(key.joined(separator: ", "))) violated: \(thisName) "
                              + "would have \(described.joined(separator: ", ")), which \(name) already has", entity: entity.name)
        }
        return nil
    }

    /// The position after the last one in use, for appending to an ordered relationship.
    private func nextPosition(table: String, column: String, where key: String, equals value: Int64, db: Database) throws -> Int64 {
        let last = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(\(column)) FROM \(table) WHERE \(key) = ?"), arguments: [value]) ?? 0
        return (last / Self.orderStep + 1) * Self.orderStep
    }

    /// `FK = ?, ENT = ?, FOK = ?` (or `= NULL` when clearing).
    private func assignments(_ columns: ToOneLayout, _ target: ObjectRef?) -> String {
        let names = [columns.foreignKey] + [columns.entityKey, columns.orderKey].compactMap { $0 }
        return names.map { target == nil ? "\($0) = NULL" : "\($0) = ?" }.joined(separator: ", ")
    }

    private func values(_ columns: ToOneLayout, _ target: ObjectRef?) -> [DatabaseValue] {
        guard let target else { return [] }
        var values = [target.pk.databaseValue]
        if columns.entityKey != nil { values.append(target.entityNumber.databaseValue) }
        if columns.orderKey != nil { values.append(DatabaseValue.null) }
        return values
    }
}
