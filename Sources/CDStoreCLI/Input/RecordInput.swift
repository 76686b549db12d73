import CDStoreSQLite
import Foundation

/// Turns insert input — JSON, NDJSON, CSV or `KEY=VALUE` arguments — into records.
public enum RecordInput {
    /// How the input text is laid out.
    public enum Format: String, Sendable {
        /// One JSON object, or an array of objects.
        case json
        /// One JSON object per line.
        case ndjson
        /// CSV with a header row naming the attributes.
        case csv
    }

    /// An input error, with where it is.
    public struct InputError: Error, CustomStringConvertible {
        public var message: String
        public var line: Int?
        public var record: Int?
        public var description: String {
            // The same form as StoreError's: `record 2 (line 3): …`.
            let place: String? = if let record {
                "record \(record)" + (line.map { " (line \($0))" } ?? "")
            } else {
                line.map { "line \($0)" }
            }
            return (place.map { $0 + ": " } ?? "") + message
        }
    }

    /// The format suggested by a file name (`.ndjson`/`.jsonl` → NDJSON, `.csv` → CSV), if any.
    public static func format(forFile path: String) -> Format? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "ndjson", "jsonl": .ndjson
        case "csv": .csv
        case "json": .json
        default: nil
        }
    }

    /// Parses `text` laid out as `format`.
    public static func records(from text: String, format: Format) throws -> [InputRecord] {
        switch format {
        case .json:
            let parsed: [(InputValue, Int)]
            do {
                parsed = try JSONReader.records(text)
            } catch let error as JSONReader.SyntaxError {
                throw InputError(message: error.description)
            }
            return try parsed.enumerated().map { index, item in
                try record(item.0, line: item.1, number: index + 1)
            }
        case .ndjson:
            var records: [InputRecord] = []
            // Split on the byte: "\r\n" is one Character, so splitting the String on "\n" would not split CRLF lines.
            for (offset, lineBytes) in text.utf8.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
                // The JSON reader skips surrounding white space itself; Foundation's trimming is slow on big inputs.
                if lineBytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
                let value: InputValue
                do {
                    value = try JSONReader.parse(String(Substring(lineBytes)))
                } catch let error as JSONReader.SyntaxError {
                    throw InputError(message: "malformed JSON at column \(error.column): \(error.message)",
                                     line: offset + 1, record: records.count + 1)
                }
                records.append(try record(value, line: offset + 1, number: records.count + 1))
            }
            return records
        case .csv:
            let rows: [(fields: [CSVReader.Field], line: Int)]
            do {
                rows = try CSVReader.rows(text)
            } catch let error as CSVReader.SyntaxError {
                throw InputError(message: "malformed CSV: " + error.message, line: error.line)
            }
            guard let header = rows.first else { return [] }
            let names = header.fields.map { $0.text.trimmingCharacters(in: .whitespaces) }
            if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
                throw InputError(message: "the header names '\(duplicate)' twice", line: header.line)
            }
            return try rows.dropFirst().enumerated().map { index, row in
                guard row.fields.count == names.count else {
                    throw InputError(message: "malformed CSV: \(row.fields.count) fields, but the header has \(names.count)",
                                     line: row.line, record: index + 1)
                }
                var fields: [(String, InputValue)] = []
                // An empty field is an explicit NULL (not "use the default"), so a NULL exported as CSV reads back
                // as NULL; leave the column out to get the model's default.
                for (name, field) in zip(names, row.fields) {
                    fields.append((name, field.quoted || !field.text.isEmpty ? .string(field.text) : .null))
                }
                return InputRecord(fields: fields, line: row.line)
            }
        }
    }

    /// Records from `KEY=VALUE` arguments: one record.
    public static func record(fromAssignments assignments: [String]) throws -> InputRecord {
        var fields: [(String, InputValue)] = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw InputError(message: "'\(assignment)' is not KEY=VALUE")
            }
            fields.append((String(assignment[..<equals]), .string(String(assignment[assignment.index(after: equals)...]))))
        }
        return InputRecord(fields: fields)
    }

    private static func record(_ value: InputValue, line: Int, number: Int) throws -> InputRecord {
        guard case .object(let fields) = value else {
            throw InputError(message: "expected a JSON object, got \(value.summary)", line: line, record: number)
        }
        var entityName: String?
        if let entity = fields.first(where: { $0.0 == "_entity" }) {
            guard case .string(let name) = entity.1 else {
                throw InputError(message: "\"_entity\" must be a string", line: line, record: number)
            }
            entityName = name
        }
        return InputRecord(fields: fields.filter { $0.0 != "_entity" }, line: line, entityName: entityName)
    }
}
