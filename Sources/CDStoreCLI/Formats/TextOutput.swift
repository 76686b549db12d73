import CDStore
import Foundation

/// Buffered output to standard output or a file. Writing a large export one `print` per row is slow; this
/// writes in 64 KiB blocks with `write(2)`, straight from its byte buffer. It is also the ``ByteSink`` the
/// store's record streamer writes into.
///
/// Before writing to standard output, C's `stdout` (where `print` goes) is flushed, so text that commands
/// `print` and text written here come out in the order they were written.
public final class TextOutput {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let closeWhenDone: Bool
    private var closed = false
    private static let blockSize = 1 << 16

    /// Standard output.
    public static func standardOutput() -> TextOutput { TextOutput(descriptor: STDOUT_FILENO, closeWhenDone: false) }

    /// A new file at `path` (replaced if it exists).
    public static func file(_ path: String) throws -> TextOutput {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CLIError.input("cannot write to \(path)")
        }
        return TextOutput(descriptor: descriptor, closeWhenDone: true)
    }

    init(descriptor: Int32, closeWhenDone: Bool) {
        self.descriptor = descriptor
        self.closeWhenDone = closeWhenDone
        buffer.reserveCapacity(Self.blockSize)
    }

    /// Whether the output is a terminal (a person reads it).
    public var isTerminal: Bool { isatty(descriptor) != 0 }

    /// The terminal's width in columns (`COLUMNS` when set, else the terminal's own), or nil when unknown.
    public var terminalWidth: Int? {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Appends `text`.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.blockSize { flush() }
    }

    /// Appends `text` and a line break.
    public func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.blockSize { flush() }
    }

    /// Appends `bytes`; large blocks (the record streamer's) skip the buffer.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        if bytes.count < Self.blockSize / 4 {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.blockSize { flush() }
            return
        }
        flush()
        try put(bytes)
    }

    /// Writes out what is buffered.
    public func flush() {
        guard !closed else { return }
        if !buffer.isEmpty {
            // A failed write (a closed pipe) has nowhere to be reported from here; the exit status comes from
            // SIGPIPE or from the next throwing write.
            try? buffer.withUnsafeBytes { try put($0) }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private func put(_ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress, !bytes.isEmpty else { return }
        if !closeWhenDone { fflush(nil) }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Foundation.write(descriptor, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw CLIError.input("cannot write output: \(String(cString: strerror(errno)))")
            }
            base += written
            remaining -= written
        }
    }

    /// Flushes, and closes a file.
    public func close() {
        flush()
        if closeWhenDone && !closed {
            Foundation.close(descriptor)
            closed = true
        }
    }

    deinit { close() }
}
