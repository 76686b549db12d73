import CReadlineSupport
import Foundation

/// Ctrl-C in an interactive session: at the prompt it abandons the line being typed; while a command runs it
/// interrupts the command's SQL statement (which fails with "interrupted", its transaction rolled back). It never
/// ends the session. The C signal handler only writes a byte to a pipe; a thread reading that pipe decides, in
/// ordinary code, which of the two Ctrl-C means at that moment.
final class InterruptHandler: @unchecked Sendable {
    /// Readable when Ctrl-C was pressed at the prompt (the line reader waits on it beside the terminal).
    let promptDescriptor: Int32
    private let promptWriteDescriptor: Int32
    private let signalDescriptor: Int32
    private let stores: SessionStores
    private let lock = NSLock()
    /// How many statements are running (a `.read` runs statements inside its own).
    private var depth = 0
    private var interrupted = false

    /// Catches SIGINT from now on; nil when the pipes cannot be made (Ctrl-C then ends the session, as before).
    init?(stores: SessionStores) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return nil }
        let signals = cdstore_catch_interrupts()
        guard signals >= 0 else { return nil }
        promptDescriptor = descriptors[0]
        promptWriteDescriptor = descriptors[1]
        signalDescriptor = signals
        self.stores = stores
        Thread.detachNewThread { [self] in watch() }
    }

    private func watch() {
        var byte: UInt8 = 0
        while true {
            let count = read(signalDescriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            let running = lock.withLock {
                if depth > 0 { interrupted = true }
                return depth > 0
            }
            if running {
                // The terminal echoed "^C" where the command's output stood; its error goes on a line of its own.
                if isatty(STDERR_FILENO) != 0 { FileHandle.standardError.write(Data("\n".utf8)) }
                keepInterrupting()
            } else {
                _ = write(promptWriteDescriptor, &byte, 1)
            }
        }
    }

    /// Interrupts the running command's SQL until the command ends. Once is not enough: Ctrl-C may come while the
    /// command still loads its model or opens the store, before any statement runs to be interrupted.
    private func keepInterrupting() {
        stores.interruptRunningCommand()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { [self] in
            guard lock.withLock({ depth > 0 && interrupted }) else { return }
            keepInterrupting()
        }
    }

    /// Runs `body` (one statement) so that Ctrl-C interrupts it.
    func run(_ body: () -> Void) {
        lock.withLock {
            if depth == 0 { interrupted = false }
            depth += 1
        }
        body()
        lock.withLock { depth -= 1 }
    }

    /// Whether Ctrl-C was pressed since the outermost statement running began (a `.read` stops reading then).
    var wasInterrupted: Bool { lock.withLock { interrupted } }
}
