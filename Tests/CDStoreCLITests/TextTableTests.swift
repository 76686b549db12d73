import CDStoreEngine
import CDStoreTestSupport
import Foundation
import Testing
@testable import CDStoreCLI

/// `--format table`: widths, alignment, cutting to a terminal's width, headers.
@Suite struct TextTableTests {
    static let columns = ["name", "age", "note"]
    static let rows: [[TextTable.Cell]] = [
        [TextTable.Cell(.string("Ann")), TextTable.Cell(.integer(7)), TextTable.Cell(.string("short"))],
        [TextTable.Cell(.string("Bartholomew")), TextTable.Cell(.integer(1234)),
         TextTable.Cell(.string("a note much longer than the others, with details"))],
    ]

    @Test func numbersAlignRightAndTextLeft() {
        let layout = TextTable(columns: Self.columns, rows: Self.rows)
        #expect(layout.lines() == [
            "name          age  note",
            "-----------  ----  ------------------------------------------------",
            "Ann             7  short",
            "Bartholomew  1234  a note much longer than the others, with details",
        ])
    }

    @Test func aNarrowTerminalCutsTheWidestColumnsNeverWrapping() {
        let layout = TextTable(columns: Self.columns, rows: Self.rows, maximumWidth: 40)
        let lines = layout.lines()
        #expect(lines == [
            "name          age  note",
            "-----------  ----  ---------------------",
            "Ann             7  short",
            "Bartholomew  1234  a note much longer t…",
        ])
        #expect(lines.allSatisfy { $0.count <= 40 })
        // Narrower still: the widest column shrinks first, down to four characters each.
        let tiny = TextTable(columns: Self.columns, rows: Self.rows, maximumWidth: 14).lines()
        #expect(tiny == ["name   age  note", "----  ----  ----", "Ann      7  sho…", "Bar…  1234  a n…"])
    }

    @Test func noHeadersLeavesOutHeaderAndRule() {
        let layout = TextTable(columns: Self.columns, rows: Self.rows, headers: false)
        #expect(layout.lines() == [
            "Ann             7  short",
            "Bartholomew  1234  a note much longer than the others, with details",
        ])
    }

    @Test func boldHeadersOnlyWhenAsked() {
        let layout = TextTable(columns: ["a", "b"], rows: [[TextTable.Cell(text: "x"), TextTable.Cell(text: "y")]],
                                 bold: true)
        #expect(layout.lines() == ["\u{1B}[1ma\u{1B}[0m  \u{1B}[1mb\u{1B}[0m", "-  -", "x  y"])
    }

    @Test(arguments: [
        (76000.16666666667, "76000.1666666667"),
        (2.041241452319315, "2.04124145231932"),
        (0.1, "0.1"),
        (1e-300, "1e-300"),
        (3.0, "3"),
        (-0.0, "-0.0"),
        (Double.infinity, "Infinity"),
        (1e20, "1e+20"),
    ])
    func doublesShowAtMostFifteenSignificantDigits(value: Double, shown: String) {
        #expect(TextTable.Cell(.double(value)) == TextTable.Cell(text: shown, isNumber: true))
    }

    @Test func noHeadersInCSVAndTableOutput() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1", "str=a"])
        try box.ok(["insert", "Item", "i16=2", "str=b"])
        #expect(try box.ok(["fetch", "Item", "--format", "csv", "--no-headers", "--no-relationships", "--sort", "i16"])
                .split(separator: "\n").map { $0.hasPrefix("x-coredata://<store-uuid>/Item/p") } == [true, true])
        #expect(try box.ok(["project", "Item", "--properties", "i16,str", "--sort", "i16", "--format", "csv", "--no-headers"])
                == "1,a\n2,b\n")
        #expect(try box.ok(["project", "Item", "--properties", "i16,str", "--sort", "i16", "--format", "table", "--no-headers"])
                == "1  a\n2  b\n")
    }

    @Test func pipedOutputDefaultsToNDJSON() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1", "str=a"])
        expectNDJSON(try box.ok(["project", "Item", "--properties", "i16,str"]), [#"{"i16":1,"str":"a"}"#])
    }
}

/// `--format line` and the REPL's `.mode`: records expanded, one `key  value` line each, whole values.
@Suite struct LineLayoutTests {
    @Test func keysPadToTheLongestAndValuesStayWhole() {
        let layout = LineLayout(columns: ["_id", "firstName", "note"])
        let long = String(repeating: "x", count: 300)
        #expect(layout.lines([("_id", "Employee/p1"), ("firstName", "Ann"), ("note", long)]) == [
            "_id        Employee/p1",
            "firstName  Ann",
            "note       " + long,
        ])
    }

    @Test func emptyValuesLeaveTheKeyAloneAndLineBreaksIndent() {
        let layout = LineLayout(columns: ["a", "bb"])
        #expect(layout.lines([("a", ""), ("bb", "one\ntwo\n\nfour")]) == [
            "a",
            "bb  one",
            "    two",
            "    ",
            "    four",
        ])
    }

    @Test func numbersAreExactNotRoundedAsInATable() {
        let texts = LineLayout.texts(of: [("x", .double(76000.16666666667)), ("n", .null), ("i", .integer(3))])
        #expect(texts.map(\.1) == ["76000.16666666667", "", "3"])
        #expect(TextTable.Cell(.double(76000.16666666667)).text == "76000.1666666667")
    }

    /// `auto` expands a table that would not fit: measured at the columns' natural widths, before any cutting.
    @Test func aTableFitsOnlyWhenNothingWouldBeCut() {
        let rows = [[TextTable.Cell(text: "Ann"), TextTable.Cell(text: "1234", isNumber: true)]]
        #expect(TextTable(columns: ["name", "n"], rows: rows, maximumWidth: 10).fits)
        #expect(!TextTable(columns: ["name", "n"], rows: rows, maximumWidth: 9).fits)
        #expect(TextTable(columns: ["name", "n"], rows: rows, maximumWidth: nil).fits)
    }

    @Test func lineFormatSeparatesRecordsWithABlankLine() throws {
        let box = try Sandbox()
        try box.ok(["insert", "Item", "i16=1", "str=a"])
        try box.ok(["insert", "Item", "i16=2", "str=b"])
        #expect(try box.ok(["project", "Item", "--properties", "i16,str", "--sort", "i16", "--format", "line"])
                == "i16  1\nstr  a\n\ni16  2\nstr  b\n")
    }
}
