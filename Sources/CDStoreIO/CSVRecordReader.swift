import CDStoreJSON
import CDStoreEngine
import Foundation

/// Reads CSV records as RFC 4180 writes them: a header row naming the attributes, then one record per row;
/// quoted fields may hold commas, quotes (`""`) and line breaks. A UTF-8 byte order mark is skipped.
///
/// An unquoted empty field is NULL (even when the attribute has a default), a quoted empty field (`""`) is the empty
/// string: that is how cdstore's own CSV output writes them, so exports read back unchanged. A row with the wrong
/// number of fields is a skippable error; a syntax error (an unterminated quote) ends reading.
package struct CSVRecordReader: RecordSource {
    private let stream: ByteStream
    private var names: [String]?
    /// The line the next row starts on.
    private var line = 1
    private var count = 0
    private var started = false
    private var failed = false
    private var scratch: [UInt8] = []

    /// Prepares to read `stream`.
    package init(_ stream: ByteStream) { self.stream = stream }

    package mutating func next() throws -> InputRecord? {
        guard !failed else { return nil }
        let names: [String]
        if let known = self.names {
            names = known
        } else {
            guard let header = try nextRow() else { return nil }
            names = header.fields.map { field in
                guard case .string(let text) = field.1 else { return "" }
                return text.trimmingCharacters(in: .whitespaces)
            }
            var seen: Set<String> = []
            if let duplicate = names.first(where: { !seen.insert($0).inserted }) {
                failed = true
                throw RecordInput.InputError(message: "the header names '\(duplicate)' twice", line: header.line)
            }
            self.names = names
        }
        guard let row = try nextRow() else { return nil }
        count += 1
        guard row.fields.count == names.count else {
            throw RecordInput.InputError(
                message: "malformed CSV: \(row.fields.count) fields, but the header has \(names.count)",
                line: row.line, record: count, isSkippable: true)
        }
        // An empty field is an explicit NULL (not "use the default"), so a NULL exported as CSV reads back as NULL;
        // leave the column out to get the model's default.
        return InputRecord(fields: row.fields, line: row.line)
    }

    package var position: InputPosition { InputPosition(bytesRead: stream.consumed, totalBytes: stream.totalBytes) }

    /// The next non-blank row and the line it starts on; nil at the end of the input.
    private mutating func nextRow() throws -> (fields: [(String, InputValue)], line: Int)? {
        try skipByteOrderMark()
        while true {
            var scanner = CSVRowScanner(
                stream.window, isFinal: stream.isExhausted, line: line, names: names ?? [])
            swap(&scanner.field, &scratch)
            defer { swap(&scanner.field, &scratch) }
            let outcome: CSVRowScanner.Outcome
            do {
                outcome = try scanner.row()
            } catch {
                failed = true
                throw error
            }
            switch outcome {
            case .needMore:
                try stream.fill()
            case .end:
                return nil
            case .blank(let consumed):
                stream.consume(consumed)
                line = scanner.line + 1
            case .row(let fields, let consumed):
                stream.consume(consumed)
                let rowLine = line
                line = scanner.line + 1
                return (fields, rowLine)
            }
        }
    }

    private mutating func skipByteOrderMark() throws {
        guard !started else { return }
        started = true
        while stream.window.count < 3, try stream.fill() {}
        if stream.window.starts(with: [0xEF, 0xBB, 0xBF]) { stream.consume(3) }
    }
}
