import CDStoreJSON
import CDStoreEngine

/// Reads NDJSON records: one JSON object per line, `\n` or `\r\n` line ends, blank lines skipped.
///
/// A malformed line throws a skippable ``RecordInput/InputError`` (`record 2 (line 3): malformed JSON at column 9:
/// expected ',' or '}'`) and reading goes on at the next line.
package struct NDJSONRecordReader: RecordSource {
    private var reader: JSONReader
    private var count = 0

    /// Prepares to read `stream`.
    package init(_ stream: ByteStream) { reader = JSONReader(stream) }

    package mutating func next() throws -> InputRecord? {
        let parsed: (value: InputValue, line: Int)?
        do {
            parsed = try reader.readLineValue()
        } catch let error as JSONSyntaxError {
            count += 1
            throw RecordInput.InputError(
                message: "malformed JSON at column \(error.column): \(error.message)",
                line: error.line, record: count, isSkippable: true)
        }
        guard let parsed else { return nil }
        count += 1
        return try RecordInput.record(parsed.value, line: parsed.line, number: count)
    }

    package var position: InputPosition {
        InputPosition(bytesRead: reader.stream.consumed, totalBytes: reader.stream.totalBytes)
    }
}
