import CDStoreJSON
import Testing

/// The JSON reader on its own: values, numbers, strings, errors with their place, and nesting.
@Suite("JSON reader")
struct JSONReaderTests {
    @Test func valuesKeepTypesAndKeyOrder() throws {
        let value = try JSONReader.parse(#" {"b": [1, -2.5, "x", true, false, null], "a": {}, "c": []} "#)
        #expect(
            value
                == .object([
                    ("b", .array([.integer(1), .double(-2.5), .string("x"), .bool(true), .bool(false), .null])),
                    ("a", .object([])), ("c", .array([])),
                ]))
    }

    @Test func integersAreExactTo64Bits() throws {
        #expect(try JSONReader.parse("9223372036854775807") == .integer(Int64.max))
        #expect(try JSONReader.parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try JSONReader.parse("9007199254740993") == .integer(9_007_199_254_740_993))
        #expect(try JSONReader.parse("-0") == .integer(0))
        // One past either limit is no longer an integer; it becomes the nearest Double.
        #expect(try JSONReader.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONReader.parse("-9223372036854775809") == .double(-9_223_372_036_854_775_808))
        #expect(try JSONReader.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test(arguments: [
        "0.1", "12345.67", "-0.0", "1e22", "1e23", "1.5e-7", "2.2250738585072014e-308", "5e-324",
        "1.7976931348623157e308", "0.30000000000000004", "123456789.123456789", "9007199254740993.0",
        "1E+2", "4.9406564584124654e-324",
    ])
    func doublesAreCorrectlyRounded(text: String) throws {
        #expect(try JSONReader.parse(text) == .double(Double(text)!))
    }

    @Test func randomDoublesRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let short = (Double(Int.random(in: 0..<10_000_000, using: &generator)) / 100)
            for candidate in [value, short, -short] {
                #expect(try JSONReader.parse(candidate.description) == .double(candidate), "\(candidate)")
            }
        }
    }

    @Test func stringsKeepNULAndDecodeEscapes() throws {
        #expect(try JSONReader.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(
            try JSONReader.parse(#""tab\tquote\"slash\/back\\nl\ncr\rbs\bff\f""#)
                == .string("tab\tquote\"slash/back\\nl\ncr\rbs\u{8}ff\u{C}"))
        #expect(try JSONReader.parse(#""\u00e9\u4e2d\ud83d\ude00""#) == .string("é中😀"))
        #expect(try JSONReader.parse("\"é中😀\"") == .string("é中😀"))
    }

    /// A surrogate escape without its partner has no UTF-8 form: refused, with the column of its backslash.
    @Test func loneSurrogatesAreRefusedWithTheirPlace() throws {
        let cases: [(String, Int, String)] = [
            (#""\ud800x""#, 2, "lone high surrogate \\uD800"),
            (#""\udc00""#, 2, "lone low surrogate \\uDC00"),
            (#""ab\ud800\u0041""#, 4, "lone high surrogate \\uD800"),
            (#""\ud800""#, 2, "lone high surrogate \\uD800"),
            ("{\"a\":\n \"x\\uDFFF\"}", 4, "lone low surrogate \\uDFFF"),
        ]
        for (text, column, message) in cases {
            do {
                _ = try JSONReader.parse(text)
                Issue.record("\(text) was accepted")
            } catch let error as JSONSyntaxError {
                #expect(error.column == column, "\(text): \(error)")
                #expect(error.message.hasPrefix(message), "\(text): \(error)")
            }
        }
        // A proper pair is one character.
        #expect(try JSONReader.parse(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
    }

    @Test func invalidUTF8IsAnErrorNotACrash() throws {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]] {
            var reader = JSONReader(ByteStream(bytes: bytes))
            #expect(throws: JSONSyntaxError(message: "invalid UTF-8 in a string", line: 1, column: 1)) {
                try reader.readValue()
            }
        }
    }

    @Test func nestingIsLimitedTo512() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONReader.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONSyntaxError(message: "nested too deeply", line: 1, column: 514)) {
            try JSONReader.parse(tooDeep)
        }
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        let error = #expect(throws: JSONSyntaxError.self) { try JSONReader.parse(objects) }
        #expect(error == JSONSyntaxError(message: "nested too deeply", line: 1, column: 2562))
    }

    @Test(
        arguments: [
            ("", "unexpected end of input", 1, 1),
            ("{\"a\" 1}", "expected ':' after key \"a\"", 1, 6),
            ("[1,\n 2 3]", "expected ',' or ']'", 2, 4),
            ("{\"a\":1,,}", "expected a string key", 1, 8),
            ("{,}", "expected a string key", 1, 2),
            ("{\"a\":1 \"b\":2}", "expected ',' or '}'", 1, 8),
            ("[tru]", "unexpected character 't'", 1, 2),
            ("[,]", "unexpected character ','", 1, 2),
            ("[1,,]", "unexpected character ','", 1, 4),
            ("[1 2,]", "expected ',' or ']'", 1, 4),
            ("\"abc", "unterminated string", 1, 5),
            ("\"a\nb\"", "unterminated string (line break inside)", 1, 3),
            ("\"a\u{1}\"", "control character inside a string", 1, 3),
            ("\"a\\x\"", "invalid escape '\\x'", 1, 3),
            ("\"\\u12G4\"", "invalid \\u escape", 1, 4),
            ("01", "invalid number '01'", 1, 1),
            ("[-]", "invalid number '-'", 1, 2),
            ("1.e5", "invalid number '1.e5'", 1, 1),
            ("\n\n  {} x", "unexpected text after the JSON value", 3, 6),
            ("\u{FEFF}[x]", "unexpected character 'x'", 1, 2),
        ] as [(String, String, Int, Int)])
    func errorsSayWhatAndWhere(input: String, message: String, line: Int, column: Int) throws {
        #expect(throws: JSONSyntaxError(message: message, line: line, column: column)) { try JSONReader.parse(input) }
    }

    /// Apple's JSONSerialization reads one trailing comma in arrays and objects, at any depth; apps ship such files.
    @Test func trailingCommasAreReadAsAppleReadsThem() throws {
        let text = """
            [
              { "teamName": "Algeria", "wins": 0, },
              { "teamName": "Brazil", "scores": [1, 2, ], "coach": { "name": "Tite", }, },
            ]
            """
        #expect(try JSONReader.parse(text) == .array([
            .object([("teamName", .string("Algeria")), ("wins", .integer(0))]),
            .object([("teamName", .string("Brazil")), ("scores", .array([.integer(1), .integer(2)])),
                     ("coach", .object([("name", .string("Tite"))]))]),
        ]))
        // Read in 3-byte chunks, so that a comma and its bracket arrive in different refills.
        var reader = JSONReader(ByteStream(text, chunkSize: 3))
        #expect(try reader.readValue() == (try JSONReader.parse(text)))
    }

    @Test func strictOptionsCatchDuplicateKeysAndNameTrailingCommas() throws {
        let strict = JSONReader.Options.strict
        #expect(throws: JSONSyntaxError(message: "duplicate key 'a'", line: 1, column: 10)) {
            try JSONReader.parse(#"{"a": 1, "a": 2}"#, options: strict)
        }
        #expect(throws: JSONSyntaxError(message: "trailing comma in object", line: 1, column: 9)) {
            try JSONReader.parse(#"{"a": 1,}"#, options: strict)
        }
        #expect(throws: JSONSyntaxError(message: "trailing comma in array", line: 1, column: 5)) {
            try JSONReader.parse("[1, ]", options: strict)
        }
        // Records may repeat a key; the store decides what that means.
        #expect(try JSONReader.parse(#"{"a": 1, "a": 2}"#) == .object([("a", .integer(1)), ("a", .integer(2))]))
    }

    @Test func nodesKnowWhereTheyStartAndKeepNumberText() throws {
        var reader = JSONReader(ByteStream("{\n  \"n\": 1.50,\n  \"list\": [true, \"x\"]\n}"), options: .strict)
        let root = try reader.readNode()
        guard case .object(let members) = root.kind, case .array(let items) = members[1].value.kind else {
            Issue.record("not an object with a list: \(root)")
            return
        }
        #expect((root.line, root.column) == (1, 1))
        guard case .number("1.50") = members[0].value.kind else {
            Issue.record("number text lost")
            return
        }
        #expect((members[0].value.line, members[0].value.column) == (2, 8))
        #expect((items[1].line, items[1].column) == (3, 18))
        #expect(members[0].value.typeDescription == "the number 1.50")
    }
}
