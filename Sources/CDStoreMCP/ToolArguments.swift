import Foundation

/// A tool call's arguments, read by name and type: every wrong one is a ``ToolError`` naming it and quoting what
/// was given, and a name the tool does not take is refused rather than ignored (an assistant's typo would
/// otherwise widen a delete).
struct ToolArguments {
    private let pairs: [(String, JSONValue)]

    /// Reads `value` (the `arguments` of `tools/call`: an object, or absent) for a tool taking `accepted` names.
    init(_ value: JSONValue?, accepted: [String]) throws(ToolError) {
        switch value {
        case nil, .null?: pairs = []
        case .object(let pairs)?: self.pairs = pairs
        case let other?: throw ToolError(nil, "arguments must be an object, not \(other.typeName)")
        }
        for (name, _) in pairs where !accepted.contains(name) {
            throw ToolError(name, "this tool takes no argument '\(name)'; it takes "
                            + (accepted.isEmpty ? "none" : accepted.map { "'\($0)'" }.joined(separator: ", ")))
        }
    }

    /// The raw value of `name`, nil when absent or null.
    func value(_ name: String) -> JSONValue? {
        guard let value = pairs.first(where: { $0.0 == name })?.1, value != .null else { return nil }
        return value
    }

    /// A string argument; `required` ones must be present and not empty.
    func string(_ name: String, required: Bool = false) throws(ToolError) -> String? {
        guard let value = value(name) else {
            if required { throw ToolError(name, "is required") }
            return nil
        }
        guard case .string(let text) = value else {
            throw ToolError(name, "must be a string, not \(value.typeName) \(Self.quote(value))")
        }
        if required && text.trimmingCharacters(in: .whitespaces).isEmpty { throw ToolError(name, "must not be empty") }
        guard text.utf8.count <= Self.maximumTextBytes else {
            throw ToolError(name, "is \(text.utf8.count) bytes; at most \(Self.maximumTextBytes) are read")
        }
        return text
    }

    /// An integer argument within `range`, or `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int64>, default defaultValue: Int64? = nil) throws(ToolError) -> Int64? {
        guard let value = value(name) else { return defaultValue }
        let number: Int64
        switch value {
        case .integer(let i): number = i
        case .number(let d) where d == d.rounded() && abs(d) < 9e18: number = Int64(d)
        default: throw ToolError(name, "must be an integer, not \(value.typeName) \(Self.quote(value))")
        }
        guard range.contains(number) else {
            throw ToolError(name, "must be from \(range.lowerBound) to \(range.upperBound), not \(number)")
        }
        return number
    }

    /// A boolean argument, or `defaultValue` when absent.
    func bool(_ name: String, default defaultValue: Bool) throws(ToolError) -> Bool {
        guard let value = value(name) else { return defaultValue }
        guard case .bool(let flag) = value else {
            throw ToolError(name, "must be true or false, not \(value.typeName) \(Self.quote(value))")
        }
        return flag
    }

    /// An array of non-empty strings (a single string is taken as a one-element array), at most `maximum`.
    func strings(_ name: String, maximum: Int = 64) throws(ToolError) -> [String] {
        guard let value = value(name) else { return [] }
        let items: [JSONValue]
        switch value {
        case .array(let array): items = array
        case .string: items = [value]
        default: throw ToolError(name, "must be an array of strings, not \(value.typeName) \(Self.quote(value))")
        }
        guard items.count <= maximum else { throw ToolError(name, "has \(items.count) items; at most \(maximum) are taken") }
        var texts: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, !text.trimmingCharacters(in: .whitespaces).isEmpty,
                  text.utf8.count <= Self.maximumTextBytes else {
                throw ToolError(name, "item \(index + 1) must be a non-empty string, not \(item.typeName) \(Self.quote(item))")
            }
            texts.append(text)
        }
        return texts
    }

    /// The longest text argument read: predicates and key paths are short; this bounds the work one call asks.
    static let maximumTextBytes = 16_384

    /// `value` as JSON, cut to 80 characters, for a message.
    static func quote(_ value: JSONValue) -> String {
        let text = value.text
        return text.count > 80 ? String(text.prefix(77)) + "…" : text
    }
}
