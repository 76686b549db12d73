import Foundation

/// Reads newline-delimited messages from a file handle, bounding each line's length: a longer line is reported
/// by its size and skipped to its end, so that one oversized message costs bounded memory.
struct LineReader {
    enum Item {
        case line(Data)
        case tooLong(Int)
    }

    let handle: FileHandle
    let maximum: Int
    private var buffer = Data()
    private var skipping = 0
    private var ended = false

    init(handle: FileHandle, maximum: Int) {
        self.handle = handle
        self.maximum = maximum
    }

    /// The next line (without its newline), or nil at the end of input.
    mutating func next() -> Item? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                if skipping > 0 {
                    let size = skipping + line.count
                    skipping = 0
                    return .tooLong(size)
                }
                return .line(Data(line))
            }
            if buffer.count > maximum {
                skipping += buffer.count
                buffer.removeAll()
            }
            if ended {
                if skipping > 0 {
                    let size = skipping + buffer.count
                    skipping = 0
                    buffer.removeAll()
                    return .tooLong(size)
                }
                if buffer.isEmpty { return nil }
                defer { buffer.removeAll() }
                return .line(buffer)
            }
            let chunk = handle.availableData
            if chunk.isEmpty { ended = true } else { buffer.append(chunk) }
        }
    }
}
