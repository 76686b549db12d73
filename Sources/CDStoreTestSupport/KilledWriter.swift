import Foundation

/// Runs `cdstore` and kills it with SIGKILL at the moment a condition on its files holds, for crash-safety tests
/// that must prove where the kill landed rather than hope a `sleep` chose well.
///
/// The condition is checked every half millisecond while the process runs (typically: it has held its store's
/// ``WALWriteLock`` or an open ``RollbackJournal`` for a chosen time). The test then checks the files again after
/// the process is dead: what they show then (no commit in the ``WriteAheadLog``, a hot journal) is where the kill
/// landed.
public enum KilledWriter {
    /// How a run ended.
    public struct Outcome: CustomStringConvertible, Sendable {
        /// SIGKILL ended the process after the condition held (false: it exited on its own, or timed out).
        public var killedWhenReady: Bool
        /// Its exit status, or the signal that ended it.
        public var status: Int32
        /// Whether it ran past the time limit without the condition holding (it was killed then).
        public var timedOut: Bool
        /// Seconds from start to end.
        public var seconds: Double

        /// One line for test messages.
        public var description: String {
            if killedWhenReady { return "killed mid-write after \(String(format: "%.3f", seconds)) s" }
            if timedOut { return "the condition never held in \(String(format: "%.1f", seconds)) s; killed" }
            return "the process ended on its own (status \(status)) after \(String(format: "%.3f", seconds)) s, "
                + "before the condition held"
        }
    }

    /// Runs `cdstore arguments…` to its end and measures how long `condition` held, from the first check where it
    /// held to the last: how long a write lasts on this machine, to choose kill moments inside it. Returns that
    /// time (0 when it never held) and the exit status.
    public static func measure(_ arguments: [String], while condition: () -> Bool) throws -> (seconds: Double, status: Int32) {
        let process = try start(arguments)
        var first: Date?, last: Date?
        while process.isRunning {
            if condition() {
                first = first ?? Date()
                last = Date()
            }
            usleep(500)
        }
        process.waitUntilExit()
        return (first.flatMap { first in last.map { $0.timeIntervalSince(first) } } ?? 0, process.terminationStatus)
    }

    /// A condition for ``run(_:timeout:until:)``: true once `condition` has held for `seconds` since it first held,
    /// and holds still.
    public static func after(_ seconds: Double, of condition: @escaping () -> Bool) -> () -> Bool {
        var since: Date?
        return {
            guard condition() else { return false }
            let now = Date()
            let first = since ?? now
            since = first
            return now.timeIntervalSince(first) >= seconds
        }
    }

    /// Starts `cdstore arguments…` (output discarded, `CDSTORE_MODEL`/`CDSTORE_STORE` not inherited), and sends it
    /// SIGKILL as soon as `ready()` returns true; after `timeout` seconds it is killed anyway.
    public static func run(_ arguments: [String], timeout: Double = 120, until ready: () -> Bool) throws -> Outcome {
        let start = Date()
        let process = try Self.start(arguments)
        var sent = false, timedOut = false
        while process.isRunning {
            if ready() {
                sent = kill(process.processIdentifier, SIGKILL) == 0
                break
            }
            if Date().timeIntervalSince(start) > timeout {
                _ = kill(process.processIdentifier, SIGKILL)
                timedOut = true
                break
            }
            usleep(500)
        }
        process.waitUntilExit()
        let bySignal = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        return Outcome(killedWhenReady: sent && bySignal && !timedOut, status: process.terminationStatus,
                       timedOut: timedOut, seconds: Date().timeIntervalSince(start))
    }

    /// Starts `cdstore arguments…` with its output discarded, without `CDSTORE_MODEL`/`CDSTORE_STORE`.
    private static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CDSTORE_MODEL"] = nil
        environment["CDSTORE_STORE"] = nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
