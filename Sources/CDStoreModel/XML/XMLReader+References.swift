/// Names and references: `&lt;`, `&#10;`, `&#x1F600;` and entities declared in the document.
extension XMLReader {
    enum Reference {
        case character(UInt32)
        case named(String)
    }

    /// Reads the reference at `i` (`&…;`) and appends what it stands for to `value`; in an attribute value, white
    /// space that entity text holds becomes a space, as for literal text (a character reference keeps its character).
    mutating func readReference(into value: inout [UInt8], inAttribute: Bool) throws {
        let start = i
        let reference = try parseReference(text.bytes, count: text.count, at: &i, reportingAt: start)
        try append(reference, into: &value, inAttribute: inAttribute, depth: 0, at: start)
    }

    /// Parses `&#N;`, `&#xH;` or `&name;` at `j` in the first `count` bytes of `bytes`, moving `j` past it; errors
    /// are reported at document offset `offset`.
    func parseReference(_ bytes: [UInt8], count: Int, at j: inout Int, reportingAt offset: Int) throws -> Reference {
        j += 1
        if j < count && bytes[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < count && bytes[j] == UInt8(ascii: "x")
            if hex { j += 1 }
            var scalar: UInt32 = 0
            var digits = 0
            while j < count, let digit = Self.digit(bytes[j], hex: hex) {
                scalar = min(scalar * (hex ? 16 : 10) + digit, 0x110000)
                digits += 1
                j += 1
            }
            guard digits > 0, j < count, bytes[j] == UInt8(ascii: ";") else {
                throw error("a malformed character reference (expected &#digits; or &#xhex;)", at: offset)
            }
            j += 1
            guard Self.isXMLCharacter(scalar) else {
                throw error("a character reference to a character XML does not allow", at: offset)
            }
            return .character(scalar)
        }
        guard let end = Self.nameEnd(bytes, from: j, count: count), end < count, bytes[end] == UInt8(ascii: ";") else {
            throw error("'&' that does not start a reference (write &amp;)", at: offset)
        }
        let name = String(decoding: bytes[j..<end], as: UTF8.self)
        j = end + 1
        return .named(name)
    }

    /// Appends what `reference` stands for; `depth` counts the entities being expanded around it.
    mutating func append(_ reference: Reference, into value: inout [UInt8], inAttribute: Bool, depth: Int,
                         at offset: Int) throws {
        let name: String
        switch reference {
        case .character(let scalar):
            Self.appendUTF8(scalar, to: &value)
            return
        case .named(let named):
            name = named
        }
        switch name {
        case "lt": value.append(UInt8(ascii: "<")); return
        case "gt": value.append(UInt8(ascii: ">")); return
        case "amp": value.append(UInt8(ascii: "&")); return
        case "apos": value.append(UInt8(ascii: "'")); return
        case "quot": value.append(UInt8(ascii: "\"")); return
        default: break
        }
        let replacement: [UInt8]
        switch entities[name] {
        case nil:
            throw error("a reference to the undeclared entity '&\(name);'", at: offset)
        case .external:
            throw error("a reference to the external entity '&\(name);': cdstore never reads external entities", at: offset)
        case .text(let bytes):
            replacement = bytes
        }
        guard depth < limits.entityNesting else {
            throw error("entities nest deeper than \(limits.entityNesting) levels ('&\(name);' refers to itself?)", at: offset)
        }
        // Each expansion costs at least a little, so millions of references to an empty entity are refused too.
        expanded += replacement.count + 8
        guard expanded <= limits.entityExpansion else {
            throw error("entity references expand to more than \(limits.entityExpansion) bytes "
                        + "(refused: a document this small should not need that)", at: offset)
        }
        var j = 0
        while j < replacement.count {
            let b = replacement[j]
            switch b {
            case UInt8(ascii: "&"):
                let inner = try parseReference(replacement, count: replacement.count, at: &j, reportingAt: offset)
                try append(inner, into: &value, inAttribute: inAttribute, depth: depth + 1, at: offset)
                continue
            case UInt8(ascii: "<"):
                throw error("the entity '&\(name);' holds markup; cdstore expands text-only entities", at: offset)
            case 0x09, 0x0A, 0x0D:
                value.append(inAttribute ? 0x20 : b)
            default:
                value.append(b)
            }
            j += 1
        }
    }

    // MARK: - Names

    /// A name (element, attribute, entity or processing-instruction target) at `i`.
    mutating func readName(what: String) throws -> String {
        guard let end = Self.nameEnd(text.bytes, from: i, count: text.count) else {
            throw error(i < text.count ? "expected \(what)" : "the document ends where \(what) should be (truncated?)", at: i)
        }
        let name = text.string(i, end)
        i = end
        return name
    }

    /// Where the XML `Name` starting at `j` ends, or nil if none starts there (XML 1.0 fifth edition §2.3).
    static func nameEnd(_ bytes: [UInt8], from start: Int, count: Int) -> Int? {
        var j = start
        while j < count {
            let b = bytes[j]
            if b < 0x80 {
                guard isASCIINameCharacter(b), j > start || !(b == 0x2D || b == 0x2E || (0x30...0x39).contains(b)) else { break }
                j += 1
                continue
            }
            let (scalar, length) = decode(bytes, at: j, count: count)
            guard j > start ? isNameCharacter(scalar) : isNameStartCharacter(scalar) else { break }
            j += length
        }
        return j > start ? j : nil
    }

    static func isASCIINameCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."): true
        default: false
        }
    }

    static func isNameStartCharacter(_ c: UInt32) -> Bool {
        switch c {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F,
             0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF: true
        default: c < 0x80 && isASCIINameCharacter(UInt8(c)) && !(c == 0x2D || c == 0x2E || (0x30...0x39).contains(c))
        }
    }

    static func isNameCharacter(_ c: UInt32) -> Bool {
        isNameStartCharacter(c) || c == 0xB7 || (0x300...0x36F).contains(c) || (0x203F...0x2040).contains(c)
            || (c < 0x80 && isASCIINameCharacter(UInt8(c)))
    }

    /// Whether XML 1.0 allows `c` in a document (its `Char` production).
    static func isXMLCharacter(_ c: UInt32) -> Bool {
        switch c {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// The scalar whose UTF-8 starts at `j` (the bytes are valid UTF-8) and its length.
    static func decode(_ bytes: [UInt8], at j: Int, count: Int) -> (UInt32, Int) {
        let b = bytes[j]
        let length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        guard j + length <= count else { return (0xFFFF, 1) }
        var scalar = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { scalar = scalar << 6 | UInt32(bytes[j + k] & 0x3F) }
        return (scalar, length)
    }

    static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            bytes.append(UInt8(scalar))
        case ..<0x800:
            bytes += [UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F)]
        case ..<0x10000:
            bytes += [UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F)]
        default:
            bytes += [UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F), UInt8(0x80 | scalar >> 6 & 0x3F),
                      UInt8(0x80 | scalar & 0x3F)]
        }
    }

    static func digit(_ b: UInt8, hex: Bool) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
