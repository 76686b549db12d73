import CDStoreJSON
import CDStoreModel
import Foundation
internal import GRDB

/// The model's validation settings of one attribute, parsed once: whether a value is required, numeric and
/// date bounds, length limits and the compiled regular expression. Checking a value builds no text unless the
/// value fails.
///
/// Core Data equivalent: the validation part of `NSAttributeDescription` (`isOptional`, `validationPredicates`
/// made from the minimum, maximum and regular expression set in Xcode).
final class AttributeRule: Sendable {
    // The attribute's settings as plain fields: reading them must not copy the whole `Attribute` per value.
    private let name: String
    private let type: AttributeType
    private let isOptional: Bool
    private let isExternalBinary: Bool
    private let minText: String?
    private let maxText: String?
    private let pattern: String?
    private let minDate: Double?
    private let maxDate: Double?
    private let minNumber: Double?
    private let maxNumber: Double?
    private let minLength: Int?
    private let maxLength: Int?
    private let regularExpression: NSRegularExpression?
    /// The same pattern matched without ICU, when it is of the plain kind (``SimplePattern``).
    private let simplePattern: SimplePattern?
    /// A pattern the model gives but that does not compile: every string value fails, naming it.
    private let invalidPattern: String?

    init(_ attribute: Attribute, regularExpressions: [String: NSRegularExpression]) {
        name = attribute.name
        type = attribute.type
        isOptional = attribute.isOptional
        isExternalBinary = attribute.type == .binary && attribute.allowsExternalBinaryDataStorage
        minText = attribute.minValue
        maxText = attribute.maxValue
        pattern = attribute.regularExpression
        minDate = attribute.minDateTimeInterval
        maxDate = attribute.maxDateTimeInterval
        minNumber = attribute.minValue.flatMap(Double.init)
        maxNumber = attribute.maxValue.flatMap(Double.init)
        minLength = attribute.minValue.flatMap(Int.init)
        maxLength = attribute.maxValue.flatMap(Int.init)
        if let pattern = attribute.regularExpression {
            regularExpression = regularExpressions[pattern]
            invalidPattern = regularExpression == nil ? pattern : nil
            simplePattern = regularExpression == nil ? nil : SimplePattern(pattern)
        } else {
            regularExpression = nil
            invalidPattern = nil
            simplePattern = nil
        }
    }

    /// Throws if `stored` (the column value ``AttributeCoding`` produced) breaks a rule of the attribute.
    func validate(_ stored: DatabaseValue) throws {
        switch stored.storage {
        case .null:
            guard isOptional else {
                throw StoreError(.invalidInput, "a value is required (the attribute is not optional)", property: name).coreData(1570)
            }
        case .int64(let i):
            if type.isNumeric { try checkNumber(Double(i), exact: i) }
        case .double(let d):
            if type == .date {
                if let min = minDate, d < min {
                    throw failure("\(ValueText.iso8601(d)) is before the earliest allowed date \(ValueText.iso8601(min))", code: 1640)
                }
                if let max = maxDate, d > max {
                    throw failure("\(ValueText.iso8601(d)) is after the latest allowed date \(ValueText.iso8601(max))", code: 1630)
                }
            } else if type.isNumeric {
                try checkNumber(d, exact: nil)
            }
        case .string(let s):
            if minLength != nil || maxLength != nil { try checkLength(s.utf16.count, unit: "characters", codes: (1670, 1660)) }
            if let invalidPattern {
                throw failure("the model's regular expression '\(invalidPattern)' is not valid", code: 1550)
            }
            if let regularExpression {
                guard simplePattern?.matchesWhole(s) ?? SimplePattern.matchesWhole(s, regularExpression) else {
                    throw failure("'\(s)' does not match the regular expression '\(pattern!)'", code: 1680)
                }
            }
        case .blob(let data):
            if type == .binary, minLength != nil || maxLength != nil {
                // External-storage columns carry a one-byte marker before the bytes (ExternalBinaryData).
                let count = isExternalBinary && data.first == ExternalBinaryData.inlineMarker
                    ? data.count - 1 : data.count
                try checkLength(count, unit: "bytes", codes: (1550, 1550))
            }
        }
    }

    private func checkNumber(_ value: Double, exact: Int64?) throws {
        if let minNumber, value < minNumber {
            throw failure("\(Self.text(value, exact: exact)) is less than the minimum \(minText!)", code: 1620)
        }
        if let maxNumber, value > maxNumber {
            throw failure("\(Self.text(value, exact: exact)) is greater than the maximum \(maxText!)", code: 1610)
        }
    }

    private static func text(_ value: Double, exact: Int64?) -> String {
        exact.map(String.init) ?? ValueText.number(value)
    }

    private func checkLength(_ length: Int, unit: String, codes: (short: Int, long: Int)) throws {
        let noun = length == 1 ? String(unit.dropLast()) : unit
        if let minLength, length < minLength {
            throw failure("\(length) \(noun) is shorter than the minimum length \(minLength)", code: codes.short)
        }
        if let maxLength, length > maxLength {
            throw failure("\(length) \(noun) is longer than the maximum length \(maxLength)", code: codes.long)
        }
    }

    /// `code` is Core Data's number for the rule broken (NSValidation…Error).
    private func failure(_ message: String, code: Int) -> StoreError {
        StoreError(.invalidInput, message, property: name).coreData(code)
    }
}
