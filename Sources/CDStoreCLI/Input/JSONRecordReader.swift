import CDStoreSQLite

/// Reads JSON records: a top-level array streamed element by element, or a single object as one record. Each
/// record knows the line it starts on.
///
/// A syntax error ends reading (`malformed JSON at line 2, column 9: …`): after it, where the next element starts
/// cannot be trusted. An element that is not an object spoils only itself.
public struct JSONRecordReader: RecordSource {
    private enum State {
        case start
        case firstElement
        case moreElements
        case done
    }

    private var reader: JSONReader
    private var state = State.start
    private var count = 0

    /// Prepares to read `stream`.
    public init(_ stream: ByteStream) { reader = JSONReader(stream) }

    public mutating func next() throws -> InputRecord? {
        do {
            return try nextRecord()
        } catch let error as JSONSyntaxError {
            state = .done
            throw RecordInput.InputError(message: error.description)
        }
    }

    public var position: InputPosition {
        InputPosition(bytesRead: reader.stream.consumed, totalBytes: reader.stream.totalBytes)
    }

    private mutating func nextRecord() throws -> InputRecord? {
        switch state {
        case .start:
            if try reader.peek() == UInt8(ascii: "[") {
                reader.skipByte()
                state = .firstElement
                return try nextRecord()
            }
            state = .done
            let line = reader.line
            let value = try reader.readValue()
            try reader.expectEnd()
            return try RecordInput.record(value, line: line, number: 1)
        case .firstElement:
            if try reader.peek() == UInt8(ascii: "]") {
                try finish()
                return nil
            }
            state = .moreElements
            return try element()
        case .moreElements:
            switch try reader.peek() {
            case UInt8(ascii: ","):
                reader.skipByte()
                if reader.options.allowsTrailingCommas, try reader.peek() == UInt8(ascii: "]") {
                    try finish()
                    return nil
                }
                return try element()
            case UInt8(ascii: "]"):
                try finish()
                return nil
            default:
                throw reader.error("expected ',' or ']'")
            }
        case .done:
            return nil
        }
    }

    private mutating func element() throws -> InputRecord {
        _ = try reader.peek()  // to the element's first byte, so that `line` is its line
        let line = reader.line
        let value = try reader.readValue(depth: 1)
        count += 1
        return try RecordInput.record(value, line: line, number: count)
    }

    private mutating func finish() throws {
        reader.skipByte()
        state = .done
        try reader.expectEnd()
    }
}
