import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreEngine

extension CDStore.Context {
    /// Dictionary results: chosen properties, key paths and functions of them, per object or per group, all
    /// computed by one SQL query.
    ///
    /// ```swift
    /// let rows = try ctx.project("Employee", ["department.name", "sum:salary AS total", "count:employeeNumber"],
    ///                            matching: Criteria.all.sorted(by: ["-total"]), groupBy: ["department.name"],
    ///                            having: try Criteria("sum:(salary) > %@", 100_000))
    /// for row in rows { print(row.get("department.name", as: String.self) ?? "-", row.get("total", as: Double.self) ?? 0) }
    /// ```
    ///
    /// Each result is keyed as Core Data keys dictionary results: by the alias (`AS total`), else by the
    /// property's text (`department.name`, `sum:salary`). Functions: `sum`, `average`, `count`, `min`, `max`,
    /// `median`, `stddev`, `lowercase`, `uppercase`.
    ///
    /// - Parameters:
    ///   - entity: The entity whose objects are projected.
    ///   - properties: What each result holds, in order; a text may list several, comma-separated at the top level
    ///     (`"name, sum:(salary) AS total"`).
    ///   - criteria: The objects (filter and sub-entities), and the results' order (result keys or key paths) and
    ///     window.
    ///   - groupBy: Group the objects by these key paths or result keys (comma-separated lists too).
    ///   - having: A predicate on groups: grouped keys, result keys, aggregate functions.
    ///   - distinct: Drop duplicate results.
    ///
    /// Core Data equivalent: a fetch with `resultType = .dictionaryResultType`, `propertiesToFetch`,
    /// `propertiesToGroupBy`, `havingPredicate` and `returnsDistinctResults`.
    public func project(_ entity: String, _ properties: [String], matching criteria: Criteria = .all,
                        groupBy: [String] = [], having: Criteria? = nil, distinct: Bool = false) throws -> [ProjectionRow] {
        var rows: [ProjectionRow] = []
        try forEachProjection(entity, properties, matching: criteria, groupBy: groupBy, having: having,
                              distinct: distinct) { rows.append($0) }
        return rows
    }

    /// The results of ``project(_:_:matching:groupBy:having:distinct:)`` handed to `body` one at a time as SQLite
    /// produces them, so that memory stays flat whatever their number; `columns` first gets the result keys (also
    /// when there is no result). Errors are about the properties, the grouping, the filter on groups or the sort
    /// (``CDStoreError/input``).
    public func forEachProjection(_ entity: String, _ properties: [String], matching criteria: Criteria = .all,
                                  groupBy: [String] = [], having: Criteria? = nil, distinct: Bool = false,
                                  columns: (([String]) throws -> Void)? = nil,
                                  _ body: (ProjectionRow) throws -> Void) throws {
        try perform {
            let request = try ProjectionRequest(
                entity: entity, properties: properties.flatMap(ProjectionProperty.splitList), predicate: criteria.predicate,
                groupBy: groupBy.flatMap(ProjectionProperty.splitList), having: having?.predicate, distinct: distinct,
                sort: criteria.sort, limit: criteria.limit, offset: criteria.offset,
                includesSubentities: criteria.includesSubentities)
            try columns?(request.resultKeys)
            let keys = ObjectKeys(names: request.resultKeys, relationships: [])
            try store.forEachProjected(request) { row in try body(ProjectionRow(values: row.map(\.1), keys: keys)) }
        }
    }
}

/// One result of a projection: values keyed by result key (`department.name`, `sum:salary`, or an alias), with
/// the typed reads of ``ValueReading`` (`row.get("total", as: Double.self)`).
///
/// Core Data equivalent: one `NSDictionary` of a `.dictionaryResultType` fetch.
public struct ProjectionRow: Sendable, ValueReading {
    /// The values, in the order of the request's properties.
    public let values: [ObjectValue]
    let keys: ObjectKeys

    init(values: [ObjectValue], keys: ObjectKeys) {
        self.values = values
        self.keys = keys
    }

    /// The result keys, in order.
    public var resultKeys: [String] { keys.names }

    /// The value under `key`, or nil when the results have no such key.
    public func value(forKey key: String) -> ObjectValue? {
        keys.positions[key].map { values[$0] }
    }

    /// The result as a dictionary, nil values included as `ObjectValue.null`.
    public var dictionary: [String: ObjectValue] {
        Dictionary(zip(keys.names, values).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }
}
