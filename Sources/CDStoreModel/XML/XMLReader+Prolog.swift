/// The XML declaration and the DOCTYPE: external identifiers are read and ignored (never fetched), and of the
/// internal subset only general entity declarations are kept (see ``XMLReader/Entity``).
extension XMLReader {
    /// `<?xml version="1.0" encoding="…" standalone="…"?>` at offset 0 (the encoding was applied by ``XMLText``).
    mutating func readDeclaration() throws {
        i = 5
        skipSpace()
        let version = try readPseudoAttribute("version")
        guard version.hasPrefix("1."), version.count > 2, version.dropFirst(2).allSatisfy(\.isASCIIDigit) else {
            throw error("XML version '\(version)' (cdstore reads XML 1.x)", at: i)
        }
        var hadSpace = skipSpace()
        if hadSpace && startsWith("encoding") {
            _ = try readPseudoAttribute("encoding")
            hadSpace = skipSpace()
        }
        if hadSpace && startsWith("standalone") {
            let standalone = try readPseudoAttribute("standalone")
            guard standalone == "yes" || standalone == "no" else {
                throw error("standalone='\(standalone)' (expected 'yes' or 'no')", at: i)
            }
            skipSpace()
        }
        guard startsWith("?>") else { throw error("a malformed XML declaration (expected '?>')", at: i) }
        i += 2
    }

    /// `name = "value"` in the XML declaration.
    private mutating func readPseudoAttribute(_ name: String) throws -> String {
        let nameStart = i
        guard (try? readName(what: name)) == name else { throw error("expected '\(name)' in the XML declaration", at: nameStart) }
        skipSpace()
        guard byte(i) == UInt8(ascii: "=") else { throw error("expected '=' after '\(name)'", at: i) }
        i += 1
        skipSpace()
        let (start, end) = try readLiteral()
        return text.string(start, end)
    }

    /// `<!DOCTYPE name (SYSTEM "…" | PUBLIC "…" "…")? ([ internal subset ])? >`.
    mutating func readDoctype() throws {
        let start = i
        i += 9
        guard skipSpace() else { throw error("expected a space after <!DOCTYPE", at: i) }
        _ = try readName(what: "the DOCTYPE's root element name")
        if try skipExternalID(after: skipSpace()) { skipSpace() }
        if byte(i) == UInt8(ascii: "[") {
            i += 1
            try readInternalSubset(from: start)
            skipSpace()
        }
        guard byte(i) == UInt8(ascii: ">") else { throw error("a malformed DOCTYPE (expected '>')", at: i) }
        i += 1
        sawDoctype = true
    }

    /// `SYSTEM "uri"` or `PUBLIC "id" "uri"` if one starts at `i`: read past, never fetched.
    private mutating func skipExternalID(after hadSpace: Bool) throws -> Bool {
        let isPublic = startsWith("PUBLIC")
        guard isPublic || startsWith("SYSTEM") else { return false }
        guard hadSpace else { throw error("expected a space before \(isPublic ? "PUBLIC" : "SYSTEM")", at: i) }
        i += 6
        guard skipSpace() else { throw error("expected a space and a quoted literal", at: i) }
        _ = try readLiteral()
        if isPublic {
            guard skipSpace() else { throw error("expected a space and the system literal after the public identifier", at: i) }
            _ = try readLiteral()
        }
        return true
    }

    /// A quoted literal at `i`; the byte range inside the quotes.
    private mutating func readLiteral() throws -> (Int, Int) {
        let quote = byte(i)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw error("expected a quoted literal", at: i) }
        let start = i + 1
        var j = start
        while j < text.count && text.bytes[j] != quote { j += 1 }
        guard j < text.count else { throw error("a quoted literal that never ends (truncated?)", at: i) }
        i = j + 1
        return (start, j)
    }

    private mutating func readInternalSubset(from doctype: Int) throws {
        while true {
            skipSpace()
            guard i < text.count else { throw error("the DOCTYPE's internal subset never ends (no ']')", at: doctype) }
            if byte(i) == UInt8(ascii: "]") { i += 1; return }
            if byte(i) == UInt8(ascii: "%") { throw parameterEntityError() }
            if startsWith("<!--") {
                try skipComment()
            } else if startsWith("<?") {
                try skipProcessingInstruction()
            } else if startsWith("<!ENTITY") {
                try readEntityDeclaration()
            } else if startsWith("<!ELEMENT") || startsWith("<!ATTLIST") || startsWith("<!NOTATION") {
                try skipDeclaration()
            } else {
                throw error("expected a declaration in the DOCTYPE's internal subset", at: i)
            }
        }
    }

    private func parameterEntityError() -> XMLError {
        error("a parameter-entity reference (%name;): cdstore reads no DTD, internal or external", at: i)
    }

    /// `<!ELEMENT …>`, `<!ATTLIST …>`, `<!NOTATION …>`: not needed to read the document, skipped.
    private mutating func skipDeclaration() throws {
        let start = i
        var quote: UInt8?
        while i < text.count {
            let b = text.bytes[i]
            if let open = quote {
                if b == open { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "%") {
                throw parameterEntityError()
            } else if b == UInt8(ascii: ">") {
                i += 1
                return
            }
            i += 1
        }
        throw error("a declaration that never ends (no '>')", at: start)
    }

    /// `<!ENTITY name "text">` or `<!ENTITY name SYSTEM "uri">` (kept); `<!ENTITY % name …>` (ignored: a reference
    /// to a parameter entity is an error anyway). The first declaration of a name wins (XML 1.0 §4.2).
    private mutating func readEntityDeclaration() throws {
        i += 8
        guard skipSpace() else { throw error("expected a space after <!ENTITY", at: i) }
        var isParameter = false
        if byte(i) == UInt8(ascii: "%") {
            isParameter = true
            i += 1
            guard skipSpace() else { throw error("expected a space after '%'", at: i) }
        }
        let name = try readName(what: "entity name")
        let hadSpace = skipSpace()
        let entity: Entity
        if try skipExternalID(after: hadSpace) {
            entity = .external
            if skipSpace() && startsWith("NDATA") {
                i += 5
                guard skipSpace() else { throw error("expected a space after NDATA", at: i) }
                _ = try readName(what: "notation name")
                skipSpace()
            }
        } else {
            guard hadSpace else { throw error("expected a space after the entity name", at: i) }
            entity = .text(try readEntityValue())
            skipSpace()
        }
        guard byte(i) == UInt8(ascii: ">") else { throw error("a malformed entity declaration (expected '>')", at: i) }
        i += 1
        if !isParameter && entities[name] == nil { entities[name] = entity }
    }

    /// The replacement text of a quoted entity value: character references replaced now, entity references kept
    /// to be expanded where the entity is used (XML 1.0 §4.5).
    private mutating func readEntityValue() throws -> [UInt8] {
        let start = i
        let quote = byte(i)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("expected a quoted entity value, SYSTEM or PUBLIC", at: i)
        }
        i += 1
        var value: [UInt8] = []
        while true {
            guard i < text.count else { throw error("an entity value that never ends (truncated?)", at: start) }
            let b = text.bytes[i]
            if b == quote { i += 1; return value }
            if b == UInt8(ascii: "%") { throw parameterEntityError() }
            if b == UInt8(ascii: "&") {
                let referenceStart = i
                switch try parseReference(text.bytes, count: text.count, at: &i, reportingAt: referenceStart) {
                case .character(let scalar): Self.appendUTF8(scalar, to: &value)
                case .named: value += text.bytes[referenceStart..<i]
                }
                continue
            }
            value.append(b)
            i += 1
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
