import CDStoreJSON
import CDStoreModel
import CDStoreEngine
import Foundation

/// Insert input — JSON, NDJSON, CSV or `KEY=VALUE` arguments — as records; ``Format`` names the layout of a file
/// or text an insert reads.
///
/// ```swift
/// try store.write { ctx in
///     try ctx.insert(.file(URL(fileURLWithPath: "people.csv"), format: .csv), into: "Person")
/// }
/// ```
///
/// Files and standard input are read as a stream, parsed one record at a time, so a bulk insert holds one chunk
/// of input, not the whole of it.
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
    package struct InputError: SkippableRecordError {
        /// What is wrong, without the place.
        package var message: String
        /// The input line, when known.
        package var line: Int?
        /// The record's number in the input (1-based), when known.
        package var record: Int?
        /// Whether only this record is spoilt (a malformed NDJSON line, a CSV row with the wrong number of
        /// fields, a value that is not an object), so that reading can go on with the next one.
        package var isSkippable = false
        /// Which input of the call the error is about, when one is (``ErrorInput/root`` for a root key path the
        /// document does not have).
        package var input: ErrorInput?

        /// Creates an input error.
        package init(message: String, line: Int? = nil, record: Int? = nil, isSkippable: Bool = false) {
            self.message = message
            self.line = line
            self.record = record
            self.isSkippable = isSkippable
        }

        /// `record 2 (line 3): message`, as ``StoreError`` places its errors.
        package var description: String { describing(inputAs: input?.label) }

        /// The description with `name` for the input (``ErrorInput/label``, or a command line's flag) between the
        /// place and the message.
        package func describing(inputAs name: String?) -> String {
            var text = ErrorDescription(message)
            text.record = record
            text.line = line
            text.inputName = name
            return text.text
        }
    }

    /// The format suggested by a file name (`.ndjson`/`.jsonl` → NDJSON, `.csv` → CSV), if any.
    package static func format(forFile path: String) -> Format? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "ndjson", "jsonl": .ndjson
        case "csv": .csv
        case "json": .json
        default: nil
        }
    }

    /// A reader of the records in `stream`, laid out as `format`, that parses them one at a time.
    ///
    /// Errors are ``InputError``s (``ByteStream/ReadError`` if the input cannot be read); those with
    /// ``InputError/isSkippable`` spoil one record only.
    /// `root` is the key path of the records inside a JSON document (``JSONRecordReader``; other formats ignore it).
    package static func reader(_ stream: ByteStream, format: Format, root: [String] = []) -> any RecordSource {
        switch format {
        case .json: JSONRecordReader(stream, root: root)
        case .ndjson: NDJSONRecordReader(stream)
        case .csv: CSVRecordReader(stream)
        }
    }

    /// Parses `text` laid out as `format`; the first error of any kind stops it.
    package static func records(from text: String, format: Format) throws -> [InputRecord] {
        var source = reader(ByteStream(text), format: format)
        var records: [InputRecord] = []
        while let record = try source.next() { records.append(record) }
        return records
    }

    /// Records from `KEY=VALUE` arguments: one record.
    package static func record(fromAssignments assignments: [String]) throws -> InputRecord {
        var fields: [(String, InputValue)] = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw InputError(message: "'\(assignment)' is not KEY=VALUE")
            }
            fields.append((String(assignment[..<equals]), .string(String(assignment[assignment.index(after: equals)...]))))
        }
        return InputRecord(fields: fields)
    }

    /// The record a JSON value makes: an object, whose `"_entity"` member (a string) names the entity.
    static func record(_ value: InputValue, line: Int, number: Int) throws -> InputRecord {
        guard case .object(var fields) = value else {
            throw InputError(message: "expected a JSON object, got \(value.summary)", line: line, record: number,
                             isSkippable: true)
        }
        // Most records have no "_entity": look before filtering, so they are not copied.
        guard let index = fields.firstIndex(where: { $0.0 == "_entity" }) else {
            return InputRecord(fields: fields, line: line)
        }
        guard case .string(let name) = fields[index].1 else {
            throw InputError(message: "\"_entity\" must be a string", line: line, record: number, isSkippable: true)
        }
        fields.removeAll { $0.0 == "_entity" }
        return InputRecord(fields: fields, line: line, entityName: name)
    }
}
