import CDStoreEngine
import CDStoreModel
import CDStorePredicate
import Foundation
internal import GRDB

/// What one entity mapping did with the objects of its source entity (or, for `mapping == nil`, what happened to
/// objects no mapping takes).
public struct MappedObjectCount: Sendable, Equatable {
    /// The entity mapping; nil for a source entity no mapping names (its objects are dropped).
    public var mapping: String?
    /// The entity whose objects the mapping took.
    public var sourceEntity: String?
    /// The entity whose objects it created.
    public var destinationEntity: String?
    /// Source objects the mapping takes (its filter passed).
    public var taken: Int
    /// Destination objects it creates.
    public var created: Int
    /// Source objects of its entity left behind (the filter rejected them, or nothing takes them).
    public var leftBehind: Int
}

/// A source object for a mapping's expressions: its attribute values by name.
struct MappingSourceObject: PredicateEvaluable {
    var values: [String: EvaluationValue]
    func value(forKey key: String) -> EvaluationValue { values[key] ?? .null }
}

/// A Binary or Transformable value for a mapping's expressions: present (not nil), and as long as it is
/// (`image.length`, as `NSData` answers), its bytes not readable as a value.
struct StoredBytes: PredicateEvaluable {
    var length: Int
    func value(forKey key: String) -> EvaluationValue { key == "length" ? .int(Int64(length)) : .null }
}

extension MappedStep {
    /// Stage 1's work before the rows move: counts the objects each mapping takes, drops the source objects its
    /// filter rejects, and evaluates computed value expressions into temporary tables (`pk → v`).
    func prepare(db: Database, sourceLayout: StoreLayout, source: ManagedObjectModel,
                 record: (String) throws -> Void) throws -> [MappedObjectCount] {
        var counts: [MappedObjectCount] = []
        var named: Set<String> = []
        let existing = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        // Streams the source objects of `entity` (a cursor: memory stays flat in the number of objects).
        func forEachObject(of entity: String, _ body: (Int64, MappingSourceObject) throws -> Void) throws {
            guard let layout = sourceLayout.entity(named: entity), existing.contains(layout.table),
                  let modelEntity = source.entity(named: entity) else { return }
            let attributes = source.attributes(of: modelEntity).filter { layout.attributeColumns[$0.name] != nil }
            let columns = attributes.map { layout.attributeColumns[$0.name]! }
            let sql = "SELECT Z_PK\(columns.map { ", \($0)" }.joined()) FROM \(layout.table) WHERE Z_ENT = ?"
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: [layout.number])
            while let row = try cursor.next() {
                var values: [String: EvaluationValue] = [:]
                for (index, attribute) in attributes.enumerated() {
                    values[attribute.name] = Self.evaluationValue(row[index + 1] as DatabaseValue, type: attribute.type)
                }
                try body(row[0], MappingSourceObject(values: values))
            }
        }
        func count(_ entity: String) throws -> Int {
            guard let layout = sourceLayout.entity(named: entity), existing.contains(layout.table) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(layout.table) WHERE Z_ENT = ?", arguments: [layout.number]) ?? 0
        }
        var evaluator = PredicateEvaluator()
        evaluator.invocationHandler = MappingExpressionCheck.invoke
        // SQL over the source layout first: it reads every stored type (a Binary attribute is not nil there, where
        // the evaluator sees no value). The evaluator takes what SQL does not express (`$source`, `FUNCTION`).
        func rejectedKeys(_ filter: PredicateNode, of entity: String, mapping: String) throws -> [Int64] {
            if let layout = sourceLayout.entity(named: entity), let modelEntity = source.entity(named: entity),
               let condition = try? sourceLayout.condition(filter, on: modelEntity, model: source) {
                guard existing.contains(layout.table) else { return [] }
                return try Int64.fetchAll(db, sql: "SELECT t.Z_PK FROM \(layout.table) t WHERE t.Z_ENT = ? AND NOT IFNULL((\(condition.sql)), 0)",
                                          arguments: StatementArguments([layout.number.databaseValue] + condition.arguments))
            }
            var rejected: [Int64] = []
            try forEachObject(of: entity) { pk, object in
                evaluator.variables = ["source": .object(object)]
                let passes: Bool
                do {
                    passes = try evaluator.evaluate(filter, with: .object(object))
                } catch {
                    throw StoreError(.invalidInput, "entity mapping '\(mapping)': its filter cannot be evaluated on \(entity) "
                                     + "object \(pk): \(error)")
                }
                if !passes { rejected.append(pk) }
            }
            return rejected
        }
        // Splits read the source objects before the key-keeping mappings' filters drop any.
        var splitCounts: [String: Int] = [:]
        for split in splits {
            splitCounts[split.mapping] = try capture(split, db: db, sourceLayout: sourceLayout, record: record) { filter in
                try rejectedKeys(filter, of: split.sourceEntity, mapping: split.mapping)
            }
        }
        for mapping in model.entityMappings {
            guard let sourceName = mapping.sourceEntityName else {
                counts.append(MappedObjectCount(mapping: mapping.name, sourceEntity: nil, destinationEntity: mapping.destinationEntityName,
                                                taken: 0, created: 0, leftBehind: 0))
                continue
            }
            named.insert(sourceName)
            let total = try count(sourceName)
            if let made = splitCounts[mapping.name] {
                counts.append(MappedObjectCount(mapping: mapping.name, sourceEntity: sourceName, destinationEntity: mapping.destinationEntityName,
                                                taken: made, created: made, leftBehind: total - made))
                continue
            }
            var taken = total
            if let filter = filters.first(where: { $0.mapping == mapping.name }), let layout = sourceLayout.entity(named: sourceName) {
                let rejected = try rejectedKeys(filter.predicate, of: sourceName, mapping: mapping.name)
                taken = total - rejected.count
                if !rejected.isEmpty {
                    let sql = "DELETE FROM \(layout.table) WHERE Z_PK = ?"
                    try record(sql)
                    let delete = try db.makeStatement(sql: sql)
                    for pk in rejected { try delete.execute(arguments: [pk]) }
                }
            }
            let creates = mapping.destinationEntityName != nil && mapping.type != .remove && inferred.entities[mapping.destinationEntityName!] == sourceName
            counts.append(MappedObjectCount(mapping: mapping.name, sourceEntity: sourceName, destinationEntity: mapping.destinationEntityName,
                                            taken: creates ? taken : 0, created: creates ? taken : 0,
                                            leftBehind: creates ? total - taken : total))
        }
        for entity in source.entities where !named.contains(entity.name) {
            let total = try count(entity.name)
            if total > 0 {
                counts.append(MappedObjectCount(mapping: nil, sourceEntity: entity.name, destinationEntity: nil, taken: 0, created: 0,
                                                leftBehind: total))
            }
        }
        // One pass over each source entity's objects evaluates every computed expression that reads it.
        var sourceOrder: [String] = []
        var inserts: [String: [(item: Computed, statement: Statement)]] = [:]
        for item in computed {
            try db.execute(sql: "CREATE TEMP TABLE \(item.table) (pk INTEGER PRIMARY KEY, v)")
            if inserts[item.sourceEntity] == nil { sourceOrder.append(item.sourceEntity) }
            inserts[item.sourceEntity, default: []].append(
                (item, try db.makeStatement(sql: "INSERT INTO temp.\(item.table) (pk, v) VALUES (?, ?)")))
        }
        for entity in sourceOrder {
            try forEachObject(of: entity) { pk, object in
                evaluator.variables = ["source": .object(object)]
                for (item, insert) in inserts[entity] ?? [] {
                    let value: EvaluationValue
                    do {
                        value = try evaluator.value(of: item.expression, with: .object(object))
                    } catch {
                        throw StoreError(.invalidInput, "entity mapping '\(item.mapping)', attribute '\(item.attribute.name)': \(item.text) "
                                         + "cannot be evaluated for \(item.sourceEntity) object \(pk): \(error)")
                    }
                    try insert.execute(arguments: [pk, try Self.databaseValue(value, for: item.attribute, mapping: item.mapping)])
                }
            }
        }
        return counts
    }

    /// Stage 3: every object of a mapped destination entity has its required attributes and to-ones.
    func validate(db: Database, destinationLayout: StoreLayout, destination: ManagedObjectModel) throws {
        var problems: [String] = []
        for name in Set(inferred.entities.keys).union(splits.map(\.destinationEntity)).sorted() {
            guard let entity = destination.entity(named: name), let layout = destinationLayout.entity(named: name) else { continue }
            for attribute in destination.attributes(of: entity) where !attribute.isOptional && !attribute.isTransient {
                guard let column = layout.attributeColumns[attribute.name] else { continue }
                let nulls = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(layout.table) WHERE Z_ENT = ? AND \(column) IS NULL",
                                             arguments: [layout.number]) ?? 0
                if nulls > 0 { problems.append("\(nulls) \(name) objects have no value for the required attribute '\(attribute.name)'") }
            }
            for relationship in destination.relationships(of: entity) where !relationship.isOptional && !relationship.isToMany {
                guard let toOne = layout.toOnes[relationship.name] else { continue }
                let nulls = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(layout.table) WHERE Z_ENT = ? AND \(toOne.foreignKey) IS NULL",
                                             arguments: [layout.number]) ?? 0
                if nulls > 0 { problems.append("\(nulls) \(name) objects have no '\(relationship.name)' (a required relationship)") }
            }
        }
        if !problems.isEmpty {
            throw StoreError(.invalidInput, "the objects mapping model \(URL(fileURLWithPath: model.file).lastPathComponent) made do not "
                             + "validate against the destination model (Core Data error 1570): " + problems.joined(separator: "; ")
                             + "; the store is unchanged").coreData(1570)
        }
    }

    static func evaluationValue(_ value: DatabaseValue, type: AttributeType) -> EvaluationValue {
        switch value.storage {
        case .null: return .null
        case .int64(let i):
            switch type {
            case .boolean: return .bool(i != 0)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            case .double, .float, .decimal: return .double(Double(i))
            default: return .int(i)
            }
        case .double(let d):
            return type == .date ? .date(Date(timeIntervalSinceReferenceDate: d)) : .double(d)
        case .string(let s): return .string(s)
        case .blob(let bytes): return .object(StoredBytes(length: bytes.count))
        }
    }

    static func databaseValue(_ value: EvaluationValue, for attribute: Attribute, mapping: String) throws -> DatabaseValue {
        func wrong() -> StoreError {
            StoreError(.invalidInput, "entity mapping '\(mapping)', attribute '\(attribute.name)': the value expression gives a "
                       + "\(value.kindName), which a \(attribute.type.rawValue) attribute cannot hold (Core Data error 1550)").coreData(1550)
        }
        switch value {
        case .null: return .null
        case .collection, .object: throw wrong()
        case .date(let d):
            guard attribute.type == .date else { throw wrong() }
            return d.timeIntervalSinceReferenceDate.databaseValue
        case .bool(let b):
            switch attribute.type {
            case .boolean, .integer16, .integer32, .integer64: return (b ? 1 : 0).databaseValue
            case .double, .float, .decimal: return (b ? 1.0 : 0.0).databaseValue
            default: throw wrong()
            }
        case .int(let i):
            switch attribute.type {
            case .boolean, .integer16, .integer32, .integer64: return i.databaseValue
            case .double, .float, .decimal, .date: return Double(i).databaseValue
            case .string: return String(i).databaseValue
            default: throw wrong()
            }
        case .double(let d):
            switch attribute.type {
            case .double, .float, .decimal, .date: return d.databaseValue
            case .integer16, .integer32, .integer64:
                guard d.isFinite, d == d.rounded(), abs(d) < 9.2e18 else { throw wrong() }
                return Int64(d).databaseValue
            case .string: return String(d).databaseValue
            default: throw wrong()
            }
        case .string(let s):
            switch attribute.type {
            case .string, .uri: return s.databaseValue
            case .integer16, .integer32, .integer64:
                guard let i = Int64(s) else { throw wrong() }
                return i.databaseValue
            case .double, .float, .decimal:
                guard let d = Double(s) else { throw wrong() }
                return d.databaseValue
            default: throw wrong()
            }
        }
    }
}
