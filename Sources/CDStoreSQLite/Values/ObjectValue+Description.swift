extension ObjectValue: CustomStringConvertible {
    /// The value as JSON text, as `fetch --format json` prints it: `"Ops"`, `42`, `null`, dates as ISO 8601
    /// strings, data as base64 strings; never the enum's case names.
    public var description: String { JSONText.encode(self) }
}
