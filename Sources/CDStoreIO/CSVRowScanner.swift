import CDStoreJSON
import CDStoreSQLite

/// A CSV field: its text and whether it was quoted (a quoted empty field is "", an unquoted one NULL).
struct CSVField: Equatable {
    var text: String
    var quoted: Bool
}

/// Reads one CSV row (RFC 4180) from a window of bytes, like ``JSONScanner`` does values: when the window ends
/// inside the row and more input may follow, it says so, and the caller reads more and scans the row again.
///
/// Outside quotes `\r` is dropped, so `\r\n` ends a row like `\n`; inside quotes every byte is kept, line breaks
/// included.
struct CSVRowScanner {
    enum Outcome {
        /// A row, and the bytes it took up to and including its line break.
        case row([CSVField], consumed: Int)
        /// Blank lines up to here, and no row.
        case blank(consumed: Int)
        /// The input ended.
        case end
        /// The row goes on past the window.
        case needMore
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let isFinal: Bool
    /// The line the scan is on; it starts at the row's line.
    private(set) var line: Int
    private let rowLine: Int
    /// The bytes of the field being read. Callers swap a buffer in and out, so rows reuse its capacity.
    var field: [UInt8] = []
    /// How many fields rows usually have (the header's), to size each row's array once.
    private let expectedFields: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, line: Int, expectedFields: Int) {
        self.bytes = bytes
        self.isFinal = isFinal
        self.line = line
        rowLine = line
        self.expectedFields = expectedFields
    }

    /// Scans the next row.
    /// - Throws: ``RecordInput/InputError`` for malformed CSV (not skippable: where the next row starts is unknown).
    mutating func row() throws -> Outcome {
        if let outcome = try plainRow() { return outcome }
        return try anyRow()
    }

    /// The common case at the speed of a scan: unquoted fields, each made into a String straight from the window,
    /// and a `\n` or `\r\n` row end. Returns nil for anything else (a quote, a lone `\r`), which ``anyRow()``
    /// reads byte by byte from the row's start.
    private mutating func plainRow() throws -> Outcome? {
        var fields: [CSVField] = []
        fields.reserveCapacity(expectedFields)
        var start = 0
        func finish(consumed: Int) -> Outcome {
            fields.count == 1 && fields[0].text.isEmpty ? .blank(consumed: consumed) : .row(fields, consumed: consumed)
        }
        while true {
            var end = start
            var high: UInt8 = 0
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: ",") || byte == 10 || byte == 13 || byte == UInt8(ascii: "\"") { break }
                high |= byte
                end += 1
            }
            guard end < bytes.count else {
                if !isFinal { return .needMore }
                if end == 0 { return .end }
                fields.append(try plainField(start..<end, ascii: high < 0x80))
                return finish(consumed: end)
            }
            switch bytes[end] {
            case UInt8(ascii: ","):
                fields.append(try plainField(start..<end, ascii: high < 0x80))
                start = end + 1
            case 10:
                fields.append(try plainField(start..<end, ascii: high < 0x80))
                return finish(consumed: end + 1)
            case 13:
                guard end + 1 < bytes.count else {
                    if !isFinal { return .needMore }
                    fields.append(try plainField(start..<end, ascii: high < 0x80))
                    return finish(consumed: end + 1)
                }
                switch bytes[end + 1] {
                case 10:
                    fields.append(try plainField(start..<end, ascii: high < 0x80))
                    return finish(consumed: end + 2)
                case UInt8(ascii: ","):
                    fields.append(try plainField(start..<end, ascii: high < 0x80))
                    start = end + 2
                default:
                    return nil
                }
            default:
                return nil
            }
        }
    }

    private func plainField(_ range: Range<Int>, ascii: Bool) throws -> CSVField {
        let utf8 = UnsafeBufferPointer(rebasing: bytes[range])
        if ascii { return CSVField(text: String(decoding: utf8, as: UTF8.self), quoted: false) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8 text") }
        return CSVField(text: text, quoted: false)
    }

    /// Any row, byte by byte: quoted fields with `""` and line breaks, and `\r` dropped wherever it is outside quotes.
    private mutating func anyRow() throws -> Outcome {
        field.removeAll(keepingCapacity: true)
        var fields: [CSVField] = []
        var quoted = false
        var inQuotes = false
        var started = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 == bytes.count && !isFinal { return .needMore }
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == 10 { line += 1 }
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard field.isEmpty && !quoted else {
                    throw error("a quote inside an unquoted field (quote the whole field and double the quote)")
                }
                inQuotes = true
                quoted = true
                started = true
            case UInt8(ascii: ","):
                fields.append(try endField(quoted: quoted))
                quoted = false
                started = true
            case 13:
                break
            case 10:
                return try endRow(&fields, started: started, quoted: quoted, consumed: index + 1)
            default:
                if quoted { throw error("text after the closing quote of a field") }
                field.append(byte)
                started = true
            }
            index += 1
        }
        if !isFinal { return .needMore }
        guard !inQuotes else {
            throw RecordInput.InputError(message: "malformed CSV: unterminated quoted field", line: rowLine)
        }
        if index == 0 { return .end }
        return try endRow(&fields, started: started, quoted: quoted, consumed: index)
    }

    private mutating func endRow(_ fields: inout [CSVField], started: Bool, quoted: Bool, consumed: Int) throws
        -> Outcome
    {
        // A line with nothing on it (or only `\r`) is blank, not a row of one NULL.
        guard !fields.isEmpty || started || !field.isEmpty else { return .blank(consumed: consumed) }
        fields.append(try endField(quoted: quoted))
        if fields.count == 1 && fields[0].text.isEmpty && !fields[0].quoted { return .blank(consumed: consumed) }
        return .row(fields, consumed: consumed)
    }

    private mutating func endField(quoted: Bool) throws -> CSVField {
        defer { field.removeAll(keepingCapacity: true) }
        if field.allSatisfy({ $0 < 0x80 }) {
            return CSVField(text: String(decoding: field, as: UTF8.self), quoted: quoted)
        }
        guard let text = String(validating: field, as: UTF8.self) else { throw error("invalid UTF-8 text") }
        return CSVField(text: text, quoted: quoted)
    }

    private func error(_ message: String) -> RecordInput.InputError {
        RecordInput.InputError(message: "malformed CSV: " + message, line: line)
    }
}
