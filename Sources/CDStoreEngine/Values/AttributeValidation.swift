import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// Checks a value against the model's rules for its attribute before it is written: required values,
/// numeric ranges, string and data lengths, date bounds and the regular expression.
///
/// Core Data equivalent: `NSManagedObject.validateValue(_:forKey:)` with the attribute's validation settings.
struct AttributeValidation: Sendable {
    private let regularExpressions: [String: NSRegularExpression]

    /// Prepares validation for every attribute of `model` (regular expressions are compiled once).
    init(model: ManagedObjectModel) {
        var compiled: [String: NSRegularExpression] = [:]
        for entity in model.entities {
            for attribute in entity.attributes {
                if let pattern = attribute.regularExpression, compiled[pattern] == nil {
                    compiled[pattern] = try? NSRegularExpression(pattern: pattern)
                }
            }
        }
        regularExpressions = compiled
    }

    /// Throws if `stored` (the column value ``AttributeCoding`` produced) breaks a rule of `attribute`.
    func validate(_ stored: DatabaseValue, for attribute: Attribute) throws {
        try rule(for: attribute).validate(stored)
    }

    /// The rules of `attribute`, parsed; bulk writers keep one per attribute (``EntityWritePlan``).
    func rule(for attribute: Attribute) -> AttributeRule {
        AttributeRule(attribute, regularExpressions: regularExpressions)
    }
}
