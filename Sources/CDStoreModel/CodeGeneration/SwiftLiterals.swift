import Foundation

/// Swift types and literals for attribute values, shared by the SwiftData and Codable writers.
enum SwiftValues {
    /// The Swift value type of an attribute (without `?`), or nil for types that have none (Undefined, ObjectID).
    /// Integer 64 is `Int` when `plainInt` (SwiftData's convention), else `Int64`.
    static func type(_ attribute: Attribute, plainInt: Bool) -> String? {
        switch attribute.type {
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: plainInt ? "Int" : "Int64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Bool"
        case .date: "Date"
        case .binary: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .transformable: XcodeTypes.customClass(attribute) ?? "NSObject"
        case .composite: attribute.compositeName.flatMap { $0.isEmpty ? nil : $0 }
        case .undefined, .objectID: nil
        }
    }

    /// The model's default value of `attribute` as a Swift expression, or nil when it has none (or none Swift can
    /// write as a literal).
    static func defaultLiteral(_ attribute: Attribute) -> String? {
        if attribute.type == .date, let seconds = attribute.defaultDateTimeInterval {
            return "Date(timeIntervalSinceReferenceDate: \(number(seconds)))"
        }
        guard let text = attribute.defaultValue?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            return Int64(text).map(String.init)
        case .double, .float, .decimal:
            guard let value = Double(text), value.isFinite else { return nil }
            return text.contains(where: { !"+-0123456789.eE".contains($0) }) ? number(value) : text
        case .boolean:
            return ["YES", "yes", "true", "TRUE", "1"].contains(text) ? "true" : "false"
        case .string:
            return CodeNames.swiftString(text)
        case .uuid:
            return UUID(uuidString: text).map { "UUID(uuidString: \(CodeNames.swiftString($0.uuidString)))!" }
        case .uri:
            return URL(string: text).map { _ in "URL(string: \(CodeNames.swiftString(text)))!" }
        case .date:
            return Double(text).map { "Date(timeIntervalSinceReferenceDate: \(number($0)))" }
        default:
            return nil
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) + ".0" : String(value)
    }
}
