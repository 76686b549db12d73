import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

extension Store {
    /// Sets attributes of the objects `request` selects, in one transaction, and returns how many objects changed.
    ///
    /// One query selects the objects and computes every new value (expressions are evaluated by SQL, per
    /// object); each value is then converted to its attribute's type and validated against the model — type,
    /// range, length, regular expression, optionality, uniqueness constraints (among the changed objects and
    /// against the others) — before anything is written. A failure names the object, the attribute and the
    /// value, and leaves the store as it was. Each changed object's `Z_OPT` is incremented, as Core Data does on
    /// save. With `dryRun` everything is computed and validated, and nothing is written.
    ///
    /// Relationships cannot be set (their inverses and delete rules make that an object-graph change; use
    /// `insert`/`importGraph`).
    ///
    /// Core Data equivalent: `NSBatchUpdateRequest` (which, unlike this, skips validation).
    @discardableResult
    package func update(_ request: UpdateRequest, dryRun: Bool = false) throws -> Int {
        let plan = try UpdatePlan(store: self, request: request)
        return dryRun ? try read { db in try plan.run(db, write: false) } : try write { db in try plan.run(db, write: true) }
    }
}

/// A checked update: the attributes, their new values' SQL, and the uniqueness constraints they touch.
struct UpdatePlan {
    struct Target {
        var attribute: Attribute
        var column: String
        /// A value computed once (a literal), or nil when `expression` computes it per object.
        var constant: DatabaseValue?
        var expression: SQLFragment?
    }

    struct Constraint {
        var owner: EntityLayout
        var keys: [String]
        var columns: [String]
    }

    let store: Store
    let entity: Entity
    let entityLayout: EntityLayout
    var targets: [Target] = []
    var constraints: [Constraint] = []
    var select = SQLFragment("")

    init(store: Store, request: UpdateRequest) throws {
        self.store = store
        entity = try store.resolveEntity(request.entity)
        guard let entityLayout = store.layout.entity(named: entity.name) else {
            throw StoreError(.unknownName, "no table for this entity", entity: entity.name)
        }
        self.entityLayout = entityLayout
        guard !request.assignments.isEmpty else {
            throw StoreError(.invalidInput, "nothing to set (give KEY=VALUE)", entity: entity.name).about(.assignments)
        }
        let aliases = AliasGenerator()
        let compiler = PredicateCompiler(model: store.model, layout: store.layout, entity: entity, aliases: aliases)
        var seen: Set<String> = []
        for assignment in request.assignments {
            guard seen.insert(assignment.key).inserted else {
                throw StoreError(.invalidInput, "'\(assignment.key)' is set twice", entity: entity.name, property: assignment.key)
                    .about(.assignments)
            }
            targets.append(try target(assignment, compiler: compiler))
        }

        var conditions: [SQLFragment] = []
        if let filter = QueryBuilder.entityFilter(entityLayout, includesSubentities: request.includesSubentities, layout: store.layout) {
            conditions.append(filter)
        }
        if let predicate = request.predicate { conditions.append(try compiler.compile(predicate)) }
        let condition = conditions.isEmpty ? SQLFragment("1")
            : SQLFragment.join(conditions.map { SQLFragment("(\($0.sql))", $0.arguments) }, separator: " AND ")

        // Uniqueness constraints of the entity, its ancestors and (for their objects) its sub-entities that
        // involve a changed attribute.
        let assigned = Set(targets.map(\.attribute.name))
        let members = store.model.ancestors(of: entity) + (request.includesSubentities ? store.model.subtree(of: entity) : [entity])
        for member in members {
            guard let memberLayout = store.layout.entity(named: member.name) else { continue }
            for keys in member.uniquenessConstraints where !assigned.isDisjoint(with: keys) {
                let columns = keys.compactMap { memberLayout.attributeColumns[$0] ?? memberLayout.toOnes[$0]?.foreignKey }
                if columns.count == keys.count { constraints.append(Constraint(owner: memberLayout, keys: keys, columns: columns)) }
            }
        }

        var columns = ["t.Z_PK", "t.Z_ENT"]
        var arguments: [DatabaseValue] = []
        for target in targets {
            columns.append(target.expression?.sql ?? "NULL")
            arguments += target.expression?.arguments ?? []
        }
        for constraint in constraints { columns += constraint.columns.map { "t.\($0)" } }
        select = SQLFragment("SELECT \(columns.joined(separator: ", ")) FROM \(entityLayout.table) t WHERE \(condition.sql) "
                             + "ORDER BY t.Z_PK", arguments + condition.arguments)
    }

    private func target(_ assignment: UpdateAssignment, compiler: PredicateCompiler) throws -> Target {
        var key = assignment.key
        // `home.city` sets one element of a composite attribute (a column of its own); `tier` an enum's raw value.
        if let composite = store.model.attribute(key, of: entity), composite.holdsRawValue {
            key += "." + composite.compositeElements[0].name
        }
        guard let attribute = store.model.attribute(key, of: entity)
                ?? store.model.attributes(of: entity).flatMap(EntityWritePlan.flattened).first(where: { $0.name == key })
        else {
            if store.model.relationship(key, of: entity) != nil {
                throw StoreError(.invalidInput, "'\(key)' is a relationship; an update sets attributes only "
                                 + "(change relationships with insert or import)", entity: entity.name, property: key)
                    .about(.assignments)
            }
            let names = store.model.attributes(of: entity).map(\.name)
            throw StoreError(.unknownName, "no attribute '\(key)' in \(entity.name)" + Suggestion.didYouMean(key, among: names),
                             entity: entity.name).about(.assignments)
        }
        guard !attribute.isTransient, let column = entityLayout.attributeColumns[key] else {
            throw StoreError(.invalidInput, "'\(key)' is transient, so it is not stored", entity: entity.name, property: key)
                .about(.assignments)
        }
        func literal(_ input: InputValue) throws -> Target {
            do {
                return Target(attribute: attribute, column: column, constant: try AttributeCoding.storedValue(input, for: attribute))
            } catch var error as StoreError {
                error.entity = entity.name
                throw error
            }
        }
        func expression(_ node: ExpressionNode) throws -> Target {
            var operand: Operand
            do {
                operand = try compiler.operand(node)
                if case .constant = operand.kind { operand = try operand.typed(as: attribute, operator: .equal) }
                operand = operand.bound()
            } catch var error as StoreError {
                error.message = "'\(key)': " + error.message
                error.input = .assignments
                error.entity = entity.name
                throw error
            }
            switch operand.kind {
            case .value, .null:
                return Target(attribute: attribute, column: column, expression: SQLFragment(operand.sql, operand.arguments))
            default:
                throw StoreError(.invalidInput, "'\(PredicateFormatter.format(node))' is not a single value",
                                 entity: entity.name, property: key).about(.assignments)
            }
        }
        switch assignment.value {
        case .literal(let input):
            return try literal(input)
        case .expression(let node):
            return try expression(node)
        case .text(let text):
            if attribute.type == .string || attribute.type == .uri { return try literal(.string(text)) }
            do {
                return try literal(.string(text))
            } catch let literalError {
                guard let node = try? PredicateParser.parseExpression(text) else { throw literalError }
                if case .constant(let value) = node, !(value == .null) { throw literalError }
                return try expression(node)
            }
        }
    }

    /// Selects, converts, validates, checks uniqueness, then (when `write`) writes. Returns the object count.
    func run(_ db: Database, write: Bool) throws -> Int {
        // Read and written with exact text, so that a string with a NUL inside is neither cut nor compared short.
        let rows = try db.fetchExactRows(sql: select.sql, values: select.arguments)
        // New values per object, converted and validated.
        var updates: [(pk: Int64, entity: Int, values: [DatabaseValue])] = []
        updates.reserveCapacity(rows.count)
        for row in rows {
            let pk = Int64.fromDatabaseValue(row[0]) ?? 0
            let number = Int.fromDatabaseValue(row[1]) ?? 0
            var values: [DatabaseValue] = []
            for (index, target) in targets.enumerated() {
                let stored: DatabaseValue
                do {
                    stored = try target.constant ?? convert(row[2 + index], for: target.attribute)
                    try store.validation.validate(stored, for: target.attribute)
                } catch let error as StoreError {
                    var located = failure(pk, number, target.attribute, error.message)
                    located.coreDataCode = error.coreDataCode
                    throw located
                }
                values.append(stored)
            }
            updates.append((pk, number, values))
        }
        try checkUniqueness(rows, updates, db)
        guard write else { return rows.count }
        let sets = targets.map { "\($0.column) = ?" } + ["Z_OPT = COALESCE(Z_OPT, 0) + 1"]
        let statement = try db.makeStatement(sql: "UPDATE \(entityLayout.table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?")
        do {
            // Constrained columns are cleared first, so that values moving between the changed objects
            // (`employeeNumber = employeeNumber + 1`) do not collide in the unique index halfway through.
            let constrained = targets.filter { t in constraints.contains { $0.keys.contains(t.attribute.name) } }.map(\.column)
            if !constrained.isEmpty {
                let clear = try db.makeStatement(sql: "UPDATE \(entityLayout.table) SET "
                                                 + constrained.map { "\($0) = NULL" }.joined(separator: ", ") + " WHERE Z_PK = ?")
                for update in updates { try clear.execute(arguments: [update.pk]) }
            }
            for update in updates {
                try statement.setExactArguments(update.values + [update.pk.databaseValue])
                try statement.execute()
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(.constraintViolation, "update: \(error.message ?? "constraint failed")", entity: entity.name)
        }
        return rows.count
    }

    /// A value an expression computed, as the attribute stores it.
    private func convert(_ value: DatabaseValue, for attribute: Attribute) throws -> DatabaseValue {
        let input: InputValue
        switch value.storage {
        case .null: return .null
        case .int64(let i): input = attribute.type == .boolean && (i == 0 || i == 1) ? .bool(i == 1) : .integer(i)
        case .double(let d):
            if attribute.type.isInteger, d != d.rounded() {
                throw StoreError(.invalidInput, "\(ValueText.number(d)) is not a whole number, so it does not fit "
                                 + "\(attribute.type.rawValue) (round it with floor:, ceiling: or trunc:)", property: attribute.name)
            }
            input = .double(d)
        case .string(let s): input = .string(s)
        case .blob(let data):
            guard [.binary, .transformable, .uuid].contains(attribute.type) else {
                throw StoreError(.invalidInput, "binary data does not fit \(attribute.type.rawValue)", property: attribute.name)
            }
            if attribute.type == .uuid && data.count != 16 {
                throw StoreError(.invalidInput, "\(data.count) bytes are not a UUID", property: attribute.name)
            }
            return value
        }
        return try AttributeCoding.storedValue(input, for: attribute)
    }

    private func objectID(_ pk: Int64, _ number: Int) -> String {
        ObjectID(storeUUID: store.metadata.uuid, entity: store.layout.entity(number: number)?.name ?? entity.name, primaryKey: pk)
            .description
    }

    private func failure(_ pk: Int64, _ number: Int, _ attribute: Attribute, _ message: String) -> StoreError {
        StoreError(.invalidInput, "\(objectID(pk, number)): \(message)", entity: store.layout.entity(number: number)?.name ?? entity.name,
                   property: attribute.name)
    }

    /// Two changed objects may not end up with the same values for a constraint, nor a changed object with the
    /// values of an unchanged one. Tuples with a NULL are exempt, as in SQLite's (and so Core Data's) unique indexes.
    private func checkUniqueness(_ rows: [[DatabaseValue]], _ updates: [(pk: Int64, entity: Int, values: [DatabaseValue])], _ db: Database) throws {
        var offset = 2 + targets.count
        let changed = Set(updates.map(\.pk))
        for constraint in constraints {
            defer { offset += constraint.columns.count }
            var owners: [DatabaseValueTuple: (pk: Int64, entity: Int)] = [:]
            var tuples: [(pk: Int64, entity: Int, tuple: [DatabaseValue])] = []
            for (row, update) in zip(rows, updates) where constraint.owner.subtreeNumbers.contains(update.entity) {
                let tuple = constraint.keys.enumerated().map { i, key -> DatabaseValue in
                    if let t = targets.firstIndex(where: { $0.attribute.name == key }) { return update.values[t] }
                    return row[offset + i]
                }
                if tuple.contains(where: \.isNull) { continue }
                if let other = owners[DatabaseValueTuple(tuple)] {
                    throw duplicate(constraint, update.pk, update.entity, tuple, with: objectID(other.pk, other.entity))
                }
                owners[DatabaseValueTuple(tuple)] = (update.pk, update.entity)
                tuples.append((update.pk, update.entity, tuple))
            }
            // Unchanged objects holding one of the new tuples, looked up in chunks of bound row values.
            let width = constraint.columns.count
            let perChunk = max(1, 900 / width)
            for start in stride(from: 0, to: tuples.count, by: perChunk) {
                let chunk = tuples[start..<min(start + perChunk, tuples.count)]
                let lhs = width == 1 ? constraint.columns[0] : "(" + constraint.columns.joined(separator: ", ") + ")"
                let rhs = width == 1 ? chunk.map { _ in "?" }.joined(separator: ", ")
                    : "VALUES " + chunk.map { _ in "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")" }
                        .joined(separator: ", ")
                let sql = "SELECT Z_PK, Z_ENT, \(constraint.columns.joined(separator: ", ")) FROM \(constraint.owner.table) "
                    + "WHERE Z_ENT BETWEEN ? AND ? AND \(lhs) IN (\(rhs))"
                let arguments = [constraint.owner.number.databaseValue, constraint.owner.subtreeMax.databaseValue]
                    + chunk.flatMap(\.tuple)
                for existing in try db.fetchExactRows(sql: sql, values: arguments) {
                    let pk = Int64.fromDatabaseValue(existing[0]) ?? 0
                    guard !changed.contains(pk) else { continue }
                    let tuple = (0..<width).map { existing[2 + $0] }
                    guard let mine = owners[DatabaseValueTuple(tuple)] else { continue }
                    throw duplicate(constraint, mine.pk, mine.entity, tuple, with: objectID(pk, Int.fromDatabaseValue(existing[1]) ?? 0))
                }
            }
        }
    }

    private func duplicate(_ constraint: Constraint, _ pk: Int64, _ number: Int, _ tuple: [DatabaseValue], with other: String) -> StoreError {
        let described = zip(constraint.keys, tuple).map { key, value -> String in
            let attribute = store.model.attribute(key, of: entity) ?? store.model.entity(named: constraint.owner.name)
                .flatMap { store.model.attribute(key, of: $0) }
            let shown = attribute.map { AttributeCoding.objectValue(value, for: $0) } ?? .null
            return "\(key) = " + (shown.isText ? "'\(ValueText.plain(shown))'" : ValueText.plain(shown))
        }
        let changedKey = constraint.keys.first { key in targets.contains { $0.attribute.name == key } } ?? constraint.keys[0]
        var error = StoreError(.constraintViolation, "\(objectID(pk, number)): uniqueness constraint (\(constraint.keys.joined(separator: ", "))) "
                               + "violated: \(described.joined(separator: ", ")) is already taken by \(other)",
                               entity: store.layout.entity(number: number)?.name ?? entity.name)
        error.property = changedKey
        return error
    }
}

/// Column values usable as a dictionary key.
struct DatabaseValueTuple: Hashable {
    let values: [DatabaseValue]
    init(_ values: [DatabaseValue]) { self.values = values }
}
