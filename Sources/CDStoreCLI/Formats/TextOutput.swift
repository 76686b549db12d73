import Foundation

/// Buffered text output to standard output or a file. Writing a large export one `print` per row is slow;
/// this writes in 64 KiB blocks.
public final class TextOutput {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let closeWhenDone: Bool

    /// Standard output.
    public static func standardOutput() -> TextOutput { TextOutput(handle: .standardOutput, closeWhenDone: false) }

    /// A new file at `path` (replaced if it exists).
    public static func file(_ path: String) throws -> TextOutput {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CLIError.input("cannot write to \(path)")
        }
        return TextOutput(handle: handle, closeWhenDone: true)
    }

    init(handle: FileHandle, closeWhenDone: Bool) {
        self.handle = handle
        self.closeWhenDone = closeWhenDone
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends `text`.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends `text` and a line break.
    public func line(_ text: String) {
        write(text)
        write("\n")
    }

    /// Writes out what is buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and closes a file.
    public func close() {
        flush()
        if closeWhenDone { try? handle.close() }
    }

    deinit { flush() }
}
