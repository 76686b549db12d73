import CDStoreModel
import Foundation
import GRDB

/// Checks a value against the model's rules for its attribute before it is written: required values,
/// numeric ranges, string and data lengths, date bounds and the regular expression.
///
/// Core Data equivalent: `NSManagedObject.validateValue(_:forKey:)` with the attribute's validation settings.
public struct AttributeValidation: Sendable {
    private let regularExpressions: [String: NSRegularExpression]

    /// Prepares validation for every attribute of `model` (regular expressions are compiled once).
    public init(model: ManagedObjectModel) {
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
    public func validate(_ stored: DatabaseValue, for attribute: Attribute) throws {
        switch stored.storage {
        case .null:
            guard attribute.isOptional else {
                throw StoreError(.invalidInput, "a value is required (the attribute is not optional)", property: attribute.name)
            }
        case .int64(let i):
            if attribute.type.isNumeric { try checkNumber(Double(i), exact: i, attribute) }
        case .double(let d):
            if attribute.type == .date {
                if let min = attribute.minDateTimeInterval, d < min {
                    throw failure(attribute, "\(ValueText.iso8601(d)) is before the earliest allowed date \(ValueText.iso8601(min))")
                }
                if let max = attribute.maxDateTimeInterval, d > max {
                    throw failure(attribute, "\(ValueText.iso8601(d)) is after the latest allowed date \(ValueText.iso8601(max))")
                }
            } else if attribute.type.isNumeric {
                try checkNumber(d, exact: nil, attribute)
            }
        case .string(let s):
            try checkLength(s.utf16.count, attribute, unit: "characters")
            if let pattern = attribute.regularExpression {
                guard let regex = regularExpressions[pattern] else {
                    throw failure(attribute, "the model's regular expression '\(pattern)' is not valid")
                }
                let range = NSRange(s.startIndex..., in: s)
                let match = regex.firstMatch(in: s, options: [.anchored], range: range)
                guard let match, match.range == range else {
                    throw failure(attribute, "'\(s)' does not match the regular expression '\(pattern)'")
                }
            }
        case .blob(let data):
            if attribute.type == .binary {
                // External-storage columns carry a one-byte marker before the bytes (ExternalBinaryData).
                let count = attribute.allowsExternalBinaryDataStorage && data.first == ExternalBinaryData.inlineMarker
                    ? data.count - 1 : data.count
                try checkLength(count, attribute, unit: "bytes")
            }
        }
    }

    private func checkNumber(_ value: Double, exact: Int64?, _ attribute: Attribute) throws {
        let text = exact.map(String.init) ?? ValueText.number(value)
        if let min = attribute.minValue.flatMap(Double.init), value < min {
            throw failure(attribute, "\(text) is less than the minimum \(attribute.minValue!)")
        }
        if let max = attribute.maxValue.flatMap(Double.init), value > max {
            throw failure(attribute, "\(text) is greater than the maximum \(attribute.maxValue!)")
        }
    }

    private func checkLength(_ length: Int, _ attribute: Attribute, unit: String) throws {
        if let min = attribute.minValue.flatMap(Int.init), length < min {
            throw failure(attribute, "\(length) \(length == 1 ? String(unit.dropLast()) : unit) is shorter than the minimum length \(min)")
        }
        if let max = attribute.maxValue.flatMap(Int.init), length > max {
            throw failure(attribute, "\(length) \(length == 1 ? String(unit.dropLast()) : unit) is longer than the maximum length \(max)")
        }
    }

    private func failure(_ attribute: Attribute, _ message: String) -> StoreError {
        StoreError(.invalidInput, message, property: attribute.name)
    }
}
