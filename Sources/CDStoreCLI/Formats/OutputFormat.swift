import ArgumentParser
import CDStoreSQLite
import Foundation

/// The output formats of every command that prints records.
///
/// The default is `table` when standard output is a terminal and `json` otherwise, so that a person sees a
/// table and a pipe gets data.
public enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Aligned columns for reading at a terminal.
    case table
    /// One JSON array of objects keyed by the model's property names.
    case json
    /// One JSON object per line.
    case ndjson
    /// CSV with a header row (RFC 4180).
    case csv

    /// The format used when none is given.
    public static var `default`: OutputFormat {
        isatty(STDOUT_FILENO) != 0 ? .table : .json
    }

    /// A writer of this format for records with these columns (used by table and CSV; JSON takes keys per record).
    public func writer(columns: [String], output: TextOutput) -> RecordWriter {
        switch self {
        case .table: TableWriter(columns: columns, output: output)
        case .json: JSONArrayWriter(output: output)
        case .ndjson: NDJSONWriter(output: output)
        case .csv: CSVWriter(columns: columns, output: output)
        }
    }
}

/// Writes records one at a time, then finishes the document.
public protocol RecordWriter: AnyObject {
    /// Writes one record: its keys and values in order. Keys missing from a record print as null.
    func write(_ record: [(String, ObjectValue)])
    /// Ends the document (closing bracket, table body) and flushes.
    func finish()
}

/// One JSON array, one object per line inside it, so that large outputs stay greppable.
final class JSONArrayWriter: RecordWriter {
    private let output: TextOutput
    private var count = 0
    init(output: TextOutput) { self.output = output }

    func write(_ record: [(String, ObjectValue)]) {
        output.write(count == 0 ? "[\n" : ",\n")
        output.write(JSONText.encode(.dictionary(record)))
        count += 1
    }

    func finish() {
        output.line(count == 0 ? "[]" : "\n]")
        output.flush()
    }
}

/// One JSON object per line.
final class NDJSONWriter: RecordWriter {
    private let output: TextOutput
    init(output: TextOutput) { self.output = output }

    func write(_ record: [(String, ObjectValue)]) {
        output.line(JSONText.encode(.dictionary(record)))
    }

    func finish() { output.flush() }
}

/// CSV with a header row. NULL is an empty field and the empty string a quoted empty field (`""`), so that
/// `insert --csv` reads the file back to the same values.
final class CSVWriter: RecordWriter {
    private let output: TextOutput
    private let columns: [String]
    init(columns: [String], output: TextOutput) {
        self.columns = columns
        self.output = output
        output.line(columns.map(Self.field).joined(separator: ","))
    }

    func write(_ record: [(String, ObjectValue)]) {
        var byKey: [String: ObjectValue] = [:]
        for (key, value) in record { byKey[key] = value }
        output.line(columns.map { column -> String in
            guard let value = byKey[column] else { return "" }
            if case .null = value { return "" }
            return Self.field(ValueText.plain(value))
        }.joined(separator: ","))
    }

    func finish() { output.flush() }

    static func field(_ text: String) -> String { CSVText.field(text) }
}

/// Aligned columns with a header and a rule, like sqlite-utils' default table. Line breaks (\n, \r) and tabs inside
/// values are shown escaped so that each record stays on one line.
final class TableWriter: RecordWriter {
    private let output: TextOutput
    private let columns: [String]
    private var rows: [[String]] = []
    init(columns: [String], output: TextOutput) {
        self.columns = columns
        self.output = output
    }

    func write(_ record: [(String, ObjectValue)]) {
        var byKey: [String: ObjectValue] = [:]
        for (key, value) in record { byKey[key] = value }
        rows.append(columns.map { column in
            guard let value = byKey[column] else { return "" }
            return ValueText.plain(value).replacingOccurrences(of: "\r", with: "\\r")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
        })
    }

    func finish() {
        var widths = columns.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func render(_ cells: [String]) -> String {
            var line = ""
            for (i, cell) in cells.enumerated() {
                if i > 0 { line += "  " }
                line += i == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            // Empty cells at the end of a row would leave trailing blanks.
            while line.last == " " { line.removeLast() }
            return line
        }
        output.line(render(columns))
        output.line(render(widths.map { String(repeating: "-", count: $0) }))
        for row in rows { output.line(render(row)) }
        output.flush()
    }
}
