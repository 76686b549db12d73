/// One attribute of a start tag, its value normalised as XML requires (XML 1.0 §3.3.3): references replaced, and
/// each literal tab or line end turned into a space, so `&#10;` is how a value holds a line break.
package struct XMLAttribute: Sendable, Equatable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A start tag (or an empty-element tag, which the reader follows with its end).
package struct XMLStartTag: Sendable, Equatable {
    package var name: String
    /// In the order written; names are unique (a duplicate is an error).
    package var attributes: [XMLAttribute]
    /// Byte offset of its `<`.
    package var offset: Int
    /// Byte offset of the `>` that ends it, or of the `/` of `/>`: where libxml2 (and so Foundation's `XMLParser`)
    /// stood when it reported the element, which older cdstore messages and sources maps give.
    package var endOffset: Int

    /// The value of the attribute called `name`.
    package subscript(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

/// An XML 1.0 reader of cdstore's own for the files Core Data tools write (model `contents`, mapping models,
/// property lists), pulled one event at a time: start tags with their attributes, end tags, and character data.
///
/// It reads every well-formed document, not just what Xcode writes, and refuses the rest with an ``XMLError`` giving
/// line and column; it never traps or recurses on input. What a document can ask of a parser is bounded:
/// - no external entity or DTD is ever read (a reference to one is an error, so XXE cannot happen);
/// - internal entities expand to at most ``Limits/entityExpansion`` bytes in all and nest at most
///   ``Limits/entityNesting`` deep (so "billion laughs" is an error, not a gigabyte);
/// - elements nest at most ``Limits/depth`` deep.
/// Namespaces are not processed (names are read as written, prefix included); DTD declarations other than
/// entities are skipped, so attribute defaults declared in a DTD are not applied. Comments and processing
/// instructions are skipped. Entities whose text holds markup (`<`) are refused rather than parsed.
package struct XMLReader {
    /// Bounds on what a document can make the reader do.
    package struct Limits: Sendable {
        /// The deepest element nesting accepted (libxml2's default is the same).
        package var depth = 256
        /// Bytes that entity references may add to the document, in all.
        package var entityExpansion = 1 << 20
        /// How deep an entity's text may refer to other entities.
        package var entityNesting = 16

        package init() {}
    }

    /// What ``next()`` reads.
    package enum Event: Sendable, Equatable {
        case start(XMLStartTag)
        /// The end of an element; `offset` is that of its `</`, or of `/>` for an empty-element tag.
        case end(name: String, offset: Int)
        /// Character data (text, references, CDATA sections) inside the root element; consecutive pieces may
        /// come as separate events.
        case text(String, offset: Int)
    }

    /// An entity declared in the document's internal subset.
    enum Entity {
        /// Replacement text, character references already replaced (XML 1.0 §4.5).
        case text([UInt8])
        /// `SYSTEM` or `PUBLIC`: never read.
        case external
    }

    let text: XMLText
    let limits: Limits
    /// Where reading goes on.
    var i = 0
    /// Names of the open elements, root first.
    var open: [String] = []
    var sawRoot = false
    var sawDoctype = false
    /// The end event owed for an empty-element tag just returned.
    var pendingEnd: (name: String, offset: Int)?
    var entities: [String: Entity] = [:]
    /// Bytes added by entity expansion so far.
    var expanded = 0
    /// The last answer of ``position(at:)``.
    var lastPosition: (offset: Int, position: XMLPosition)?

    /// Reads `bytes` (UTF-8, UTF-16 or declared ISO-8859-1); throws ``XMLError`` if the encoding is wrong.
    package init(_ bytes: [UInt8], limits: Limits = Limits()) throws {
        text = try XMLText(bytes)
        self.limits = limits
        if startsWith("<?xml") && isSpace(at: 5) { try readDeclaration() }
    }

    /// The line and column of byte `offset` (from an event). Cheapest when asked in document order.
    package mutating func position(at offset: Int) -> XMLPosition {
        let position = text.position(at: offset, hint: lastPosition)
        lastPosition = (offset, position)
        return position
    }

    /// The line and column where reading stopped.
    package var position: XMLPosition { text.position(at: i) }

    /// The next event, or nil at the end of a well-formed document.
    package mutating func next() throws -> Event? {
        if let end = pendingEnd {
            pendingEnd = nil
            return .end(name: end.name, offset: end.offset)
        }
        while true {
            if open.isEmpty {
                skipSpace()
                guard i < text.count else {
                    guard sawRoot else { throw error("no root element", at: i) }
                    return nil
                }
                guard byte(i) == UInt8(ascii: "<") else {
                    throw error(sawRoot ? "text after the root element" : "text before the root element", at: i)
                }
                if startsWith("<?") { try skipProcessingInstruction(); continue }
                if startsWith("<!--") { try skipComment(); continue }
                if startsWith("<!DOCTYPE") {
                    guard !sawRoot && !sawDoctype else { throw error("a DOCTYPE must come once, before the root element", at: i) }
                    try readDoctype()
                    continue
                }
                guard !sawRoot else { throw error("a second root element (a document has one)", at: i) }
                sawRoot = true
                return .start(try readStartTag())
            }
            guard i < text.count else {
                throw error("the document ends inside <\(open[open.count - 1])> (truncated?)", at: i)
            }
            if byte(i) != UInt8(ascii: "<") {
                let start = i
                return .text(try readText(), offset: start)
            }
            switch byte(i + 1) {
            case UInt8(ascii: "/"):
                return try readEndTag()
            case UInt8(ascii: "?"):
                try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                if startsWith("<!--") {
                    try skipComment()
                } else if startsWith("<![CDATA[") {
                    let start = i
                    return .text(try readCDATA(), offset: start)
                } else {
                    throw error("'<!' in content that is neither a comment nor a CDATA section", at: i)
                }
            default:
                return .start(try readStartTag())
            }
        }
    }

    // MARK: - Tags

    mutating func readStartTag() throws -> XMLStartTag {
        let start = i
        i += 1
        let name = try readName(what: "element name")
        var attributes: [XMLAttribute] = []
        var names: Set<String> = []
        while true {
            let hadSpace = skipSpace()
            let b = byte(i)
            if b == UInt8(ascii: ">") || b == UInt8(ascii: "/") {
                let end = i
                if b == UInt8(ascii: "/") {
                    guard byte(i + 1) == UInt8(ascii: ">") else { throw error("'/' in <\(name)> not followed by '>'", at: i) }
                    i += 2
                    pendingEnd = (name, end)
                } else {
                    i += 1
                    guard open.count < limits.depth else {
                        throw error("elements nest deeper than \(limits.depth) levels", at: start)
                    }
                    open.append(name)
                }
                return XMLStartTag(name: name, attributes: attributes, offset: start, endOffset: end)
            }
            guard i < text.count else { throw error("the document ends inside the tag <\(name)> (truncated?)", at: i) }
            guard hadSpace else { throw error("expected a space, '>' or '/>' in <\(name)>", at: i) }
            let nameOffset = i
            let attribute = try readName(what: "attribute name")
            skipSpace()
            guard byte(i) == UInt8(ascii: "=") else {
                throw error(i < text.count ? "attribute '\(attribute)' without '=' in <\(name)>"
                            : "the document ends inside the tag <\(name)> (truncated?)", at: i)
            }
            i += 1
            skipSpace()
            let value = try readAttributeValue()
            // A set once there are many, so ten thousand attributes do not cost a hundred million comparisons.
            if attributes.count < 16 ? attributes.contains(where: { $0.name == attribute }) : !names.insert(attribute).inserted {
                throw error("attribute '\(attribute)' appears twice in <\(name)>", at: nameOffset)
            }
            attributes.append(XMLAttribute(name: attribute, value: value))
            if attributes.count == 16 { names = Set(attributes.map(\.name)) }
        }
    }

    mutating func readEndTag() throws -> Event {
        let start = i
        i += 2
        let name = try readName(what: "element name")
        skipSpace()
        guard byte(i) == UInt8(ascii: ">") else {
            throw error(i < text.count ? "expected '>' to end </\(name)>" : "the document ends inside </\(name)> (truncated?)", at: i)
        }
        let expected = open[open.count - 1]
        guard name == expected else { throw error("</\(name)> does not close <\(expected)>", at: start) }
        i += 1
        open.removeLast()
        return .end(name: name, offset: start)
    }

    /// An attribute value in quotes, normalised (XML 1.0 §3.3.3).
    mutating func readAttributeValue() throws -> String {
        let quote = byte(i)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error(i < text.count ? "an attribute value must be in quotes"
                        : "the document ends where an attribute value should be (truncated?)", at: i)
        }
        i += 1
        let start = i
        // Most values hold nothing to replace: one String straight from the bytes.
        while true {
            let b = byte(i)
            if b == quote {
                i += 1
                return text.string(start, i - 1)
            }
            if b == UInt8(ascii: "&") || b == UInt8(ascii: "<") || b == 0x09 || b == 0x0A || i >= text.count { break }
            i += 1
        }
        var value = Array(text.bytes[start..<i])
        while true {
            let b = byte(i)
            guard i < text.count else { throw error("the document ends inside an attribute value (truncated?)", at: i) }
            switch b {
            case quote:
                i += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw error("'<' in an attribute value (write &lt;)", at: i)
            case UInt8(ascii: "&"):
                try readReference(into: &value, inAttribute: true)
            case 0x09, 0x0A:
                value.append(0x20)
                i += 1
            default:
                value.append(b)
                i += 1
            }
        }
    }

    // MARK: - Character data

    /// Text up to the next `<`, with references replaced.
    mutating func readText() throws -> String {
        let start = i
        while true {
            let b = byte(i)
            if b == UInt8(ascii: "<") || b == UInt8(ascii: "&") || i >= text.count { break }
            if b == UInt8(ascii: "]") && startsWith("]]>") { throw error("']]>' in text (write ]]&gt;)", at: i) }
            i += 1
        }
        if byte(i) != UInt8(ascii: "&") { return text.string(start, i) }
        var value = Array(text.bytes[start..<i])
        while i < text.count && byte(i) != UInt8(ascii: "<") {
            let b = byte(i)
            if b == UInt8(ascii: "&") {
                try readReference(into: &value, inAttribute: false)
            } else {
                if b == UInt8(ascii: "]") && startsWith("]]>") { throw error("']]>' in text (write ]]&gt;)", at: i) }
                value.append(b)
                i += 1
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    mutating func readCDATA() throws -> String {
        let start = i
        i += 9
        let body = i
        guard let end = find("]]>") else { throw error("a CDATA section that never ends (no ']]>')", at: start) }
        i = end + 3
        return text.string(body, end)
    }

    // MARK: - Comments and processing instructions

    mutating func skipComment() throws {
        let start = i
        i += 4
        guard let end = find("--") else { throw error("a comment that never ends (no '-->')", at: start) }
        guard byte(end + 2) == UInt8(ascii: ">") else { throw error("'--' inside a comment", at: end) }
        i = end + 3
    }

    /// `<?target data?>`, anywhere but inside a tag; the data is optional (`<?pi?>`).
    mutating func skipProcessingInstruction() throws {
        let start = i
        i += 2
        let target = try readName(what: "processing instruction target")
        if target.lowercased() == "xml" {
            throw error("an XML declaration ('<?xml … ?>') anywhere but at the very start", at: start)
        }
        if startsWith("?>") { i += 2; return }
        guard skipSpace() else { throw error("expected a space or '?>' after <?\(target)", at: i) }
        guard let end = find("?>") else { throw error("a processing instruction that never ends (no '?>')", at: start) }
        i = end + 2
    }

    // MARK: - Scanning

    /// The byte at `offset`, or 0 past the end (the text holds no NUL).
    @inline(__always) func byte(_ offset: Int) -> UInt8 {
        offset < text.count ? text.bytes[offset] : 0
    }

    func startsWith(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard i + count <= text.count else { return false }
        let p = literal.utf8Start
        for k in 0..<count where text.bytes[i + k] != p[k] { return false }
        return true
    }

    func isSpace(at offset: Int) -> Bool {
        let b = byte(offset)
        return b == 0x20 || b == 0x0A || b == 0x09
    }

    /// Skips white space; whether there was any.
    @discardableResult mutating func skipSpace() -> Bool {
        let start = i
        while isSpace(at: i) { i += 1 }
        return i > start
    }

    /// The offset of the next `literal` at or after `i`.
    func find(_ literal: StaticString) -> Int? {
        let count = literal.utf8CodeUnitCount
        let p = literal.utf8Start
        var j = i
        while j + count <= text.count {
            if text.bytes[j] == p[0] {
                var k = 1
                while k < count && text.bytes[j + k] == p[k] { k += 1 }
                if k == count { return j }
            }
            j += 1
        }
        return nil
    }

    func error(_ message: String, at offset: Int) -> XMLError {
        XMLError(message, at: text.position(at: offset))
    }
}
