import CDStoreJSON
import CDStoreModel
import CDStorePredicate
import Foundation

/// New attribute values for the objects a predicate selects.
///
/// Core Data equivalent: `NSBatchUpdateRequest` with `propertiesToUpdate` (constants or `NSExpression`s such as
/// `salary * 1.05`) — but, unlike a batch update, every new value is validated against the model first.
package struct UpdateRequest: Sendable {
    /// The entity whose objects change.
    package var entity: String
    /// Only objects matching it; nil changes every object.
    package var predicate: PredicateNode?
    /// The attributes to set, each once.
    package var assignments: [UpdateAssignment]
    /// Include objects of sub-entities.
    package var includesSubentities: Bool

    package init(entity: String, predicate: PredicateNode?, assignments: [UpdateAssignment], includesSubentities: Bool = true) {
        self.entity = entity
        self.predicate = predicate
        self.assignments = assignments
        self.includesSubentities = includesSubentities
    }
}

/// One attribute's new value.
public struct UpdateAssignment: Sendable, Equatable {
    package enum Value: Sendable, Equatable {
        /// A value read as `insert` reads it (`42`, `2024-05-01`, `true`, `"text"`); null sets nil.
        case literal(InputValue)
        /// An expression of the predicate language, evaluated per object in SQL: `salary * 1.05`,
        /// `uppercase:(lastName)`, `department.budget / 10`, `nil`.
        case expression(ExpressionNode)
        /// Text from `KEY=VALUE`: a literal when it reads as a value of the attribute's type (always, for String
        /// and URI attributes), otherwise an expression (`salary * 1.05`, `age + 1`, `now()`, `nil`).
        case text(String)
    }

    /// The attribute.
    public var key: String
    /// Its new value.
    package var value: Value

    package init(_ key: String, _ value: Value) {
        self.key = key
        self.value = value
    }

    /// Reads `KEY=VALUE` (a literal, or an expression when it is not a value of the attribute's type) or
    /// `KEY:=EXPRESSION` (always an expression: `nickname:=lowercase:(name)`, `email:=nil`).
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw StoreError(.invalidInput, "'\(text)' is not KEY=VALUE or KEY:=EXPRESSION").about(.assignments)
        }
        var key = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        let rest = String(text[text.index(after: equals)...])
        if key.hasSuffix(":") {
            key.removeLast()
            key = key.trimmingCharacters(in: .whitespaces)
            do {
                self.init(key, .expression(try PredicateParser.parseExpression(rest)))
            } catch {
                throw StoreError(.invalidInput, "cannot read the expression '\(rest)': \(error.message)", property: key).about(.assignments)
            }
            return
        }
        guard !key.isEmpty else { throw StoreError(.invalidInput, "'\(text)' has no key").about(.assignments) }
        self.init(key, .text(rest))
    }
}
