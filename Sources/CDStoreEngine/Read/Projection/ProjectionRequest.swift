import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation

/// A dictionary fetch: chosen properties and functions of them, optionally grouped, per object or per group.
///
/// ```swift
/// let request = try ProjectionRequest(entity: "Employee", properties: ["department.name", "sum:salary AS total"],
///                                     groupBy: ["department.name"])
/// let rows = try store.project(request)   // [[("department.name", .string("Sales")), ("total", .decimal(…))], …]
/// ```
///
/// Core Data equivalent: an `NSFetchRequest` with `resultType = .dictionaryResultType`, `propertiesToFetch`
/// (attributes, key paths and `NSExpressionDescription`s), `propertiesToGroupBy`, `havingPredicate` and
/// `returnsDistinctResults`.
package struct ProjectionRequest: Sendable {
    /// The entity whose objects are projected.
    package var entity: String
    /// What each result holds, in order.
    package var properties: [ProjectionProperty]
    /// Only objects matching it (nil = all).
    package var predicate: PredicateNode?
    /// Group the objects by these values (`propertiesToGroupBy`): key paths, `lowercase:`/`uppercase:` of one,
    /// or the result key of a property.
    package var groupBy: [ProjectionProperty]
    /// Only groups matching it (`havingPredicate`); needs ``groupBy``. Key paths in it are grouped keys or result
    /// keys (aliases), functions in Core Data's spelling (`sum:(salary) > 1000`, `count:(id) >= 2`) aggregate the group.
    package var having: PredicateNode?
    /// Drop duplicate results (`returnsDistinctResults`).
    package var distinct: Bool
    /// Order of the results: result keys (`total`, `sum:salary`) or key paths.
    package var sort: [SortDescriptor]
    /// At most this many results.
    package var limit: Int?
    /// Skip this many results first.
    package var offset: Int?
    /// Include objects of sub-entities.
    package var includesSubentities: Bool

    package init(entity: String, properties: [ProjectionProperty], predicate: PredicateNode? = nil,
                groupBy: [ProjectionProperty] = [], having: PredicateNode? = nil, distinct: Bool = false,
                sort: [SortDescriptor] = [], limit: Int? = nil, offset: Int? = nil, includesSubentities: Bool = true) {
        self.entity = entity
        self.properties = properties
        self.predicate = predicate
        self.groupBy = groupBy
        self.having = having
        self.distinct = distinct
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.includesSubentities = includesSubentities
    }

    /// A request from property texts (see ``ProjectionProperty/init(parsing:)``).
    package init(entity: String, properties: [String], predicate: PredicateNode? = nil, groupBy: [String] = [],
                having: PredicateNode? = nil, distinct: Bool = false, sort: [SortDescriptor] = [], limit: Int? = nil,
                offset: Int? = nil, includesSubentities: Bool = true) throws {
        func parse(_ texts: [String], _ input: ErrorInput) throws -> [ProjectionProperty] {
            do {
                return try texts.map(ProjectionProperty.init(parsing:))
            } catch let error as StoreError {
                throw error.about(input)
            }
        }
        self.init(entity: entity, properties: try parse(properties, .properties), predicate: predicate,
                  groupBy: try parse(groupBy, .groupBy), having: having, distinct: distinct,
                  sort: sort, limit: limit, offset: offset, includesSubentities: includesSubentities)
    }

    /// The keys of each result, in order.
    package var resultKeys: [String] { properties.map(\.key) }
}

/// One value of a projection: an attribute, a key path or an expression, optionally under a function.
///
/// Core Data equivalent: a property or key path in `propertiesToFetch`, or an `NSExpressionDescription` whose
/// expression is `NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "salary")])`.
package struct ProjectionProperty: Sendable, Equatable {
    /// Functions of Core Data's `NSExpression(forFunction:arguments:)` that a projection can apply.
    package enum Function: String, Sendable, CaseIterable {
        case sum, average, count, min, max, median, stddev, lowercase, uppercase

        /// Whether the function folds many objects into one value (all but `lowercase`, `uppercase`).
        package var isAggregate: Bool { self != .lowercase && self != .uppercase }
    }

    /// The function, or nil for the value itself.
    package var function: Function?
    /// The function's argument (or the value): a key path or an expression of the predicate language.
    package var expression: ExpressionNode
    /// The argument as written (`salary`, `department.name`, `employees.@count`).
    package var expressionText: String
    /// The result key given with `AS alias`.
    package var alias: String?

    /// The key of this value in each result: the alias, else `function:argument` (`sum:salary`), else the key
    /// path itself (`department.name`).
    package var key: String {
        if let alias { return alias }
        if let function { return "\(function.rawValue):\(expressionText)" }
        return expressionText
    }

    /// Whether the value is an aggregate over the objects of a group.
    package var isAggregate: Bool { function?.isAggregate ?? false }

    package init(function: Function? = nil, expression: ExpressionNode, text: String, alias: String? = nil) {
        self.function = function
        self.expression = expression
        self.expressionText = text
        self.alias = alias
    }

    /// Reads a property as written on the command line:
    /// - an attribute, key path or expression: `name`, `department.name`, `employees.@sum.salary`, `salary * 12`;
    /// - a function in Core Data's spelling, `sum:(salary)`, the compact form `sum:salary`, or `sum(salary)`;
    /// - any of those followed by `AS alias`.
    ///
    /// Functions: `sum`, `average` (also `avg`), `count`, `min`, `max`, `median`, `stddev`, `lowercase`, `uppercase`.
    package init(parsing text: String) throws {
        var body = text.trimmingCharacters(in: .whitespaces)
        var alias: String?
        if let range = body.range(of: #"\s+[Aa][Ss]\s+([A-Za-z_][A-Za-z0-9_]*)$"#, options: .regularExpression) {
            alias = String(body[range]).trimmingCharacters(in: .whitespaces).dropFirst(2).trimmingCharacters(in: .whitespaces)
            body = String(body[..<range.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
        guard !body.isEmpty else { throw Self.error("empty property in '\(text)'") }
        var function: Function?
        var argument = body
        if let match = body.range(of: #"^[A-Za-z]+\s*(:|\()"#, options: .regularExpression) {
            let name = body[match].dropLast().trimmingCharacters(in: .whitespaces).lowercased()
            let known = Function(rawValue: name == "avg" ? "average" : name)
            if let known {
                function = known
                var rest = String(body[match.upperBound...]).trimmingCharacters(in: .whitespaces)
                if body[match].hasSuffix("(") {
                    guard rest.hasSuffix(")") else { throw Self.error("missing ')' in '\(body)'") }
                    rest.removeLast()
                } else if rest.hasPrefix("("), rest.hasSuffix(")"), Self.isWrapped(rest) {
                    rest = String(rest.dropFirst().dropLast())
                }
                argument = rest.trimmingCharacters(in: .whitespaces)
                guard !argument.isEmpty else { throw Self.error("\(known.rawValue): needs a key path, e.g. \(known.rawValue):salary") }
            } else if body[match].hasSuffix(":"), !body.contains("("), !body.contains(" ") {
                let names = Function.allCases.map(\.rawValue)
                throw Self.error("unknown function '\(name):' in '\(body)'" + Suggestion.didYouMean(name, among: names)
                                 + " (functions: \(names.joined(separator: ", ")))")
            }
        }
        let expression: ExpressionNode
        do {
            expression = try PredicateParser.parseExpression(argument)
        } catch {
            throw Self.error("cannot read '\(argument)': \(error.message)")
        }
        self.init(function: function, expression: expression, text: argument, alias: alias)
    }

    /// Whether `text`, which starts with `(` and ends with `)`, is one parenthesized group.
    private static func isWrapped(_ text: String) -> Bool {
        var depth = 0
        for (i, c) in text.enumerated() {
            if c == "(" { depth += 1 }
            if c == ")" { depth -= 1; if depth == 0 && i != text.count - 1 { return false } }
        }
        return depth == 0
    }

    /// Same function and same expression (aliases aside).
    func sameValue(as other: ProjectionProperty) -> Bool {
        function == other.function && expression == other.expression
    }

    /// An error about a property's text; the caller says which input it is in (``ErrorInput/properties`` unless
    /// it is a grouping or sort key).
    static func error(_ message: String) -> StoreError {
        StoreError(.invalidInput, message).about(.properties)
    }

    /// Splits a comma-separated list of properties at top-level commas (not inside parentheses, braces or quotes).
    package static func splitList(_ text: String) -> [String] {
        var items: [String] = [], current = "", depth = 0
        var quote: Character?
        for c in text {
            if let q = quote {
                current.append(c)
                if c == q { quote = nil }
                continue
            }
            switch c {
            case "'", "\"": quote = c; current.append(c)
            case "(", "{", "[": depth += 1; current.append(c)
            case ")", "}", "]": depth -= 1; current.append(c)
            case "," where depth == 0:
                items.append(current.trimmingCharacters(in: .whitespaces)); current = ""
            default: current.append(c)
            }
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty || !items.isEmpty { items.append(last) }
        return items
    }
}
