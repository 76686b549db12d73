/// Reads CSV as RFC 4180 writes it: a header row, then records; quoted fields may hold commas, quotes (`""`)
/// and line breaks.
///
/// An unquoted empty field is NULL (even when the attribute has a default), a quoted empty field (`""`) is the empty
/// string: that is how cdstore's own CSV output writes them, so exports read back unchanged.
public enum CSVReader {
    /// A field: its text and whether it was quoted.
    public struct Field: Equatable {
        public var text: String
        public var quoted: Bool
    }

    /// A malformed CSV input, with the line of the problem.
    public struct SyntaxError: Error, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var description: String { "malformed CSV at line \(line): \(message)" }
    }

    /// The rows of `text`, each with the line it starts on. Blank lines are skipped.
    public static func rows(_ text: String) throws -> [(fields: [Field], line: Int)] {
        var rows: [([Field], Int)] = []
        var fields: [Field] = []
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        var line = 1
        var rowLine = 1
        var fieldStarted = false
        let bytes = Array(text.utf8)
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }

        func endField() {
            fields.append(Field(text: String(decoding: field, as: UTF8.self), quoted: quoted))
            field.removeAll(keepingCapacity: true)
            quoted = false
            fieldStarted = false
        }
        func endRow() {
            if !(fields.isEmpty && !fieldStarted) || !field.isEmpty {
                endField()
                if !(fields.count == 1 && fields[0].text.isEmpty && !fields[0].quoted) { rows.append((fields, rowLine)) }
            }
            fields = []
        }
        while i < bytes.count {
            let c = bytes[i]
            if inQuotes {
                if c == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(c)
                        i += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if c == 10 { line += 1 }
                    field.append(c)
                }
            } else {
                switch c {
                case UInt8(ascii: "\""):
                    guard field.isEmpty && !quoted else {
                        throw SyntaxError(message: "a quote inside an unquoted field (quote the whole field and double the quote)", line: line)
                    }
                    inQuotes = true
                    quoted = true
                    fieldStarted = true
                case UInt8(ascii: ","):
                    fieldStarted = true
                    endField()
                    fieldStarted = true
                case 13:
                    break
                case 10:
                    endRow()
                    line += 1
                    rowLine = line
                default:
                    if quoted {
                        throw SyntaxError(message: "text after the closing quote of a field", line: line)
                    }
                    field.append(c)
                    fieldStarted = true
                }
            }
            i += 1
        }
        guard !inQuotes else { throw SyntaxError(message: "unterminated quoted field", line: rowLine) }
        endRow()
        return rows
    }
}
