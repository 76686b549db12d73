import CDStore
import Foundation

/// Aligned columns with a header and a rule, like sqlite-utils' default table, for reading at a terminal.
///
/// Rows are collected and laid out at the end (``TextTable``): numbers align right, doubles show at most 15
/// significant digits, line breaks and tabs inside values are shown escaped so that each record stays on one
/// line, and on a terminal the table fits its width (long cells cut with `…`) and the header is bold unless
/// `NO_COLOR` is set.
///
/// In the REPL a table may instead print its records expanded (``LineWriter``), as `.mode` says
/// (``Expansion``): always, or when the table would not fit the terminal.
final class TableWriter: RecordWriter {
    /// When a table prints its records expanded, one `key  value` line each, instead.
    enum Expansion: String, CaseIterable {
        /// Always a table (the command line's `--format table`).
        case table
        /// Always expanded (`--format line`).
        case line
        /// Expanded when the table, its columns at their natural widths, would be wider than the terminal
        /// (psql's `\x auto`).
        case auto
    }

    /// The expansion of tables printed now: the REPL sets it from `.mode` around each command; the command line
    /// leaves it at ``Expansion/table``. Commands run one at a time on the REPL's thread.
    nonisolated(unsafe) static var expansion = Expansion.table

    private let output: TextOutput
    private let columns: [String]
    private let headers: Bool
    private var rows: [[TextTable.Cell]] = []
    /// The records as given, kept only while they may yet be printed expanded.
    private var records: [[(String, ObjectValue)]] = []
    private let expansion = TableWriter.expansion

    init(columns: [String], output: TextOutput, headers: Bool = true) {
        self.columns = columns
        self.output = output
        self.headers = headers
    }

    func write(_ record: [(String, ObjectValue)]) {
        var byKey: [String: ObjectValue] = [:]
        for (key, value) in record { byKey[key] = value }
        rows.append(columns.map { column in byKey[column].map(TextTable.Cell.init) ?? TextTable.Cell(text: "") })
        if expansion != .table { records.append(record) }
    }

    func finish() {
        let width = output.isTerminal ? output.terminalWidth : nil
        let layout = TextTable(columns: columns, rows: rows, headers: headers, maximumWidth: width,
                               bold: output.isTerminal && TextTable.coloursAllowed)
        if expansion == .line || (expansion == .auto && !layout.fits) {
            let expanded = LineLayout(columns: columns)
            for (index, record) in records.enumerated() {
                if index > 0 { output.line("") }
                for line in expanded.lines(LineLayout.texts(of: record)) { output.line(line) }
            }
        } else {
            for line in layout.lines() { output.line(line) }
        }
        output.flush()
    }
}

/// How a table is laid out: column widths, alignment, cutting to a width. A value type, so tests can lay out any
/// table at any width.
struct TextTable {
    /// One cell: its text as shown, and whether it is a number (aligned right).
    struct Cell: Equatable {
        var text: String
        var isNumber = false

        init(text: String, isNumber: Bool = false) {
            self.text = text
            self.isNumber = isNumber
        }

        init(_ value: ObjectValue) {
            switch value {
            case .integer(let i): self.init(text: String(i), isNumber: true)
            case .double(let d), .decimal(let d): self.init(text: Self.number(d), isNumber: true)
            case .float(let f): self.init(text: ObjectValue.float(f).plainText, isNumber: true)
            default:
                self.init(text: value.plainText.replacingOccurrences(of: "\r", with: "\\r")
                    .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t"))
            }
        }

        /// At most 15 significant digits: `76000.1666666667`, not the exact `76000.16666666667`, which only
        /// shows the binary rounding. Exact forms are for json, ndjson and csv.
        static func number(_ value: Double) -> String {
            guard value.isFinite, value != value.rounded() || abs(value) >= 1e15 else { return ObjectValue.double(value).plainText }
            return String(format: "%.15g", value)
        }
    }

    var columns: [String]
    var rows: [[Cell]]
    var headers = true
    /// The width to fit (a terminal's), or nil for no limit.
    var maximumWidth: Int?
    /// Whether to make the header bold with ANSI escapes.
    var bold = false

    /// `NO_COLOR` (no-color.org): any non-empty value turns colour off.
    static var coloursAllowed: Bool {
        (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Cells narrower than this are never cut further, so that a very narrow terminal still shows something.
    static let narrowestColumn = 4
    static let gap = "  "

    /// Whether the table fits ``maximumWidth`` with every column as wide as its widest cell (nothing cut).
    var fits: Bool {
        guard let maximumWidth else { return true }
        var natural = columns.map { headers ? $0.count : 0 }
        for row in rows {
            for (i, cell) in row.enumerated() { natural[i] = max(natural[i], cell.text.count) }
        }
        return natural.reduce(0, +) + Self.gap.count * max(0, natural.count - 1) <= maximumWidth
    }

    /// The widths of the columns: each as wide as its widest cell, then the widest columns narrowed one
    /// character at a time until the table fits ``maximumWidth`` (or every column is at ``narrowestColumn``).
    func widths() -> [Int] {
        var widths = columns.map { headers ? $0.count : 0 }
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.text.count) }
        }
        guard let maximumWidth, !widths.isEmpty else { return widths }
        var total = widths.reduce(0, +) + Self.gap.count * (widths.count - 1)
        while total > maximumWidth {
            guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
                  widths[widest] > Self.narrowestColumn else { break }
            widths[widest] -= 1
            total -= 1
        }
        return widths
    }

    /// The table's lines: header, rule, rows (without the first two when ``headers`` is false).
    func lines() -> [String] {
        let widths = widths()
        func render(_ cells: [Cell], bold: Bool = false) -> String {
            var line = ""
            for (i, cell) in cells.enumerated() {
                if i > 0 { line += Self.gap }
                let text = Self.cut(cell.text, to: widths[i])
                let padding = String(repeating: " ", count: widths[i] - text.count)
                let shown = bold ? "\u{1B}[1m" + text + "\u{1B}[0m" : text
                if cell.isNumber {
                    line += padding + shown
                } else {
                    line += i == cells.count - 1 ? shown : shown + padding
                }
            }
            // Empty cells at the end of a row would leave trailing blanks.
            while line.last == " " { line.removeLast() }
            return line
        }
        // A column of numbers (and empty cells) has its header aligned right too, over the digits.
        let numeric = columns.indices.map { i in
            rows.contains { $0[i].isNumber } && rows.allSatisfy { $0[i].isNumber || $0[i].text.isEmpty }
        }
        var lines: [String] = []
        if headers {
            lines.append(render(columns.enumerated().map { Cell(text: $1, isNumber: numeric[$0]) }, bold: bold))
            lines.append(render(widths.map { Cell(text: String(repeating: "-", count: $0)) }))
        }
        for row in rows { lines.append(render(row)) }
        return lines
    }

    /// `text` cut to `width` characters, its last one `…` when anything was cut.
    static func cut(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }
}
