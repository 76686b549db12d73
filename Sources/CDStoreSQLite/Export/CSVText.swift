import Foundation

/// CSV fields as every cdstore output writes them (RFC 4180), shared by the CLI's writers and the streaming
/// encoder so both quote alike.
public enum CSVText {
    /// One field: quoted when it holds a comma, a quote or a line break, or starts or ends with a space (which
    /// readers would trim); the empty string is `""` so that it reads back apart from NULL (an empty field).
    public static func field(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                || text.first == " " || text.last == " " else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
