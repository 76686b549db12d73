import CDStoreJSON
import Foundation

/// CSV fields as every cdstore output writes them (RFC 4180), shared by the CLI's writers and the streaming
/// encoder so both quote alike.
package enum CSVText {
    /// One field: quoted when it holds a comma, a quote or a line break, or starts or ends with a space (which
    /// readers would trim); the empty string is `""` so that it reads back apart from NULL (an empty field).
    package static func field(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        // Bytes, not Characters: "\r\n" is one Character equal to neither "\r" nor "\n", and " \u{301}" is not " ",
        // so a Character test left such text unquoted (a CRLF split the row). The streamed encoder tests bytes too.
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
                || utf8.first == 0x20 || utf8.last == 0x20 else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
