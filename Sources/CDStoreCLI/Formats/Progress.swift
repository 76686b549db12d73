import CDStore
import Foundation

/// A progress line on standard error, shown only when standard error is a terminal (and not `--quiet`): scripts
/// and pipes never see it. It rewrites itself in place at most ten times a second and is erased when the work
/// ends: records done, records per second, and — when the input's size is known — percent and time left.
final class Progress: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    /// Whether the line is shown at all (standard error is a terminal, and not `--quiet`).
    var isEnabled: Bool { enabled }
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let lock = NSLock()

    init(_ label: String, quiet: Bool = false) {
        self.label = label
        enabled = !quiet && isatty(STDERR_FILENO) != 0
    }

    /// Shows how far an insert has got.
    func update(_ progress: InsertProgress) {
        update(done: progress.records, unit: "records", fraction: progress.fractionRead, finished: progress.isFinished)
    }

    /// Shows `done` of `total` items.
    func update(_ done: Int, of total: Int) {
        update(done: done, unit: "objects", fraction: total > 0 ? Double(done) / Double(total) : 1, finished: done == total)
    }

    private func update(done: Int, unit: String, fraction: Double?, finished: Bool) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || finished else { return }
        lastDraw = now
        FileHandle.standardError.write(Data(("\r" + Self.line(label: label, done: done, unit: unit, fraction: fraction,
                                                              elapsed: now.timeIntervalSince(start)) + "\u{1B}[K").utf8))
        drawn = true
    }

    /// `inserting 120000 records, 48000/s, 40%, 4 s left`.
    static func line(label: String, done: Int, unit: String, fraction: Double?, elapsed: TimeInterval) -> String {
        var text = "\(label) \(done) \(unit)"
        if elapsed > 0.05 { text += ", \(Int(Double(done) / elapsed))/s" }
        if let fraction {
            let clamped = min(max(fraction, 0), 1)
            text += ", \(Int(clamped * 100))%"
            if clamped > 0.01 && clamped < 1 {
                text += ", \(Int((elapsed / clamped - elapsed).rounded(.up))) s left"
            }
        }
        return text
    }

    /// Erases the line.
    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
