import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreSQLite

extension CDStore.Context {
    /// Dictionary results: chosen properties, key paths and functions of them, per object or per group, all
    /// computed by one SQL query.
    ///
    /// ```swift
    /// let rows = try ctx.project("Employee", ["department.name", "sum:salary AS total", "count:employeeNumber"],
    ///                            groupBy: ["department.name"], having: "sum:(salary) > %@", 100_000, sort: ["-total"])
    /// for row in rows { print(row.get("department.name", as: String.self) ?? "-", row.get("total", as: Double.self) ?? 0, row.get("count:employeeNumber", as: Int.self) ?? 0) }
    /// ```
    ///
    /// Each result is keyed as Core Data keys dictionary results: by the alias (`AS total`), else by the
    /// property's text (`department.name`, `sum:salary`). Functions: `sum`, `average`, `count`, `min`, `max`,
    /// `median`, `stddev`, `lowercase`, `uppercase`.
    ///
    /// - Parameters:
    ///   - entity: The entity whose objects are projected.
    ///   - properties: What each result holds, in order.
    ///   - format: A predicate selecting the objects (nil: all).
    ///   - arguments: The values of `format`'s `%` specifiers.
    ///   - groupBy: Group the objects by these key paths or result keys.
    ///   - having: A predicate on groups: grouped keys, result keys, aggregate functions.
    ///   - havingArguments: The values of `having`'s `%` specifiers.
    ///   - sort: Result keys or key paths, `-` for descending.
    ///   - limit: At most this many results.
    ///   - distinct: Drop duplicate results.
    ///
    /// Core Data equivalent: a fetch with `resultType = .dictionaryResultType`, `propertiesToFetch`,
    /// `propertiesToGroupBy`, `havingPredicate` and `returnsDistinctResults`.
    public func project(_ entity: String, _ properties: [String], where format: String? = nil,
                        _ arguments: any ObjectValueConvertible..., groupBy: [String] = [], having: String? = nil,
                        _ havingArguments: any ObjectValueConvertible..., sort: [String] = [], limit: Int? = nil,
                        distinct: Bool = false) throws -> [ProjectionRow] {
        let request = try perform {
            try ProjectionRequest(entity: entity, properties: properties, predicate: try predicate(format, arguments),
                                  groupBy: groupBy, having: try predicate(having, havingArguments, input: .having), distinct: distinct,
                                  sort: sort.map(SortDescriptor.init(parsing:)), limit: limit)
        }
        return try project(request)
    }

    /// Streams a projection to `body` one result at a time, as `cdstore project` prints it, after `columns` has
    /// the result keys: the objects, their order and window from `criteria`, the filter on groups from `having`'s
    /// predicate. Each text of `propertyLists` and `groupByLists` may hold several items, comma-separated at the
    /// top level (`name,sum:(salary) AS total`). Errors are about the properties, the grouping, the filter on
    /// groups or the sort (``CDStoreError/input``).
    package func forEachProjected(_ entity: String, propertyLists: [String], matching criteria: Criteria,
                                  groupByLists: [String] = [], having: Criteria? = nil, distinct: Bool = false,
                                  columns: ([String]) throws -> Void,
                                  _ body: ([(String, ObjectValue)]) throws -> Void) throws {
        try perform {
            let request = try ProjectionRequest(
                entity: entity, properties: propertyLists.flatMap(ProjectionProperty.splitList), predicate: criteria.predicate,
                groupBy: groupByLists.flatMap(ProjectionProperty.splitList), having: having?.predicate, distinct: distinct,
                sort: criteria.sort, limit: criteria.limit, offset: criteria.offset,
                includesSubentities: criteria.includesSubentities)
            try columns(request.resultKeys)
            try store.forEachProjected(request, body)
        }
    }

    /// The results of a store-layer projection request.
    package func project(_ request: ProjectionRequest) throws -> [ProjectionRow] {
        try perform {
            let keys = ObjectKeys(names: request.resultKeys, relationships: [])
            var rows: [ProjectionRow] = []
            try store.forEachProjected(request) { row in rows.append(ProjectionRow(values: row.map(\.1), keys: keys)) }
            return rows
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

    /// The result as a dictionary, nil values included as ``ObjectValue/null``.
    public var dictionary: [String: ObjectValue] {
        Dictionary(zip(keys.names, values).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
    }
}
