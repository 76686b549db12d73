import CDStoreTestSupport
import Foundation
import Testing

/// Values are kept exactly (docs/decisions/0007-exact-values.md): a table of values per attribute type of the
/// fixture's `Item`, inserted through the binary from JSON, NDJSON and CSV, fetched as JSON, NDJSON and CSV,
/// exported and read back into new stores (`import` of NDJSON and graph exports, `insert` of CSV and JSON
/// exports). The stored bytes are compared with Python's sqlite3 module (text with its length, reals by their
/// bits) and the printed text exactly.
@Suite("Exact values through every format")
struct ExactValuesTests {
    /// One row of the table: `attribute` set to one value, every other attribute NULL.
    struct Case: Sendable {
        var attribute: String
        /// The value as JSON text in JSON and NDJSON input.
        var json: String
        /// The value as a CSV cell.
        var csv: String
        /// The stored column as ``dump(_:)`` prints it: `t:HEX` text, `b:HEX` blob, `r:BITS` real, `i:N` integer;
        /// empty for NULL.
        var stored: String
        /// The value as `fetch --format ndjson` prints it.
        var printed: String
    }

    // MARK: - The table

    /// A string: JSON as cdstore prints it, CSV always quoted, stored as its UTF-8 bytes.
    static func string(_ text: String) -> Case {
        Case(attribute: "str", json: jsonQuoted(text), csv: "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"",
             stored: "t:" + hex(Array(text.utf8)), printed: jsonQuoted(text))
    }

    static func binary(_ bytes: [UInt8]) -> Case {
        let base64 = Data(bytes).base64EncodedString()
        return Case(attribute: "blob", json: "\"\(base64)\"", csv: base64.isEmpty ? "\"\"" : base64,
                    stored: "b:" + hex(bytes), printed: "\"\(base64)\"")
    }

    /// A real number of `attribute` written as `text`, stored as `value`, printed as `printed`. Double and Float
    /// columns (REAL affinity) read back as reals; Decimal and Date columns (NUMERIC affinity) keep whole values as
    /// integers, as SQLite and so Core Data do.
    static func real(_ attribute: String, _ text: String, _ value: Double, printed: String? = nil) -> Case {
        let numeric = attribute == "dec" || attribute == "when"
        let stored = numeric && value == value.rounded() && abs(value) < 9e18 ? "i:\(Int64(value))" : "r:" + bits(value)
        // Infinities are words: JSON strings, printed quoted.
        let json = value.isFinite ? text : "\"\(text)\""
        let shown = printed ?? text
        return Case(attribute: attribute, json: json, csv: text, stored: stored,
                    printed: value.isFinite ? shown : "\"\(shown)\"")
    }

    static func integer(_ attribute: String, _ value: Int64) -> Case {
        Case(attribute: attribute, json: String(value), csv: String(value), stored: "i:\(value)", printed: String(value))
    }

    /// A date written as `text` (ISO 8601, read as UTC), stored as seconds since 2001 (`seconds`), printed `printed`.
    static func date(_ text: String, _ seconds: Double, printed: String? = nil) -> Case {
        var c = real("when", text, seconds)
        c.json = "\"\(text)\""
        c.printed = "\"\(printed ?? text)\""
        return c
    }

    static func uuid(_ text: String) -> Case {
        let u = UUID(uuidString: text)!.uuid
        let bytes = withUnsafeBytes(of: u) { Array($0) }
        return Case(attribute: "uid", json: "\"\(text)\"", csv: text, stored: "b:" + hex(bytes), printed: "\"\(text.uppercased())\"")
    }

    /// A URI written as `text`, stored as Foundation's `absoluteString` of it (`stored`, when that differs).
    static func uri(_ text: String, stored: String? = nil) -> Case {
        let kept = stored ?? text
        return Case(attribute: "link", json: jsonQuoted(text), csv: text, stored: "t:" + hex(Array(kept.utf8)),
                    printed: jsonQuoted(kept))
    }

    /// 1 MiB of text with NUL, multi-byte characters and CSV's special characters all through it.
    static let megabyte: String = {
        let unit = "ab\u{0}é€😀\n,\"\r\n\t"
        var text = ""
        while text.utf8.count < 1 << 20 { text += unit }
        return text
    }()

    static let cases: [Case] = [
        // Text: NUL anywhere, every Unicode plane, combining marks, CSV's and JSON's special characters.
        string("nul\u{0}byte"), string("\u{0}"), string("end\u{0}"), string("\u{0}\u{0}start"),
        string(megabyte),
        string("BMP \u{41}\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FEFF}\u{FFFD}\u{FFFF}"),
        string("SMP \u{10000}😀\u{1F9D1}\u{1FFFF}"), string("SIP \u{20000}\u{2A6D6}\u{2FFFF}"), string("TIP \u{30000}"),
        string("SSP tags \u{E0001}\u{E0066}\u{E0072}\u{E007F}"),
        string("PUA \u{F0000}\u{FFFFD}\u{100000}\u{10FFFD}\u{10FFFF}"),
        string("e\u{301}"), string("\u{301}starts combining"), string("a\u{301}\u{302}\u{303}"), string("👩‍👩‍👧‍👦🇫🇷"),
        string("a,b"), string("\"quoted\""), string("\""), string(","), string("line1\nline2"), string("cr\ronly"),
        string("crlf\r\n"), string("\r\n"), string("\ttab"), string(" lead"), string("trail "), string(" "),
        string("\u{1}\u{8}\u{C}\u{1F}\u{7F}"), string("\u{2028}\u{2029}\u{85}"), string("back\\slash/"),
        string(""), string("null"), string("NULL"),
        // Binary: every byte value, none, bytes that are not UTF-8.
        binary(Array(0...255)), binary([]), binary([0]), binary([0xFF, 0xFE, 0xC0, 0x80]),
        // Double: zeros, subnormals, limits, infinities. SQLite keeps -0.0 in a REAL column as 0 (Core Data too).
        real("dbl", "0", 0), real("dbl", "-0.0", 0, printed: "0"), real("dbl", "5e-324", .leastNonzeroMagnitude),
        real("dbl", "-5e-324", -.leastNonzeroMagnitude), real("dbl", "2.2250738585072014e-308", 2.2250738585072014e-308),
        real("dbl", "2.225073858507201e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),  // the largest subnormal
        real("dbl", "1.7976931348623157e+308", 1.7976931348623157e308),
        real("dbl", "-1.7976931348623157e+308", -1.7976931348623157e308),
        real("dbl", "0.1", 0.1), real("dbl", "0.30000000000000004", 0.30000000000000004),
        real("dbl", "123456789012345.6", 123456789012345.6), real("dbl", "1e+16", 1e16),
        real("dbl", "Infinity", .infinity), real("dbl", "-Infinity", -.infinity),
        // Float: limits, the smallest subnormal, infinities (stored widened to Double, printed as the Float).
        real("flt", "3.4028235e+38", Double(Float.greatestFiniteMagnitude)),
        real("flt", "-3.4028235e+38", -Double(Float.greatestFiniteMagnitude)),
        real("flt", "1.1754944e-38", Double(Float.leastNormalMagnitude)),
        real("flt", "1e-45", Double(Float.leastNonzeroMagnitude)), real("flt", "0.1", Double(Float(0.1))),
        real("flt", "Infinity", .infinity), real("flt", "-Infinity", -.infinity),
        // Integers: the limits of each width.
        integer("i16", -32768), integer("i16", 32767), integer("i32", -2_147_483_648), integer("i32", 2_147_483_647),
        integer("i64", .min), integer("i64", .max), integer("i64", 0),
        // Decimal: a Double's precision, as Core Data stores it (a REAL); 38 digits become the nearest Double.
        real("dec", "12.5", 12.5), real("dec", "-0.001", -0.001), real("dec", "12", 12), real("dec", "1e+300", 1e300),
        real("dec", "1234567890.123456789012345678901234567", 1234567890.123456789012345678901234567,
             printed: "1234567890.1234567"),
        real("dec", "Infinity", .infinity),
        // Dates before 1970 and after 2100, with and without sub-millisecond parts.
        date("1600-01-01T00:00:00.000Z", -12_654_403_200), date("1969-12-31T23:59:59.999Z", -978_307_201 + 0.999),
        date("2100-02-28T12:00:00.123Z", 3_129_192_000 + 0.123), date("9999-12-31T00:00:00.000Z", 252_423_907_200),
        date("2024-05-01T12:30:00.00025Z", 736_259_400 + 0.00025), date("1969-12-31T23:59:59.9999Z", -978_307_201 + 0.9999),
        date("2262-04-11T23:47:16.854775Z", 8_245_064_836 + 0.854775), date("2001-01-01T00:00:00.0001Z", 0.0001),
        // UUIDs and URIs.
        uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), uuid("00000000-0000-0000-0000-000000000000"),
        uuid("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
        uri("https://example.com/a?b=1&c=%20#frag"), uri("file:///tmp/x%00y"), uri("urn:isbn:0451450523"),
        // Foundation percent-encodes what a URI cannot hold on the first write, as an app's URL would; then it is kept.
        uri("https://example.com/a b", stored: "https://example.com/a%20b"),
        // Booleans, and a record of nothing but NULLs.
        Case(attribute: "flag", json: "true", csv: "true", stored: "i:1", printed: "true"),
        Case(attribute: "flag", json: "false", csv: "false", stored: "i:0", printed: "false"),
        Case(attribute: "str", json: "null", csv: "", stored: "", printed: "null"),
    ]

    static let attributes = ["blob", "dbl", "dec", "flag", "flt", "i16", "i32", "i64", "link", "str", "uid", "when"]

    // MARK: - Inputs

    /// One record per case, every attribute given (NULL but for the case's own), so that defaults do not apply.
    static func jsonRecord(_ c: Case) -> String {
        "{" + attributes.map { "\"\($0)\":" + ($0 == c.attribute ? c.json : "null") }.joined(separator: ",") + "}"
    }

    static func input(_ format: String) -> String {
        switch format {
        case "json": "[\n" + cases.map(jsonRecord).joined(separator: ",\n") + "\n]\n"
        case "ndjson": cases.map(jsonRecord).joined(separator: "\n") + "\n"
        default:
            attributes.joined(separator: ",") + "\n"
                + cases.map { c in attributes.map { $0 == c.attribute ? c.csv : "" }.joined(separator: ",") }.joined(separator: "\r\n")
                + "\r\n"
        }
    }

    /// What ``dump(_:)`` prints for a store holding ``cases`` in order.
    static let expectedDump: String = cases.enumerated().map { index, c in
        "\(index + 1)" + (c.stored.isEmpty ? "" : " Z\(c.attribute.uppercased())=\(c.stored)")
    }.joined(separator: "\n") + "\n"

    // MARK: - The round trips

    @Test("insert → fetch → export → import keeps every value", arguments: ["json", "ndjson", "csv"])
    func everyValueThroughEveryFormat(format: String) throws {
        let box = try Sandbox()
        let file = try box.write("in.\(format)", Self.input(format))
        #expect(try box.ok(["insert", "Item", "--file", file]) == "inserted \(Self.cases.count) objects into Item\n")
        try expectDump(box.store, "insert from \(format)")

        // Printed values, in every fetch format; the streamed export prints the same bytes.
        let ndjson = try box.ok(["fetch", "Item", "--format", "ndjson"])
        let lines = ndjson.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, c) in Self.cases.enumerated() where index < lines.count {
            let line = lines[index]
            let found = line.contains("\"\(c.attribute)\":\(c.printed),") || line.contains("\"\(c.attribute)\":\(c.printed)}")
            #expect(found, "case \(index + 1) (\(c.attribute)): expected \(c.printed.prefix(120)) in \(line.prefix(300))")
        }
        let fetched = try ["json", "ndjson", "csv"].map { try box.ok(["fetch", "Item", "--format", $0]) }

        // Read back: import of NDJSON and graph exports, insert of JSON and CSV exports.
        let readBacks: [(export: [String], read: (String) -> [String])] = [
            (["export", "--format", "ndjson"], { ["import", $0] }),
            (["export", "--format", "json"], { ["import", $0] }),
            (["export", "Item", "--format", "json"], { ["insert", "Item", "--file", $0] }),
            (["export", "Item", "--format", "csv"], { ["insert", "Item", "--file", $0] }),
        ]
        for (number, readBack) in readBacks.enumerated() {
            let ext = readBack.export.last == "csv" ? "csv" : readBack.export.last == "ndjson" ? "ndjson" : "json"
            let exported = box.path("export-\(number).\(ext)")
            try box.ok(readBack.export + ["--output", exported])
            let copy = box.path("copy-\(number).sqlite")
            try box.ok(readBack.read(exported), store: copy)
            try expectDump(copy, "\(format) → \(readBack.export.joined(separator: " ")) → \(readBack.read("FILE").joined(separator: " "))")
            for (output, fetchFormat) in zip(fetched, ["json", "ndjson", "csv"]) {
                #expect(try box.ok(["fetch", "Item", "--format", fetchFormat], store: copy) == output,
                        "fetch --format \(fetchFormat) after \(readBack.export.joined(separator: " ")) differs")
            }
        }
    }

    /// The general path (no streaming) prints the same bytes as the streamed export for every value.
    @Test func streamedAndGeneralExportAgree() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "--file", box.write("in.ndjson", Self.input("ndjson"))])
        for format in ["json", "ndjson", "csv"] {
            let arguments = ["export", "Item", "--format", format, "--store", box.store, "--model", box.model]
            let streamed = try CLIRunner.run(arguments)
            let general = try CLIRunner.run(arguments, environment: ["CDSTORE_NO_STREAMING": "1"])
            #expect(streamed.status == 0 && general.status == 0)
            #expect(streamed.stdout == general.stdout, "export --format \(format): streamed and general output differ")
        }
    }

    // MARK: - Refused values

    @Test(arguments: [
        (#"[{"dbl":"NaN"}]"#, "attribute 'dbl': NaN cannot be stored"),
        (#"[{"flt":"NaN"}]"#, "attribute 'flt': NaN cannot be stored"),
        (#"[{"flt":3.5e38}]"#, "attribute 'flt': 3.5e+38 is out of range for Float"),
        (#"[{"i16":32768}]"#, "attribute 'i16': 32768 is out of range for Integer 16"),
        (#"[{"when":"Infinity"}]"#, "attribute 'when': "),
        (#"[{"str":"a\ud800"}]"#, "line 1, column 11: lone high surrogate \\uD800"),
        (#"[{"str":"\udc00b"}]"#, "line 1, column 10: lone low surrogate \\uDC00"),
    ])
    func refusedValuesWriteNothing(json: String, message: String) throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1"])
        let before = storeBytes(box.store)
        let result = try box.run(["insert", "Item", "--json", json])
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(storeBytes(box.store) == before)
    }

    /// A lone surrogate is refused wherever JSON is read: NDJSON lines, graph documents for import.
    @Test func loneSurrogatesAreRefusedWithTheirLine() throws {
        let box = try Sandbox()
        let ndjson = try box.write("in.ndjson", "{\"_entity\":\"Item\",\"str\":\"ok\"}\n{\"str\":\"x\\uD83D\"}\n")
        let insert = try box.run(["insert", "Item", "--file", ndjson])
        #expect(insert.status != 0 && insert.stderr.contains("(line 2): malformed JSON at column 10: lone high surrogate \\uD83D"), "\(insert.stderr)")
        let imported = try box.run(["import", ndjson])
        #expect(imported.status != 0 && imported.stderr.contains("lone high surrogate \\uD83D"), "\(imported.stderr)")
        #expect(try box.ok(["count", "Item"]) == "0\n")
    }

    // MARK: - Helpers

    func expectDump(_ store: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dump = try Self.dump(store)
        if dump != Self.expectedDump {
            let got = dump.split(separator: "\n", omittingEmptySubsequences: false)
            let want = Self.expectedDump.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
            let shown = { (lines: [Substring]) in first < lines.count ? String(lines[first].prefix(200)) : "(none)" }
            Issue.record("\(what): stored values differ at row \(first + 1): got \(shown(got)), expected \(shown(want))",
                         sourceLocation: sourceLocation)
        }
    }

    /// Every non-NULL attribute column of ZITEM per row, read by Python's sqlite3 (text with its length).
    static func dump(_ store: String) throws -> String {
        let result = try ProcessRunner.python("""
            import sqlite3, struct, sys
            con = sqlite3.connect(sys.argv[1])
            con.text_factory = bytes
            cols = sorted(r[1].decode() for r in con.execute("PRAGMA table_info(ZITEM)") if not r[1].startswith(b"Z_"))
            sql = "SELECT Z_PK, " + ", ".join("%s, typeof(%s)" % (c, c) for c in cols) + " FROM ZITEM ORDER BY Z_PK"
            out = []
            for row in con.execute(sql):
                line = [str(row[0])]
                for i, c in enumerate(cols):
                    v, t = row[1 + 2 * i], row[2 + 2 * i]
                    if v is None: continue
                    if isinstance(v, int): s = "i:%d" % v
                    elif isinstance(v, float): s = "r:" + struct.pack(">d", v).hex()
                    else: s = ("t:" if t == b"text" else "b:") + v.hex()
                    line.append("%s=%s" % (c, s))
                out.append(" ".join(line))
            sys.stdout.write("\\n".join(out) + "\\n")
            """, [store])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func bits(_ value: Double) -> String {
        let text = String(value.bitPattern, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// A JSON string literal as cdstore prints it: `\n \r \t \b \f \" \\` and `\u00XX` for other control characters.
    static func jsonQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            // Escaped too, so that readers splitting lines on Unicode separators keep one record a line.
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
