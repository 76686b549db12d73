import CDStoreIO
import CDStoreModel
import CDStoreJSON
import CDStorePredicate
import CDStoreEngine

/// A query built from values instead of format strings: filters combined with `and`/`or`/`not`, an order and
/// a window, turned into the same predicate tree a format string parses to.
///
/// ```swift
/// let criteria = (Criteria.greaterThanOrEqual("age", 30) && .equal("department.name", "R&D") && .notEqual("email", nil))
///     .sorted(by: ["-salary", "lastName"])
///     .limit(50)
/// let seniors = try ctx.fetch("Employee", matching: criteria)
/// print(criteria)   // age >= 30 AND department.name == "R&D" AND email != nil sorted by -salary,lastName limit 50
/// ```
///
/// Values are Swift values (``ObjectValueConvertible``), bound as constants: user text never becomes
/// predicate syntax. Key paths are dotted (`department.name`) and may use collection operators
/// (`employees.@count`).
///
/// Core Data equivalent: an `NSFetchRequest` whose predicate is built with `NSComparisonPredicate` and
/// `NSCompoundPredicate`.
public struct Criteria: Sendable, Equatable, CustomStringConvertible {
    /// The filter; nil matches every object.
    package var predicate: PredicateNode?
    /// The order, most significant first.
    package var sort: [SortDescriptor]
    /// At most this many objects.
    package var limit: Int?
    /// Skip this many objects first.
    package var offset: Int?
    /// Include objects of sub-entities (true unless ``excludingSubentities()``).
    package var includesSubentities = true
    /// Relationships whose objects are fetched with the results (``prefetching(_:)``).
    package var includes: [String] = []
    /// Where keyset paging starts (``after(primaryKey:)``).
    package var afterPrimaryKey: Int64?
    /// How relationships are read (``relationships(as:)``).
    package var relationshipValues: RelationshipValues = .objectIDs

    /// Criteria with a filter (nil: all objects), an order and a window.
    package init(predicate: PredicateNode? = nil, sort: [SortDescriptor] = [], limit: Int? = nil, offset: Int? = nil) {
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// Criteria from a predicate format and its arguments, for what the factories do not say
    /// (`SUBQUERY`, `ANY`, arithmetic): `try Criteria("ANY employees.age > %@", 50)`.
    public init(_ format: String, _ arguments: any ObjectValueConvertible...) throws {
        self.init(predicate: try CDStoreError.parsingPredicate(format) {
            try PredicateParser.parse(format, arguments: arguments.map(\.formatArgument))
        })
    }

    /// Every object, in primary-key order.
    public static var all: Criteria { Criteria() }

    /// The predicate in NSPredicate format, then the order and window: `age > 30 sorted by -salary limit 5`.
    public var description: String {
        var parts = [predicate.map { PredicateFormatter.format($0) } ?? "TRUEPREDICATE"]
        if !sort.isEmpty { parts.append("sorted by " + sort.map { ($0.ascending ? "" : "-") + $0.keyPath }.joined(separator: ",")) }
        if let limit { parts.append("limit \(limit)") }
        if let offset { parts.append("offset \(offset)") }
        return parts.joined(separator: " ")
    }

    /// The fetch request these criteria describe for `entity`.
    package func request(for entity: String) -> ObjectFetchRequest {
        var request = ObjectFetchRequest(entity: entity, predicate: predicate, sort: sort, limit: limit, offset: offset,
                                         includesSubentities: includesSubentities, includes: includes)
        request.afterPrimaryKey = afterPrimaryKey
        request.relationships = switch relationshipValues {
        case .objectIDs: .objectIDs
        case .counts: .counts
        case .none: .none
        }
        return request
    }
}

extension Criteria {
    /// `keyPath == value` (nil compares with nil: `.equal("email", nil)` finds objects without an email).
    public static func equal(_ keyPath: String, _ value: (any ObjectValueConvertible)?, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .equal, value, options)
    }

    /// `keyPath != value` (`.notEqual("email", nil)` finds objects with one).
    public static func notEqual(_ keyPath: String, _ value: (any ObjectValueConvertible)?, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .notEqual, value, options)
    }

    /// `keyPath < value`.
    public static func lessThan(_ keyPath: String, _ value: any ObjectValueConvertible) -> Criteria {
        compare(keyPath, .lessThan, value, [])
    }

    /// `keyPath <= value`.
    public static func lessThanOrEqual(_ keyPath: String, _ value: any ObjectValueConvertible) -> Criteria {
        compare(keyPath, .lessThanOrEqual, value, [])
    }

    /// `keyPath > value`.
    public static func greaterThan(_ keyPath: String, _ value: any ObjectValueConvertible) -> Criteria {
        compare(keyPath, .greaterThan, value, [])
    }

    /// `keyPath >= value`.
    public static func greaterThanOrEqual(_ keyPath: String, _ value: any ObjectValueConvertible) -> Criteria {
        compare(keyPath, .greaterThanOrEqual, value, [])
    }

    /// `keyPath BETWEEN {low, high}`, inclusive at both ends.
    public static func between(_ keyPath: String, _ low: any ObjectValueConvertible, _ high: any ObjectValueConvertible) -> Criteria {
        filter(PredicateComparison(left: .keyPath(keyPath), op: .between,
                                   right: .constant(.array([low.predicateValue, high.predicateValue]))))
    }

    /// `keyPath IN {values…}`.
    public static func `in`(_ keyPath: String, _ values: [any ObjectValueConvertible]) -> Criteria {
        filter(PredicateComparison(left: .keyPath(keyPath), op: .in, right: .constant(.array(values.map(\.predicateValue)))))
    }

    /// `keyPath LIKE pattern`: `*` is any run of characters, `?` one character; `[c]` with `.caseInsensitive`.
    public static func like(_ keyPath: String, _ pattern: String, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .like, pattern, options)
    }

    /// `keyPath BEGINSWITH prefix`.
    public static func beginsWith(_ keyPath: String, _ prefix: String, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .beginsWith, prefix, options)
    }

    /// `keyPath ENDSWITH suffix`.
    public static func endsWith(_ keyPath: String, _ suffix: String, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .endsWith, suffix, options)
    }

    /// `keyPath CONTAINS text` (a substring of a string attribute).
    public static func contains(_ keyPath: String, _ text: String, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .contains, text, options)
    }

    /// `keyPath MATCHES regex`: the whole string matches an ICU regular expression.
    public static func matches(_ keyPath: String, _ regex: String, options: ComparisonOptions = []) -> Criteria {
        compare(keyPath, .matches, regex, options)
    }

    /// Objects matching every one of `criteria` (their orders follow each other; the last window wins).
    public static func and(_ criteria: [Criteria]) -> Criteria { combine(criteria, all: true) }

    /// Objects matching at least one of `criteria`.
    public static func or(_ criteria: [Criteria]) -> Criteria { combine(criteria, all: false) }


    /// The same filter in this order: `name`, `-name` (descending), `name:ci` (ignoring case), most significant
    /// first; key paths through to-one relationships sort too (`department.name`).
    public func sorted(by keys: [String]) -> Criteria {
        var copy = self
        copy.sort = keys.map(SortDescriptor.init(parsing:))
        return copy
    }

    /// The same filter and order, at most `limit` objects (nil: no limit) after skipping `offset`.
    public func limit(_ limit: Int?, offset: Int? = nil) -> Criteria {
        var copy = self
        copy.limit = limit
        copy.offset = offset ?? self.offset
        return copy
    }

    /// The same criteria, starting after the object whose primary key is `primaryKey` in this order (keyset
    /// paging): where an offset makes SQLite step over every skipped row, a page after a key is found through the
    /// primary key and the sort columns, so a deep page costs what the first one does.
    ///
    /// ```swift
    /// var page = try ctx.fetch("Employee", matching: Criteria.all.sorted(by: ["-salary"]).limit(100))
    /// while let last = page.last {
    ///     page = try ctx.fetch("Employee", matching: Criteria.all.sorted(by: ["-salary"]).limit(100)
    ///         .after(primaryKey: last.primaryKey))
    /// }
    /// ```
    public func after(primaryKey: Int64) -> Criteria {
        var copy = self
        copy.afterPrimaryKey = primaryKey
        return copy
    }

    /// How fetched objects hold their relationships (``relationships(as:)``).
    public enum RelationshipValues: Sendable {
        /// To-one relationships as the related object's ID, to-many ones as the IDs in relationship order.
        case objectIDs
        /// To-many relationships as their number of objects; to-one ones as IDs.
        case counts
        /// No relationship values at all: attributes only.
        case none
    }

    /// The same criteria, with relationships read as `values` (object IDs unless this says otherwise).
    public func relationships(as values: RelationshipValues) -> Criteria {
        var copy = self
        copy.relationshipValues = values
        return copy
    }

    /// The same criteria, leaving out objects of the entity's sub-entities.
    ///
    /// Core Data equivalent: `includesSubentities = false`.
    public func excludingSubentities() -> Criteria {
        var copy = self
        copy.includesSubentities = false
        return copy
    }

    /// The same criteria, with the objects of these relationship key paths (`"employees"`,
    /// `"employees.badge"`) fetched with the results, one query per relationship and batch, and nested in
    /// each ``StoredObject`` instead of named by ID. A fetched property of the model named here is added to each
    /// object as the array of objects its fetch request finds for it (`$FETCH_SOURCE` bound to the object).
    ///
    /// Core Data equivalent: `relationshipKeyPathsForPrefetching`.
    public func prefetching(_ keyPaths: [String]) -> Criteria {
        var copy = self
        copy.includes += keyPaths
        return copy
    }

    /// `a && b`: both.
    public static func && (lhs: Criteria, rhs: Criteria) -> Criteria { .and([lhs, rhs]) }
    /// `a || b`: either.
    public static func || (lhs: Criteria, rhs: Criteria) -> Criteria { .or([lhs, rhs]) }
    /// `!a`: objects not matching `a`.
    public static prefix func ! (criteria: Criteria) -> Criteria {
        var negated = criteria
        negated.predicate = .not(criteria.predicate ?? .constant(true))
        return negated
    }

    private static func compare(_ keyPath: String, _ op: ComparisonOperator, _ value: (any ObjectValueConvertible)?,
                                _ options: ComparisonOptions) -> Criteria {
        filter(PredicateComparison(left: .keyPath(keyPath), op: op, right: .constant(value?.predicateValue ?? .null),
                                   options: options))
    }

    private static func filter(_ comparison: PredicateComparison) -> Criteria {
        Criteria(predicate: .comparison(comparison))
    }

    /// Flattens nested ANDs (ORs) into one chain, as the parser reads `a AND b AND c`, so that the printed
    /// format is the one a person would write.
    private static func combine(_ criteria: [Criteria], all: Bool) -> Criteria {
        var operands: [PredicateNode] = []
        for predicate in criteria.compactMap(\.predicate) {
            switch (predicate, all) {
            case (.and(let inner), true), (.or(let inner), false): operands += inner
            default: operands.append(predicate)
            }
        }
        let predicate: PredicateNode? = switch operands.count {
        case 0: nil
        case 1: operands[0]
        default: all ? .and(operands) : .or(operands)
        }
        // An OR of a criterion that matches everything matches everything.
        let matchesAll = !all && criteria.contains { $0.predicate == nil }
        var combined = Criteria(predicate: matchesAll ? nil : predicate, sort: criteria.flatMap(\.sort),
                                limit: criteria.last { $0.limit != nil }?.limit,
                                offset: criteria.last { $0.offset != nil }?.offset)
        combined.includesSubentities = criteria.allSatisfy(\.includesSubentities)
        combined.includes = criteria.flatMap(\.includes)
        combined.afterPrimaryKey = criteria.last { $0.afterPrimaryKey != nil }?.afterPrimaryKey
        combined.relationshipValues = criteria.last { $0.relationshipValues != .objectIDs }?.relationshipValues ?? .objectIDs
        return combined
    }
}
