/// A token and where it starts.
struct Token: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A name; `escaped` when written `#name`, which makes it a key even if it is a reserved word.
        case identifier(String, escaped: Bool)
        /// `@name`, a collection operator in a key path.
        case atIdentifier(String)
        /// `$name`.
        case variable(String)
        case string(String)
        case integer(Int64)
        case float(Double)
        /// `%@`, `%K`, `%d`, `%lld`, … with the text as written.
        case format(FormatSpecifier)
        /// Punctuation and operators, e.g. `(`, `**`, `<=`, `:=`.
        case symbol(String)
        case end
    }

    var kind: Kind
    /// 1-based column in Unicode scalars.
    var column: Int

    /// How the token reads in an error message: `'>'`, `'name'`, `string "x"`, `end of predicate`.
    var quoted: String {
        switch kind {
        case .identifier(let s, let escaped): return "'\(escaped ? "#" : "")\(s)'"
        case .atIdentifier(let s): return "'@\(s)'"
        case .variable(let s): return "'$\(s)'"
        case .string(let s): return "string \"\(s)\""
        case .integer(let i): return "'\(i)'"
        case .float(let d): return "'\(d)'"
        case .format(let f): return "'\(f.spelling)'"
        case .symbol(let s): return "'\(s)'"
        case .end: return "end of predicate"
        }
    }

    /// The upper-cased name when this is an unescaped identifier, for keyword tests.
    var keyword: String? {
        if case .identifier(let s, false) = kind { return s.uppercased() }
        return nil
    }

    func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }
}

/// A `%` conversion such as `%@`, `%K`, `%d` or `%lld`.
package struct FormatSpecifier: Equatable, Sendable {
    /// The conversion character: `@`, `K`, `d`, `f`, …
    package var conversion: Character
    /// The whole specifier as written, e.g. `%lld`.
    package var spelling: String
}

/// Turns predicate text into tokens. Whitespace separates tokens and is otherwise ignored.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Lexes the whole text; the last token is `.end`.
    static func tokenize(_ text: String) throws(CDPredicateError) -> [Token] {
        var lexer = Lexer(text)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let i = index + offset
        return i < scalars.count ? scalars[i] : nil
    }

    private static func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ c: Unicode.Scalar) -> Bool {
        isIdentifierStart(c) || ("0"..."9").contains(c)
    }

    private mutating func readIdentifier() -> String {
        var s = String.UnicodeScalarView()
        while let c = peek(), Self.isIdentifierPart(c) {
            s.append(c)
            index += 1
        }
        return String(s)
    }

    mutating func next() throws(CDPredicateError) -> Token {
        while let c = peek(), c.properties.isWhitespace { index += 1 }
        let column = index + 1
        guard let c = peek() else { return Token(kind: .end, column: column) }

        if Self.isIdentifierStart(c) {
            let name = readIdentifier()
            return Token(kind: .identifier(utiOperator(after: name) ?? name, escaped: false), column: column)
        }
        if ("0"..."9").contains(c) { return Token(kind: try readNumber(), column: column) }
        switch c {
        case "\"", "'":
            return Token(kind: .string(try readString(quote: c)), column: column)
        case "#", "@", "$":
            index += 1
            guard let n = peek(), Self.isIdentifierStart(n) else {
                throw CDPredicateError(.unexpectedToken, "expected a name after '\(c)'", column: column)
            }
            let name = readIdentifier()
            let kind: Token.Kind =
                c == "#" ? .identifier(name, escaped: true) : c == "@" ? .atIdentifier(name) : .variable(name)
            return Token(kind: kind, column: column)
        case "%":
            return Token(kind: .format(try readFormatSpecifier(column: column)), column: column)
        case "?":
            throw CDPredicateError(
                .questionMark, "'?' is not valid in a predicate (use %@ for an argument)", column: column)
        default:
            break
        }
        // Longest match first, so `**` wins over `*` and `<=` over `<`.
        let symbols = ["**", "&&", "||", "==", "!=", "<>", "<=", "=<", ">=", "=>", ":=",
                       "(", ")", "{", "}", "[", "]", ",", ".", "+", "-", "*", "/", "&", "|", "^", "!",
                       "=", "<", ">", ":"]
        for symbol in symbols where matches(symbol) {
            index += symbol.unicodeScalars.count
            return Token(kind: .symbol(symbol), column: column)
        }
        throw CDPredicateError(.unexpectedToken, "unexpected '\(c)'", column: column)
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, s) in symbol.unicodeScalars.enumerated() where peek(offset) != s { return false }
        return true
    }

    /// `UTI-CONFORMS-TO` and `UTI-EQUALS` contain minus signs, so they are glued here rather than in the
    /// parser; `uti - equals` with spaces stays a subtraction.
    private mutating func utiOperator(after name: String) -> String? {
        guard name.uppercased() == "UTI" else { return nil }
        for suffix in ["-CONFORMS-TO", "-EQUALS"] {
            let tail = suffix.unicodeScalars
            var ok = true
            for (offset, s) in tail.enumerated() {
                guard let c = peek(offset), String(c).uppercased() == String(s) else { ok = false; break }
            }
            if ok, let after = peek(tail.count), Self.isIdentifierPart(after) { ok = false }
            if ok {
                index += tail.count
                return "UTI" + suffix
            }
        }
        return nil
    }

    private mutating func readNumber() throws(CDPredicateError) -> Token.Kind {
        let start = index
        if peek() == "0", let p = peek(1), let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][Character(p)] {
            index += 2
            var digits = ""
            while let c = peek(), Self.isIdentifierPart(c) {
                digits.unicodeScalars.append(c)
                index += 1
            }
            guard !digits.isEmpty, let value = UInt64(digits, radix: radix) else {
                throw CDPredicateError(.invalidLiteral, "invalid number '0\(p)\(digits)'", column: start + 1)
            }
            return .integer(Int64(bitPattern: value))
        }
        var text = ""
        var isFloat = false
        func take(_ lexer: inout Lexer) {
            text.unicodeScalars.append(lexer.scalars[lexer.index])
            lexer.index += 1
        }
        while let c = peek(), ("0"..."9").contains(c) { take(&self) }
        if peek() == ".", let d = peek(1), ("0"..."9").contains(d) {
            isFloat = true
            take(&self)
            while let c = peek(), ("0"..."9").contains(c) { take(&self) }
        }
        if let e = peek(), e == "e" || e == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if let d = peek(signed ? 2 : 1), ("0"..."9").contains(d) {
                isFloat = true
                take(&self)
                if signed { take(&self) }
                while let c = peek(), ("0"..."9").contains(c) { take(&self) }
            }
        }
        if let c = peek(), Self.isIdentifierPart(c) {
            throw CDPredicateError(.invalidLiteral, "invalid number '\(text)\(c)'", column: start + 1)
        }
        if !isFloat, let i = Int64(text) { return .integer(i) }
        // An integer too large for 64 bits becomes a double, as NSNumber would hold it.
        guard let d = Double(text) else {
            throw CDPredicateError(.invalidLiteral, "invalid number '\(text)'", column: start + 1)
        }
        return .float(d)
    }

    private mutating func readString(quote: Unicode.Scalar) throws(CDPredicateError) -> String {
        let startColumn = index + 1
        index += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw CDPredicateError(.unterminatedString, "unterminated string", column: startColumn)
            }
            index += 1
            if c == quote { return String(out) }
            if c == "%" && peek() == "%" {
                // `%%` means one `%` even inside quotes, so a format string written for Foundation reads the
                // same; every other `%` inside quotes is literal (quoting suppresses substitution).
                index += 1
                out.append("%")
                continue
            }
            guard c == "\\" else {
                out.append(c)
                continue
            }
            try out.append(readEscape(column: index, stringColumn: startColumn))
        }
    }

    private mutating func readEscape(column: Int, stringColumn: Int) throws(CDPredicateError) -> Unicode.Scalar {
        guard let e = peek() else {
            throw CDPredicateError(.unterminatedString, "unterminated string", column: stringColumn)
        }
        index += 1
        switch e {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "a": return "\u{07}"
        case "\\", "\"", "'": return e
        case "x", "u":
            let count = e == "x" ? 2 : 4
            var digits = ""
            for _ in 0..<count {
                guard let d = peek(), d.properties.isASCIIHexDigit else { break }
                digits.unicodeScalars.append(d)
                index += 1
            }
            guard digits.count == count, let v = UInt32(digits, radix: 16), let s = Unicode.Scalar(v) else {
                throw CDPredicateError(.invalidLiteral, "invalid escape '\\\(e)\(digits)'", column: column)
            }
            return s
        case "0"..."7":
            var v = e.value - 48
            for _ in 0..<2 {
                guard let d = peek(), ("0"..."7").contains(d) else { break }
                v = v * 8 + d.value - 48
                index += 1
            }
            return Unicode.Scalar(v) ?? "\u{FFFD}"
        default:
            // An unknown escape keeps its backslash, so regular expressions such as '\d+' survive one level
            // of quoting the way users expect from MATCHES examples.
            index -= 1
            return "\\"
        }
    }

    private mutating func readFormatSpecifier(column: Int) throws(CDPredicateError) -> FormatSpecifier {
        index += 1
        var spelling = "%"
        // Length modifiers are accepted and ignored: arguments arrive typed.
        for modifier in ["hh", "ll", "h", "l", "q", "L", "z", "j", "t"] where matches(modifier) {
            spelling += modifier
            index += modifier.count
            break
        }
        guard let c = peek() else {
            throw CDPredicateError(.unknownFormatSpecifier, "incomplete format specifier '\(spelling)'", column: column)
        }
        index += 1
        spelling.unicodeScalars.append(c)
        let known: Set<Character> = ["@", "K", "d", "D", "i", "u", "U", "o", "O", "x", "X", "f", "F", "e", "E",
                                     "g", "G", "a", "A", "c", "C", "s", "S"]
        let conversion = Character(c)
        if conversion == "%" && spelling == "%%" {
            throw CDPredicateError(.unexpectedToken, "'%%' (a literal '%') is only valid inside a quoted string",
                                 column: column)
        }
        guard known.contains(conversion) else {
            throw CDPredicateError(.unknownFormatSpecifier, "unknown format specifier '\(spelling)'", column: column)
        }
        return FormatSpecifier(conversion: conversion, spelling: spelling)
    }
}
