import Foundation

/// Turns predicate and expression text, as cdstore's model keeps it, into archived `NSPredicate` and
/// `NSExpression` objects. The model layer cannot parse predicates (the parser is a layer above), so
/// ``ModelArchiver`` asks the caller for one of these whenever a model holds predicate text.
package protocol PredicateArchiving: Sendable {
    /// Writes the `NSPredicate` that `text` (a predicate format string) describes; returns its UID.
    func archivePredicate(_ text: String, into writer: inout KeyedArchiveBuilder) throws -> PropertyListValue
    /// Writes the `NSExpression` that `text` describes; returns its UID.
    func archiveExpression(_ text: String, into writer: inout KeyedArchiveBuilder) throws -> PropertyListValue
}

/// Foundation's predicate and expression classes as NSKeyedArchiver writes them — the objects
/// ``ArchivedPredicateFormatter`` reads back.
///
/// Seen in the corpus (SwiftGen's compiled `Model 2.mom`): `NSComparisonPredicate {NSLeftExpression,
/// NSPredicateOperator, NSRightExpression}`, `NSCompoundPredicate {NSCompoundPredicateType,
/// NSSubpredicates}`, `NSEqualityPredicateOperator {NSOperatorType, NSModifier, NSOptions, NSNegate}`,
/// `NSConstantValueExpression`, `NSSelfExpression`, `NSVariableExpression`, `NSKeyPathExpression` (operand
/// `SELF`, selector `valueForKey:` for one key, `valueForKeyPath:` for a dotted path, one
/// `NSKeyPathSpecifierExpression` argument) and `NSFunctionExpression` (operand: a constant expression naming
/// the class `_NSPredicateUtilities`), each with its `NSExpressionType`.
///
/// Not seen, written from Foundation's class names: the operator classes other than equality
/// (`NSNumericPredicateOperator` for `< <= > >=`, `NSLikePredicateOperator`, `NSMatchingPredicateOperator`,
/// `NSBeginsWithPredicateOperator`, `NSEndsWithPredicateOperator` under `NSStringPredicateOperator`,
/// `NSInPredicateOperator` for `IN` and `CONTAINS`, `NSBetweenPredicateOperator`), `NSTruePredicate`,
/// `NSFalsePredicate` and `NSAggregateExpression {NSCollection}`.
extension KeyedArchiveBuilder {
    /// `NSExpressionType` values.
    package enum ExpressionType: Int64 {
        case constant = 0, evaluatedObject = 1, variable = 2, keyPath = 3, function = 4, aggregate = 14
        case keyPathSpecifier = 10
    }

    /// `NSComparisonPredicateModifier`: direct 0, all 1, any 2.
    package enum ComparisonModifier: Int64 {
        case direct = 0, all = 1, any = 2
    }

    /// `NSPredicateOperatorType` values.
    package enum OperatorType: Int64 {
        case lessThan = 0, lessThanOrEqual = 1, greaterThan = 2, greaterThanOrEqual = 3, equal = 4, notEqual = 5
        case matches = 6, like = 7, beginsWith = 8, endsWith = 9, `in` = 10, contains = 99, between = 100

        /// The private Foundation class that implements the operator, with its superclasses.
        var classes: [String] {
            switch self {
            case .equal, .notEqual: ["NSEqualityPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
                ["NSNumericPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .matches: ["NSMatchingPredicateOperator", "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .like: ["NSLikePredicateOperator", "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .beginsWith: ["NSBeginsWithPredicateOperator", "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .endsWith: ["NSEndsWithPredicateOperator", "NSStringPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .in, .contains: ["NSInPredicateOperator", "NSPredicateOperator", "NSObject"]
            case .between: ["NSBetweenPredicateOperator", "NSPredicateOperator", "NSObject"]
            }
        }
    }

    // MARK: Expressions

    /// `SELF`, written once and shared (as Foundation shares its singleton).
    package mutating func selfExpression() -> PropertyListValue {
        let identity = "NSSelfExpression"
        if isWritten(identity) { return reference(identity) }
        let expression = begin(identity)
        end(expression, classes: ["NSSelfExpression", "NSExpression", "NSObject"],
            ["NSExpressionType": .int(ExpressionType.evaluatedObject.rawValue)])
        return expression
    }

    /// A constant; `value` is an object UID (``string(_:)``, ``number(_:)``, ``date(_:)``…) or ``null``.
    package mutating func constantExpression(_ value: PropertyListValue) -> PropertyListValue {
        object(classes: ["NSConstantValueExpression", "NSExpression", "NSObject"],
               ["NSConstantValue": value, "NSExpressionType": .int(ExpressionType.constant.rawValue)])
    }

    /// `$name`.
    package mutating func variableExpression(_ name: String) -> PropertyListValue {
        let expression = begin()
        end(expression, classes: ["NSVariableExpression", "NSExpression", "NSObject"],
            ["NSVariable": string(name), "NSExpressionType": .int(ExpressionType.variable.rawValue)])
        return expression
    }

    /// A key path (`name`, `department.name`, `items.@count`) applied to `operand`, `SELF` when nil.
    package mutating func keyPathExpression(_ path: String, operand: PropertyListValue? = nil) -> PropertyListValue {
        let expression = begin()
        let base = operand ?? selfExpression()
        let selector = string(path.contains(".") ? "valueForKeyPath:" : "valueForKey:")
        let arguments = begin()
        let specifier = begin()
        end(specifier, classes: ["NSKeyPathSpecifierExpression", "NSExpression", "NSObject"],
            ["NSKeyPath": string(path), "NSExpressionType": .int(ExpressionType.keyPathSpecifier.rawValue)])
        endArray(arguments, [specifier], className: "NSMutableArray")
        end(expression, classes: ["NSKeyPathExpression", "NSFunctionExpression", "NSExpression", "NSObject"],
            ["NSOperand": base, "NSSelectorName": selector, "NSArguments": arguments,
             "NSExpressionType": .int(ExpressionType.keyPath.rawValue)])
        return expression
    }

    /// A function call whose arguments are already written: a built-in (`now`, `count:`, `add:to:`, …) when
    /// `receiver` is nil, else a method of the receiver's value (`FUNCTION(receiver, "selector", …)`).
    package mutating func functionExpression(_ selector: String, arguments: [PropertyListValue],
                                            receiver: PropertyListValue? = nil) -> PropertyListValue {
        let operand: PropertyListValue
        if let receiver {
            operand = receiver
        } else {
            let utilities = begin()
            end(utilities, classes: ["NSConstantValueExpression", "NSExpression", "NSObject"],
                ["NSConstantValueClassName": string("_NSPredicateUtilities"),
                 "NSExpressionType": .int(ExpressionType.constant.rawValue)])
            operand = utilities
        }
        let selectorName = string(selector)
        let list = array(arguments)
        return object(classes: ["NSFunctionExpression", "NSExpression", "NSObject"],
                      ["NSOperand": operand, "NSSelectorName": selectorName, "NSArguments": list,
                       "NSExpressionType": .int(ExpressionType.function.rawValue)])
    }

    /// `{a, b, …}` with expression members already written.
    package mutating func aggregateExpression(_ members: [PropertyListValue]) -> PropertyListValue {
        let collection = array(members)
        return object(classes: ["NSAggregateExpression", "NSExpression", "NSObject"],
                      ["NSCollection": collection, "NSExpressionType": .int(ExpressionType.aggregate.rawValue)])
    }

    /// An NSDate object (`NS.time`: seconds since 2001-01-01).
    package mutating func date(_ secondsSinceReferenceDate: Double) -> PropertyListValue {
        object(classes: ["NSDate", "NSObject"], ["NS.time": .real(secondsSinceReferenceDate)])
    }

    // MARK: Predicates

    /// `left op[options] right` with an optional `ANY`/`ALL` modifier. `options` are Foundation's
    /// `NSComparisonPredicate.Options` bits: case-insensitive 1, diacritic-insensitive 2, normalized 4,
    /// locale-sensitive 8.
    package mutating func comparisonPredicate(_ left: PropertyListValue, _ type: OperatorType, _ right: PropertyListValue,
                                             modifier: ComparisonModifier = .direct, options: Int64 = 0) -> PropertyListValue {
        var fields: [String: PropertyListValue] = ["NSOperatorType": .int(type.rawValue), "NSModifier": .int(modifier.rawValue)]
        switch type {
        case .equal, .notEqual:
            fields["NSOptions"] = .int(options)
            fields["NSNegate"] = .bool(type == .notEqual)
        case .matches, .like, .beginsWith, .endsWith, .in, .contains:
            fields["NSOptions"] = .int(options)
        default:
            break
        }
        let op = object(classes: type.classes, fields)
        return object(classes: ["NSComparisonPredicate", "NSPredicate", "NSObject"],
                      ["NSLeftExpression": left, "NSPredicateOperator": op, "NSRightExpression": right])
    }

    /// `NOT p` (type 0), `a AND b …` (1) or `a OR b …` (2), with subpredicates already written.
    package mutating func compoundPredicate(type: Int64, _ subpredicates: [PropertyListValue]) -> PropertyListValue {
        let list = array(subpredicates)
        return object(classes: ["NSCompoundPredicate", "NSPredicate", "NSObject"],
                      ["NSCompoundPredicateType": .int(type), "NSSubpredicates": list])
    }

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    package mutating func constantPredicate(_ value: Bool) -> PropertyListValue {
        object(classes: [value ? "NSTruePredicate" : "NSFalsePredicate", "NSPredicate", "NSObject"], [:])
    }
}
