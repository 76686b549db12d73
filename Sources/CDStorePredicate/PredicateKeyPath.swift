/// A dotted key path such as `department.name`, `employees.@sum.salary` or `@count`.
package struct PredicateKeyPath: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The components in order.
    package var components: [KeyPathComponent]

    /// Creates a key path from components.
    package init(_ components: [KeyPathComponent]) {
        self.components = components
    }

    /// Splits a dotted string: `"a.@count"` gives `[.key("a"), .collectionOperator(.count)]`. Used for
    /// `%K` arguments and by tests; it does not validate identifiers, so any key Core Data can name works.
    package init(_ dotted: String) {
        self.components = dotted.split(separator: ".", omittingEmptySubsequences: false).map { part in
            if part.hasPrefix("@") { return .collectionOperator(CollectionOperator(name: String(part.dropFirst()))) }
            return .key(String(part))
        }
    }

    /// The keys without collection operators, e.g. `["employees", "salary"]` for `employees.@sum.salary`.
    package var keys: [String] {
        components.compactMap { if case .key(let k) = $0 { return k } else { return nil } }
    }

    /// True when any component is a collection operator such as `@count`.
    package var hasCollectionOperator: Bool {
        components.contains { if case .collectionOperator = $0 { return true } else { return false } }
    }

    /// The dotted form, e.g. `employees.@count`. Keys are printed verbatim (see ``PredicateFormatter`` for
    /// the form that escapes reserved words).
    package var description: String {
        components.map(\.description).joined(separator: ".")
    }

    /// Concatenates two key paths.
    package static func + (lhs: PredicateKeyPath, rhs: PredicateKeyPath) -> PredicateKeyPath {
        PredicateKeyPath(lhs.components + rhs.components)
    }
}

/// One step of a key path.
package enum KeyPathComponent: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A key (attribute or relationship name).
    case key(String)
    /// A collection operator, written `@name`. It applies to the collection reached so far, and any keys
    /// after it are taken from each element first (`employees.@sum.salary`).
    case collectionOperator(CollectionOperator)

    /// `name` or `@count`.
    package var description: String {
        switch self {
        case .key(let k): return k
        case .collectionOperator(let op): return "@" + op.name
        }
    }
}

/// A key-value-coding collection operator.
package enum CollectionOperator: Equatable, Hashable, Sendable {
    /// `@count`.
    case count
    /// `@sum`.
    case sum
    /// `@avg`.
    case avg
    /// `@min`.
    case min
    /// `@max`.
    case max
    /// Any other `@name` (e.g. `@distinctUnionOfObjects`); kept so the text round-trips, refused when run.
    case other(String)

    /// Maps a name without `@` to an operator; the five standard names are matched case-sensitively as
    /// key-value coding does.
    package init(name: String) {
        switch name {
        case "count": self = .count
        case "sum": self = .sum
        case "avg": self = .avg
        case "min": self = .min
        case "max": self = .max
        default: self = .other(name)
        }
    }

    /// The name without `@`.
    package var name: String {
        switch self {
        case .count: return "count"
        case .sum: return "sum"
        case .avg: return "avg"
        case .min: return "min"
        case .max: return "max"
        case .other(let n): return n
        }
    }
}
