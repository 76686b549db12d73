/// One element of a model's `contents` XML as ``XcodeModelWriter`` builds it: a name, attributes in the order
/// they are written, and child elements. (The writing half of the XML layer; ``XMLReader`` reads.)
///
/// Rendered as Xcode renders models: four spaces of indent per level, an element without children closed as
/// `<name …/>`, attribute values in double quotes.
struct ModelXMLElement {
    var name: String
    var attributes: [(name: String, value: String)] = []
    var children: [ModelXMLElement] = []

    init(_ name: String) { self.name = name }

    /// Adds `name="value"` when `value` is set.
    mutating func set(_ name: String, _ value: String?) {
        if let value { attributes.append((name, value)) }
    }

    /// Adds `name="YES"` when `on`; Xcode leaves out flags that are off.
    mutating func flag(_ name: String, _ on: Bool) {
        if on { attributes.append((name, "YES")) }
    }

    /// Adds `name="YES"` or `name="NO"` for a setting that was written either way, nothing when it was not.
    mutating func yesNo(_ name: String, _ value: Bool?) {
        if let value { attributes.append((name, value ? "YES" : "NO")) }
    }

    /// Adds a `<userInfo>` child with one `<entry key value/>` per pair, keys in Xcode's case-insensitive order;
    /// nothing when `userInfo` is empty.
    mutating func addUserInfo(_ userInfo: [String: String]) {
        guard !userInfo.isEmpty else { return }
        var info = ModelXMLElement("userInfo")
        for key in userInfo.keys.sorted(by: { $0.caseInsensitiveOrder($1) }) {
            var entry = ModelXMLElement("entry")
            entry.set("key", key)
            entry.set("value", userInfo[key])
            info.children.append(entry)
        }
        children.append(info)
    }

    /// The element and its children as text, starting at `depth` levels of indent, each line ending in "\n".
    func render(depth: Int = 0, into text: inout String) {
        let indent = String(repeating: "    ", count: depth)
        text += indent + "<" + name
        for (attribute, value) in attributes {
            text += " " + attribute + "=\"" + Self.escaped(value) + "\""
        }
        guard !children.isEmpty else {
            text += "/>\n"
            return
        }
        text += ">\n"
        for child in children { child.render(depth: depth + 1, into: &text) }
        text += indent + "</" + name + ">\n"
    }

    /// `text` as an XML attribute value in double quotes. Besides `&`, `<`, `>` and `"`, line breaks and tabs
    /// are written as character references: a parser turns a literal newline or tab in an attribute value into
    /// a space (attribute-value normalisation), so a multi-line user-info value or regular expression would
    /// otherwise come back changed. Characters XML 1.0 cannot hold at all (other C0 controls, U+FFFE/U+FFFF)
    /// become U+FFFD; ``XcodeModelWriter/limitations(of:)`` reports them.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default:
                result.unicodeScalars.append(isXMLCharacter(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return result
    }

    /// Whether XML 1.0 allows `scalar` in a document (its `Char` production): what ``XMLReader`` accepts.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        XMLReader.isXMLCharacter(scalar.value)
    }
}
