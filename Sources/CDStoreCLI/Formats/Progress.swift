import Foundation

/// A progress line on standard error, shown only when standard error is a terminal: scripts and pipes never
/// see it. It rewrites itself in place and is erased when the work ends.
final class Progress: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) != 0
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let lock = NSLock()

    init(_ label: String) { self.label = label }

    /// Shows `done` of `total` (at most ten times a second).
    func update(_ done: Int, of total: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        let percent = total > 0 ? done * 100 / total : 100
        FileHandle.standardError.write(Data("\r\(label) \(done)/\(total) (\(percent)%)\u{1B}[K".utf8))
        drawn = true
    }

    /// Erases the line.
    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
