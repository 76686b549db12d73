import CDStoreJSON
import CDStoreModel
import Foundation
package import GRDB

/// The value a new object gets for an attribute the input left out: the model's default, else NULL.
///
/// Xcode accepts default texts that do not parse as their type (`"YES"` on an Integer 32, `"0.0"` on a Boolean,
/// `"empy"` on a UUID: all in shipped apps of the corpus), and momc turns them into values the way `NSString`
/// reads numbers: `integerValue`/`doubleValue` take the leading number (0 when there is none) and `boolValue` is
/// true for a leading `Y`, `y`, `T`, `t` or digit 1–9. cdstore reads such defaults the same way; a default of a
/// type that has no such reading (UUID, URI, Binary) that does not parse is left out (NULL).
package enum DefaultValues {
    package static func storedDefault(for attribute: Attribute) throws -> DatabaseValue {
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval {
            return interval.databaseValue
        }
        guard let text = attribute.defaultValue else { return .null }
        if let stored = try? AttributeCoding.storedValue(.string(text), for: attribute) { return stored }
        switch attribute.type {
        case .boolean:
            return (Self.foundationBool(text) ? 1 : 0).databaseValue
        case .integer16, .integer32, .integer64:
            let value = Self.leadingNumber(text).map { Int64(exactly: $0.rounded(.towardZero)) ?? 0 } ?? 0
            guard attribute.type.integerRange!.contains(value) else {
                throw StoreError(.invalidInput, "the model's default value '\(text)' is out of range for "
                                 + attribute.type.rawValue, property: attribute.name)
            }
            return value.databaseValue
        case .decimal, .double, .float:
            return (Self.leadingNumber(text) ?? 0).databaseValue
        default:
            return .null
        }
    }

    /// `-[NSString boolValue]`: true for a leading (after spaces and a sign or zeros) `Y`, `y`, `T`, `t` or 1–9.
    static func foundationBool(_ text: String) -> Bool {
        var scalars = Substring(text).drop { $0 == " " || $0 == "\t" }
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        scalars = scalars.drop { $0 == "0" }
        guard let first = scalars.first else { return false }
        return "YyTt123456789".contains(first)
    }

    /// The number at the start of `text`, as `-[NSString doubleValue]` reads it; nil when there is none.
    static func leadingNumber(_ text: String) -> Double? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        var end = trimmed.startIndex
        var longest: Double?
        while end < trimmed.endIndex {
            end = trimmed.index(after: end)
            if let value = Double(trimmed[trimmed.startIndex..<end]) { longest = value }
        }
        return longest
    }
}
