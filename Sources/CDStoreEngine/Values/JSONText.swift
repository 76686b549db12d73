import CDStoreJSON
import Foundation

/// Writes ``ObjectValue``s as JSON text, keeping key order and printing numbers in their shortest exact form.
///
/// Foundation's `JSONSerialization` neither keeps key order nor prints Floats as Floats, and both matter
/// for output people diff and for values that must read back unchanged.
package enum JSONText {
    /// One value as compact JSON.
    package static func encode(_ value: ObjectValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// Appends the JSON text of `value` to `out`.
    package static func write(_ value: ObjectValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .double(let d), .decimal(let d):
            out += d.isFinite ? ValueText.number(d) : quoted(ValueText.number(d))
        case .float(let f):
            out += f.isFinite ? ValueText.number(f) : quoted(ValueText.number(f))
        case .string(let s): out += quoted(s)
        case .date(let d): out += quoted(ValueText.iso8601(d))
        case .uuid(let u): out += quoted(u.uuidString)
        case .data(let d): out += quoted(d.base64EncodedString())
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .dictionary(let pairs):
            out += "{"
            for (i, (key, item)) in pairs.enumerated() {
                if i > 0 { out += "," }
                out += quoted(key)
                out += ":"
                write(item, to: &out)
            }
            out += "}"
        }
    }

    /// A JSON string literal (``JSONStringLiteral/quoted(_:)``).
    package static func quoted(_ s: String) -> String {
        JSONStringLiteral.quoted(s)
    }
}
