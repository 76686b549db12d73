import Foundation

/// Reads XML property lists (`<plist version="1.0">…</plist>`) with cdstore's ``XMLReader`` rather than Foundation,
/// whose parsers on Linux are C code that cdstore cannot guard (see docs/decisions/0012-xml-reader.md).
///
/// Values come out as Foundation's reader gave them to ``PropertyListReader/convert(_:)``: a one-entry dictionary
/// `{"CF$UID": n}` is a UID, `<integer>` an integer (decimal, or hexadecimal with `0x`), `<date>` seconds since
/// 2001 (`YYYY-MM-DDTHH:MM:SSZ`, as Apple writes it), `<data>` base64 with any white space.
package enum XMLPropertyListReader {
    /// Reads a whole XML property list.
    package static func read(_ bytes: [UInt8]) throws -> PropertyListValue {
        let root: XMLTreeElement
        do {
            root = try XMLTreeElement.parse(bytes)
        } catch let error as XMLError {
            throw PropertyListReader.Failure(description: "not a property list: \(error.position): not well-formed XML (\(error.message))")
        }
        return try value(of: root)
    }

    /// The value an element holds: `<plist>` (its one value) or a value element, such as one inside a mapping
    /// model's `<metadata>`.
    package static func value(of element: XMLTreeElement) throws -> PropertyListValue {
        func fail(_ message: String, _ at: XMLTreeElement) -> PropertyListReader.Failure {
            PropertyListReader.Failure(description: "not a property list: \(at.position): \(message)")
        }
        func noChildren(_ element: XMLTreeElement) throws {
            if let child = element.children.first { throw fail("<\(child.name)> inside <\(element.name)>", child) }
        }
        func noText(_ element: XMLTreeElement) throws {
            guard element.text.allSatisfy(\.isWhitespace) else { throw fail("text directly inside <\(element.name)>", element) }
        }
        switch element.name {
        case "plist":
            try noText(element)
            guard element.children.count == 1 else { throw fail("<plist> must hold one value", element) }
            return try value(of: element.children[0])
        case "dict":
            try noText(element)
            guard element.children.count % 2 == 0 else { throw fail("a <key> without a value in <dict>", element) }
            var entries: [String: PropertyListValue] = [:]
            var k = 0
            while k < element.children.count {
                let key = element.children[k]
                guard key.name == "key" else { throw fail("<\(key.name)> where <dict> expects a <key>", key) }
                try noChildren(key)
                entries[key.text] = try value(of: element.children[k + 1])
                k += 2
            }
            if entries.count == 1, case .int(let uid)? = entries["CF$UID"], let n = Int(exactly: uid), n >= 0 {
                return .uid(n)
            }
            return .dictionary(entries)
        case "array":
            try noText(element)
            return .array(try element.children.map(value(of:)))
        case "string":
            try noChildren(element)
            return .string(element.text)
        case "integer":
            try noChildren(element)
            guard let n = integer(element.text) else { throw fail("'\(element.text)' is not a 64-bit integer", element) }
            return .int(n)
        case "real":
            try noChildren(element)
            guard let d = Double(element.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw fail("'\(element.text)' is not a real number", element)
            }
            return .real(d)
        case "true", "false":
            try noChildren(element)
            try noText(element)
            return .bool(element.name == "true")
        case "date":
            try noChildren(element)
            guard let seconds = date(element.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw fail("'\(element.text)' is not a date (expected YYYY-MM-DDTHH:MM:SSZ)", element)
            }
            return .date(seconds)
        case "data":
            try noChildren(element)
            let base64 = element.text.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: base64) ?? Data(base64Encoded: base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4))
            else { throw fail("<data> that is not base64", element) }
            return .data([UInt8](data))
        default:
            throw fail("<\(element.name)> is not a property-list element", element)
        }
    }

    /// A decimal or `0x` hexadecimal integer with an optional sign, surrounded by optional white space.
    static func integer(_ text: String) -> Int64? {
        var digits = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            radix = 16
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit }), let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return Int64(exactly: magnitude)
    }

    /// Seconds since 2001-01-01T00:00:00Z of `YYYY-MM-DDTHH:MM:SSZ`.
    static func date(_ text: String) -> Double? {
        let u = Array(text.utf8)
        guard u.count == 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for k in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(u[k]) else { return nil }
                n = n * 10 + Int(u[k] - UInt8(ascii: "0"))
            }
            return n
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year, month, day) - daysFromCivil(2001, 1, 1)
        return Double(days * 86400 + hour * 3600 + minute * 60 + second)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }
}
