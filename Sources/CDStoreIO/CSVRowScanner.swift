import CDStoreJSON
import CDStoreEngine

/// Reads one CSV row (RFC 4180) from a window of bytes, like ``JSONScanner`` does values: when the window ends
/// inside the row and more input may follow, it says so, and the caller reads more and scans the row again.
///
/// Outside quotes `\r` is dropped, so `\r\n` ends a row like `\n`; inside quotes every byte is kept, line breaks
/// included.
///
/// A row is read straight into a record's fields, each named by the header (``names``): an unquoted empty field is
/// NULL, any other one its text (a quoted empty field is ""). Going through an array of fields first, then pairing
/// them with the names, cost a bulk load 1,450 instructions per row.
struct CSVRowScanner {
    enum Outcome {
        /// A row, and the bytes it took up to and including its line break.
        case row([(String, InputValue)], consumed: Int)
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
    /// The header's names, in order; empty while the header itself is read (its fields are named "").
    private let names: [String]

    init(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, line: Int, names: [String]) {
        self.bytes = bytes
        self.isFinal = isFinal
        self.line = line
        rowLine = line
        self.names = names
    }

    /// The name of the field after `count` others: a row with more fields than the header is refused by the reader.
    private func name(after count: Int) -> String { count < names.count ? names[count] : "" }

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
        var fields: [(String, InputValue)] = []
        fields.reserveCapacity(names.isEmpty ? 8 : names.count)
        var start = 0
        func finish(consumed: Int) -> Outcome {
            fields.count == 1 && fields[0].1 == .null ? .blank(consumed: consumed) : .row(fields, consumed: consumed)
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
                fields.append((name(after: fields.count), try plainField(start..<end, ascii: high < 0x80)))
                return finish(consumed: end)
            }
            switch bytes[end] {
            case UInt8(ascii: ","):
                fields.append((name(after: fields.count), try plainField(start..<end, ascii: high < 0x80)))
                start = end + 1
            case 10:
                fields.append((name(after: fields.count), try plainField(start..<end, ascii: high < 0x80)))
                return finish(consumed: end + 1)
            case 13:
                guard end + 1 < bytes.count else {
                    if !isFinal { return .needMore }
                    fields.append((name(after: fields.count), try plainField(start..<end, ascii: high < 0x80)))
                    return finish(consumed: end + 1)
                }
                switch bytes[end + 1] {
                case 10:
                    fields.append((name(after: fields.count), try plainField(start..<end, ascii: high < 0x80)))
                    return finish(consumed: end + 2)
                case UInt8(ascii: ","):
                    fields.append((name(after: fields.count), try plainField(start..<end, ascii: high < 0x80)))
                    start = end + 2
                default:
                    return nil
                }
            default:
                return nil
            }
        }
    }

    private func plainField(_ range: Range<Int>, ascii: Bool) throws -> InputValue {
        guard !range.isEmpty else { return .null }
        let utf8 = UnsafeBufferPointer(rebasing: bytes[range])
        if ascii { return .string(String(decoding: utf8, as: UTF8.self)) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8 text") }
        return .string(text)
    }

    /// Any row, byte by byte: quoted fields with `""` and line breaks, and `\r` dropped wherever it is outside quotes.
    private mutating func anyRow() throws -> Outcome {
        field.removeAll(keepingCapacity: true)
        var fields: [(String, InputValue)] = []
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
                fields.append((name(after: fields.count), try endField(quoted: quoted)))
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

    private mutating func endRow(_ fields: inout [(String, InputValue)], started: Bool, quoted: Bool, consumed: Int)
        throws -> Outcome
    {
        // A line with nothing on it (or only `\r`) is blank, not a row of one NULL.
        guard !fields.isEmpty || started || !field.isEmpty else { return .blank(consumed: consumed) }
        fields.append((name(after: fields.count), try endField(quoted: quoted)))
        if fields.count == 1 && fields[0].1 == .null { return .blank(consumed: consumed) }
        return .row(fields, consumed: consumed)
    }

    private mutating func endField(quoted: Bool) throws -> InputValue {
        defer { field.removeAll(keepingCapacity: true) }
        if field.isEmpty && !quoted { return .null }
        if field.allSatisfy({ $0 < 0x80 }) { return .string(String(decoding: field, as: UTF8.self)) }
        guard let text = String(validating: field, as: UTF8.self) else { throw error("invalid UTF-8 text") }
        return .string(text)
    }

    private func error(_ message: String) -> RecordInput.InputError {
        RecordInput.InputError(message: "malformed CSV: " + message, line: line)
    }
}
