import ArgumentParser
import CDStore
import Foundation

/// The output formats of every command that prints records.
///
/// The default (``default``) is `table` when standard output is a terminal and `ndjson` otherwise, so that a
/// person sees a table and a pipe gets data.
public enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Aligned columns for reading at a terminal.
    case table
    /// Each record expanded: one `key  value` line per attribute, a blank line between records, values whole
    /// (for records too wide for a table; the REPL's `.mode line`).
    case line
    /// One JSON array of objects keyed by the model's property names.
    case json
    /// One JSON object per line.
    case ndjson
    /// CSV with a header row (RFC 4180).
    case csv

    /// The format used when none is given: a table for a person at a terminal, NDJSON for a pipe (one object
    /// per line: `head`, `grep` and `jq` work on it as it streams).
    public static var `default`: OutputFormat {
        isatty(STDOUT_FILENO) != 0 ? .table : .ndjson
    }

    /// Whether the format is for people to read: object IDs short (`Department/p3`), to-many relationships as
    /// counts.
    public var isForReading: Bool { self == .table || self == .line }

    /// A writer of this format for records with these columns (used by table and CSV; JSON takes keys per record).
    /// `headers` false leaves out the CSV header row and the table's header and rule.
    public func writer(columns: [String], output: TextOutput, headers: Bool = true) -> RecordWriter {
        switch self {
        case .table: TableWriter(columns: columns, output: output, headers: headers)
        case .line: LineWriter(columns: columns, output: output)
        case .json: JSONArrayWriter(output: output)
        case .ndjson: NDJSONWriter(output: output)
        case .csv: CSVWriter(columns: columns, output: output, headers: headers)
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
        output.write(ObjectValue.dictionary(record).description)
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
        output.line(ObjectValue.dictionary(record).description)
    }

    func finish() { output.flush() }
}

/// CSV with a header row. NULL is an empty field and the empty string a quoted empty field (`""`), so that
/// `insert --csv` reads the file back to the same values.
final class CSVWriter: RecordWriter {
    private let output: TextOutput
    private let columns: [String]
    init(columns: [String], output: TextOutput, headers: Bool = true) {
        self.columns = columns
        self.output = output
        if headers { output.line(columns.map(Self.field).joined(separator: ",")) }
    }

    func write(_ record: [(String, ObjectValue)]) {
        var byKey: [String: ObjectValue] = [:]
        for (key, value) in record { byKey[key] = value }
        output.line(columns.map { column -> String in
            byKey[column]?.csvField ?? ""
        }.joined(separator: ","))
    }

    func finish() { output.flush() }

    static func field(_ text: String) -> String { ObjectValue.string(text).csvField }
}
