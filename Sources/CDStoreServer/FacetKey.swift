import CDStore
import Foundation

/// A property a facet or a chart is about: an attribute, a to-one relationship, or a key path through to-one
/// relationships (`department.name`); dates with the period they are counted by (`hiredAt:month`).
struct FacetKey: Sendable {
    /// The period a date facet or chart counts objects by.
    enum Period: String, Sendable, CaseIterable {
        case year, month, day
    }

    /// The key path, as predicates and projections read it.
    let keyPath: String
    /// The attribute the key path ends at; nil when it ends at a to-one relationship.
    let attribute: Attribute?
    /// The period asked for (`:month`); nil for the default (years for facets, chosen from the range for charts).
    let period: Period?

    /// How the URL names it: `hiredAt:month`, `department.name`.
    var text: String { period.map { keyPath + ":" + $0.rawValue } ?? keyPath }
    var isDate: Bool { attribute?.type == .date }
    var isNumeric: Bool { attribute.map { Self.numericTypes.contains($0.type) } ?? false }
    var isInteger: Bool { attribute.map { [.integer16, .integer32, .integer64].contains($0.type) } ?? false }

    static let numericTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .decimal]
    /// Types whose values are counted as they are (Binary and transformed values are not).
    static let facetTypes: Set<AttributeType> = numericTypes.union([.string, .boolean, .date, .uuid, .uri])

    init(keyPath: String, attribute: Attribute?, period: Period?) {
        self.keyPath = keyPath
        self.attribute = attribute
        self.period = period
    }

    /// Reads `department.name`, `hiredAt:month`, checking each step against the model: to-one relationships, then
    /// an attribute of a type that can be counted (a number or a date for a chart).
    init(parsing text: String, of entity: Entity, in model: ManagedObjectModel, forChart: Bool = false) throws {
        let what = forChart ? "chart" : "facet"
        var path = text
        var period: Period?
        if let colon = text.lastIndex(of: ":") {
            let name = String(text[text.index(after: colon)...])
            guard let known = Period(rawValue: name) else {
                throw BrowseError(.badRequest, "\(what) '\(text.prefix(100))': a date is counted by year, month or day, not '\(name.prefix(20))'")
            }
            period = known
            path = String(text[..<colon])
        }
        let steps = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !steps.isEmpty, steps.count <= 4, steps.allSatisfy({ !$0.isEmpty }) else {
            throw BrowseError(.badRequest, "\(what) '\(text.prefix(100))' is not a key path")
        }
        var current = entity
        var attribute: Attribute?
        for (i, step) in steps.enumerated() {
            let members = i == 0 ? model.subtree(of: current) : [current]
            let isLast = i == steps.count - 1
            if let found = members.lazy.compactMap({ model.attribute(step, of: $0) }).first, !found.isTransient {
                guard isLast else {
                    throw BrowseError(.badRequest, "\(what) '\(path.prefix(100))': \(step) is an attribute, so the key path ends there")
                }
                attribute = found
            } else if let relationship = members.lazy.compactMap({ member in model.relationships(of: member).first { $0.name == step } }).first,
                      !relationship.isTransient {
                guard !relationship.isToMany else {
                    throw BrowseError(.badRequest, "\(what) '\(path.prefix(100))': \(step) is a to-many relationship; "
                                      + "facets follow to-one relationships only")
                }
                guard let destination = model.entity(named: relationship.destination) else {
                    throw BrowseError(.notFound, "no entity '\(relationship.destination)' in the model")
                }
                current = destination
            } else {
                let names = model.attributes(of: current).map(\.name) + model.relationships(of: current).map(\.name)
                throw BrowseError(.badRequest, "\(what) '\(path.prefix(100))': \(current.name) has no property '\(step.prefix(100))'"
                                  + (names.isEmpty ? "" : " (" + names.prefix(16).joined(separator: ", ") + ")"))
            }
        }
        if let attribute, !Self.facetTypes.contains(attribute.type) {
            throw BrowseError(.badRequest, "\(what) '\(path.prefix(100))': \(attribute.type.rawValue) values are not counted")
        }
        guard period == nil || attribute?.type == .date else {
            throw BrowseError(.badRequest, "\(what) '\(text.prefix(100))': only dates are counted by period")
        }
        if forChart {
            guard let attribute, attribute.type == .date || Self.numericTypes.contains(attribute.type) else {
                throw BrowseError(.badRequest, "chart '\(path.prefix(100))': charts draw numbers and dates")
            }
        }
        self.init(keyPath: path, attribute: attribute, period: period)
    }
}

/// Values as predicate text, for the links that narrow a page to one value or one range.
enum PredicateText {
    /// `"text"` with quotes and backslashes escaped, `42`, `YES`, `nil`, a date as `CAST(…, "NSDate")`; nil for a
    /// value predicates cannot spell.
    static func literal(_ value: ObjectValue) -> String? {
        switch value {
        case .null: "nil"
        case .bool(let flag): flag ? "YES" : "NO"
        case .integer(let number): String(number)
        case .double(let number), .decimal(let number): number.isFinite ? "\(number)" : nil
        case .float(let number): number.isFinite ? "\(Double(number))" : nil
        case .string(let text): quoted(text)
        case .uuid(let uuid): quoted(uuid.uuidString)
        case .date(let seconds): date(seconds)
        default: nil
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A date (seconds since 2001-01-01 UTC) as predicate text.
    static func date(_ seconds: Double) -> String {
        "CAST(\(seconds), \"NSDate\")"
    }

    /// `keyPath >= low AND keyPath < high` (`<=` for the last range, which holds the largest value).
    static func range(_ keyPath: String, _ low: String, _ high: String, closed: Bool) -> String {
        "\(keyPath) >= \(low) AND \(keyPath) \(closed ? "<=" : "<") \(high)"
    }
}
