extension ObjectValue: CustomStringConvertible {
    /// The value as JSON text, as `fetch --format json` prints it: `"Ops"`, `42`, `null`, dates as ISO 8601
    /// strings, data as base64 strings; never the enum's case names.
    public var description: String { JSONText.encode(self) }
}

extension ObjectValue {
    /// The value as plain text, as CSV cells and tables show it: no quotes, nil as the empty string, numbers in the
    /// shortest form that reads back to the same value, dates as ISO 8601, data as base64, arrays and nested
    /// objects as JSON.
    public var plainText: String { ValueText.plain(self) }
}

extension ObjectValue {
    /// The value as one CSV field (RFC 4180), as `export --format csv` writes it: nil is an empty field, the empty
    /// string a quoted empty field (`""`), and text holding a comma, a quote, a line break or a leading or trailing
    /// space is quoted with its quotes doubled, so that `insert --csv` reads the field back to the same value.
    public var csvField: String {
        if case .null = self { return "" }
        return CSVText.field(plainText)
    }
}
