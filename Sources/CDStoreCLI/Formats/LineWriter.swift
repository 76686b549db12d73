import CDStore
import Foundation

/// Records expanded, one `key  value` line per attribute and a blank line between records, like psql's `\x`
/// and sqlite3's `.mode line`: for records too wide for a table.
///
/// Values are whole: never cut, numbers in their exact form (a table rounds doubles to 15 digits), and a value
/// with line breaks goes on over several lines, each indented to the value column so that the blank line
/// between records stays the only empty one.
final class LineWriter: RecordWriter {
    private let output: TextOutput
    private let layout: LineLayout
    private var count = 0

    init(columns: [String], output: TextOutput) {
        self.output = output
        layout = LineLayout(columns: columns)
    }

    func write(_ record: [(String, ObjectValue)]) {
        if count > 0 { output.line("") }
        for line in layout.lines(LineLayout.texts(of: record)) { output.line(line) }
        count += 1
    }

    func finish() { output.flush() }
}

/// How one record is laid out expanded: keys padded to the longest key, then the value. A value type, so the
/// table writer can expand rows it has collected and tests can lay out any record.
struct LineLayout {
    /// The keys in order; a record's keys outside them follow in the record's order.
    var columns: [String]
    static let gap = "  "

    /// The record's values as text, by key: exact numbers, NULL as nothing.
    static func texts(of record: [(String, ObjectValue)]) -> [(String, String)] {
        record.map { key, value in
            if case .null = value { return (key, "") }
            return (key, value.plainText)
        }
    }

    /// The lines of one record, keys in ``columns`` order (missing ones show empty).
    func lines(_ record: [(String, String)]) -> [String] {
        var byKey: [String: String] = [:]
        for (key, text) in record where byKey[key] == nil { byKey[key] = text }
        let keys = columns + record.map(\.0).filter { !columns.contains($0) }
        let width = keys.map(\.count).max() ?? 0
        let indent = String(repeating: " ", count: width + Self.gap.count)
        var lines: [String] = []
        for key in keys {
            let parts = (byKey[key] ?? "").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            let first = parts.first.map(String.init) ?? ""
            // An empty value leaves the key alone on its line, without trailing blanks.
            lines.append(first.isEmpty ? key : key + String(repeating: " ", count: width - key.count) + Self.gap + first)
            for part in parts.dropFirst() { lines.append(indent + part) }
        }
        return lines
    }
}
