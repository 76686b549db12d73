/// Writing a string as a JSON string literal, shared by the layers that write JSON (records, mapping models) so
/// that they escape alike.
package enum JSONStringLiteral {
    /// A JSON string literal. Besides what JSON requires, U+2028 and U+2029 (line and paragraph separators) are
    /// written `\u2028` and `\u2029`: valid raw in JSON, but readers that split lines on Unicode separators
    /// (Python's `splitlines`, JavaScript before ES2019) would break an NDJSON line there.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for unit in s.unicodeScalars {
            switch unit {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if unit.value < 0x20 {
                    let hex = String(unit.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(unit)
                }
            }
        }
        return out + "\""
    }
}
