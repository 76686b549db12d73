import CDStoreJSON
extension String {
    /// The string without leading and trailing spaces and tabs.
    ///
    /// Foundation's `trimmingCharacters(in:)` bridges through `NSString` and was a fifth of the time of a
    /// large insert; values almost never have spaces to trim, so the common case returns the string itself.
    var trimmedSpaces: String {
        guard let first = utf8.first, let last = utf8.last,
              first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 else { return self }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return String(scalars[start...end])
    }
}
