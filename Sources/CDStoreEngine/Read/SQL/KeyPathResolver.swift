import CDStoreJSON
import CDStoreModel
import CDStorePredicate
internal import GRDB

/// The object a key path starts from: a table alias and the entity whose objects it holds. The fetched
/// objects are the scope `t`; a `SUBQUERY` variable or a to-many element gets a scope of its own (`t1`, `t2`, …).
struct Scope {
    var alias: String
    var entity: Entity
    var layout: EntityLayout
}

/// Hands out table aliases that are unique within one statement (`t1`, `t2`, …, join tables `j1`, …).
final class AliasGenerator {
    private var next = 0
    func make(_ prefix: String = "t") -> String {
        next += 1
        return "\(prefix)\(next)"
    }
}

/// The rows a key path walks through, outside the scope it starts from: a `FROM` item, the joins after it and the
/// conditions that tie it to the outer scope. Text holds only model-derived table/column names; bound values
/// travel in ``conditions``.
///
/// - A to-one step is `FROM DEST a … WHERE a.Z_PK = outer.FK` when it is the first step and a `LEFT JOIN DEST a
///   ON a.Z_PK = prev.FK` afterwards, so that a missing related object is one row of NULLs, i.e. NULL.
/// - A to-many through the inverse's foreign key is `DEST a WHERE a.FK = outer.Z_PK` (then `JOIN … ON`).
/// - A many-to-many is `JOINTABLE j JOIN DEST a ON a.Z_PK = j.DST WHERE j.SRC = outer.Z_PK`.
/// - Destination tables shared with entities outside the destination's subtree get a `Z_ENT` range condition.
struct PathSource {
    var from: String
    var joins: [String] = []
    var conditions: [SQLFragment] = []
    /// Whether the walk crossed a to-many relationship (so the path has several values).
    var isToMany = false

    /// `FROM … WHERE …` with `extra` conditions appended.
    func clause(_ extra: [SQLFragment] = []) -> SQLFragment {
        let all = conditions + extra
        var sql = "FROM \(from)"
        if !joins.isEmpty { sql += " " + joins.joined(separator: " ") }
        if !all.isEmpty { sql += " WHERE " + all.map { "(\($0.sql))" }.joined(separator: " AND ") }
        return SQLFragment(sql, all.flatMap(\.arguments))
    }
}

/// What a key path denotes once walked.
struct ResolvedPath {
    enum Value {
        /// An attribute's column.
        case attribute(Attribute)
        /// An object: `sql` is its `Z_PK` (a foreign key column when reached through a to-one).
        case object(Entity)
    }
    /// The rows walked; nil when the value is a column of the starting scope itself.
    var source: PathSource?
    /// The value's SQL, in terms of the last alias of the walk.
    var sql: String
    var value: Value
    /// The scope of the last object reached (for `SUBQUERY` variables and further walks).
    var scope: Scope?
}

/// Walks key paths over the model and layout, producing ``PathSource``s. Shared by predicates and sorting.
struct KeyPathResolver {
    let model: ManagedObjectModel
    let layout: StoreLayout
    let aliases: AliasGenerator

    func error(_ code: StoreError.Code, _ message: String, _ entity: Entity) -> StoreError {
        StoreError(code, message, entity: entity.name).about(.predicate)
    }

    func error(_ message: String, _ entity: Entity) -> StoreError {
        error(.invalidInput, message, entity)
    }

    func scope(for entity: Entity, alias: String) throws -> Scope {
        guard let entityLayout = layout.entity(named: entity.name) else {
            throw error(.unknownName, "no table for entity \(entity.name)", entity)
        }
        return Scope(alias: alias, entity: entity, layout: entityLayout)
    }

    /// Walks `keys` from `start`, continuing `source` when the walk resumes inside a collection.
    func walk(_ keys: [String], from start: Scope, source initial: PathSource? = nil, whole: String) throws -> ResolvedPath {
        var source = initial
        var current = start
        var keys = keys
        if keys.first == "SELF", keys.count > 1 { keys.removeFirst() }
        if keys.isEmpty || keys == ["SELF"] {
            return ResolvedPath(source: source, sql: "\(current.alias).Z_PK", value: .object(current.entity), scope: current)
        }
        for (index, key) in keys.enumerated() {
            let isLast = index == keys.count - 1
            if let attribute = model.attribute(key, of: current.entity) {
                if attribute.type == .composite {
                    return try compositeElement(attribute, keys: Array(keys[index...]), in: current, source: source,
                                                whole: whole)
                }
                guard let column = current.layout.attributeColumns[key] else {
                    throw error("'\(key)' is transient and not stored, so it cannot be used in a predicate", current.entity)
                }
                guard isLast else {
                    throw error("'\(key)' is an attribute of \(current.entity.name), so '\(whole)' cannot go on "
                                + "to '\(keys[index + 1])'", current.entity)
                }
                return ResolvedPath(source: source, sql: "\(current.alias).\(column)", value: .attribute(attribute), scope: nil)
            }
            guard let relationship = model.relationship(key, of: current.entity) else {
                let candidates = model.attributes(of: current.entity).map(\.name) + model.relationships(of: current.entity).map(\.name)
                throw error(.unknownName, "no attribute or relationship '\(key)' in \(current.entity.name)"
                            + (whole.contains(".") ? " (in '\(whole)')" : "")
                            + Suggestion.didYouMean(key, among: candidates), current.entity)
            }
            guard let destination = model.entity(named: relationship.destination) else {
                throw error("relationship '\(key)' has no destination entity", current.entity)
            }
            if relationship.isTransient {
                throw error("'\(key)' is transient and not stored, so it cannot be used in a predicate", current.entity)
            }
            if !relationship.isToMany {
                guard let toOne = current.layout.toOnes[key] else {
                    throw error("relationship '\(key)' has no column", current.entity)
                }
                if isLast {
                    // The object itself: its primary key is the foreign key column, no join needed.
                    return ResolvedPath(source: source, sql: "\(current.alias).\(toOne.foreignKey)", value: .object(destination),
                                        scope: nil)
                }
                let next = try scope(for: destination, alias: aliases.make())
                if source == nil {
                    source = PathSource(from: "\(next.layout.table) \(next.alias)",
                                        conditions: [SQLFragment("\(next.alias).Z_PK = \(current.alias).\(toOne.foreignKey)")])
                } else {
                    source!.joins.append("LEFT JOIN \(next.layout.table) \(next.alias) ON \(next.alias).Z_PK = "
                                         + "\(current.alias).\(toOne.foreignKey)")
                }
                current = next
                continue
            }
            guard let toMany = current.layout.toManys[key] else {
                throw error("relationship '\(key)' has no storage", current.entity)
            }
            let next = try scope(for: destination, alias: aliases.make())
            var step: (from: String, join: String, condition: String)
            switch toMany {
            case .foreignKey(let table, let foreignKey, _, _):
                step = ("\(table) \(next.alias)", "JOIN \(table) \(next.alias) ON \(next.alias).\(foreignKey) = \(current.alias).Z_PK",
                        "\(next.alias).\(foreignKey) = \(current.alias).Z_PK")
            case .joinTable(let table, let sourceColumn, let destinationColumn, _):
                let link = aliases.make("j")
                step = ("\(table) \(link) JOIN \(next.layout.table) \(next.alias) ON \(next.alias).Z_PK = \(link).\(destinationColumn)",
                        "JOIN \(table) \(link) ON \(link).\(sourceColumn) = \(current.alias).Z_PK JOIN \(next.layout.table) "
                        + "\(next.alias) ON \(next.alias).Z_PK = \(link).\(destinationColumn)",
                        "\(link).\(sourceColumn) = \(current.alias).Z_PK")
            }
            if source == nil {
                source = PathSource(from: step.from, conditions: [SQLFragment(step.condition)])
            } else {
                source!.joins.append(step.join)
            }
            if let filter = entityFilter(next) { source!.conditions.append(filter) }
            source!.isToMany = true
            current = next
            if isLast {
                return ResolvedPath(source: source, sql: "\(current.alias).Z_PK", value: .object(destination), scope: current)
            }
        }
        // Only reached when the last key was a to-one that needed a join (never: handled above).
        return ResolvedPath(source: source, sql: "\(current.alias).Z_PK", value: .object(current.entity), scope: current)
    }

    /// `alias.Z_ENT` restricted to the scope's entity and its sub-entities, when its table holds other entities.
    func entityFilter(_ scope: Scope) -> SQLFragment? {
        let sharing = layout.entities.filter { $0.table == scope.layout.table }
        if sharing.allSatisfy({ scope.layout.subtreeNumbers.contains($0.number) }) { return nil }
        if scope.layout.subtreeMax == scope.layout.number {
            return SQLFragment("\(scope.alias).Z_ENT = ?", [scope.layout.number.databaseValue])
        }
        return SQLFragment("\(scope.alias).Z_ENT BETWEEN ? AND ?",
                           [scope.layout.number.databaseValue, scope.layout.subtreeMax.databaseValue])
    }

    /// A single-valued key path as one SQL value: the column itself, or a correlated scalar subquery that is
    /// NULL when a related object is missing. Throws for paths through a to-many relationship.
    func scalar(_ path: String, from start: Scope) throws -> (fragment: SQLFragment, attribute: Attribute?) {
        let resolved = try walk(PredicateKeyPath(path).keys, from: start, whole: path)
        if PredicateKeyPath(path).hasCollectionOperator {
            throw error("cannot sort by '\(path)': collection operators are not sortable", start.entity)
        }
        var attribute: Attribute?
        if case .attribute(let a) = resolved.value { attribute = a }
        guard let source = resolved.source else { return (SQLFragment(resolved.sql), attribute) }
        guard !source.isToMany else {
            throw error("'\(path)' goes through a to-many relationship, so it has several values", start.entity)
        }
        let clause = source.clause()
        return (SQLFragment("(SELECT \(resolved.sql) \(clause.sql))", clause.arguments), attribute)
    }
}
