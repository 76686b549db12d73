#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes read from a file, standard input or memory in bounded chunks, through a buffer that slides: readers look
/// at the unconsumed ``window``, ``consume(_:)`` what they have parsed, and ``fill()`` when they need more.
///
/// The buffer starts at `chunkSize` bytes and only grows when one unconsumed piece (a line, a JSON value, a CSV
/// row) is larger than it, so memory stays flat in the size of the input:
///
/// ```swift
/// let stream = try ByteStream(path: "people.ndjson")
/// var reader = JSONReader(stream)
/// while let (value, line) = try reader.readLineValue() { … }
/// ```
package final class ByteStream {
    /// The chunk size readers use unless told otherwise: 64 KiB.
    package static let defaultChunkSize = 64 * 1024

    /// An input that could not be opened or read.
    package struct ReadError: Error, CustomStringConvertible {
        package var description: String
    }

    private enum Source {
        case descriptor(Int32, closes: Bool)
        case memory([UInt8], offset: Int)
    }

    private var source: Source
    private let name: String
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// Whether the source has no more bytes beyond ``window``.
    package private(set) var isExhausted = false
    /// The offset in the input of the first byte of ``window``: the bytes consumed so far.
    package private(set) var consumed: Int64 = 0
    /// The size of the whole input when it is known (a regular file or memory); nil for pipes and terminals.
    package let totalBytes: Int64?
    /// The largest the buffer has been, in bytes: tests check that reading streams.
    package private(set) var highWaterMark: Int
    /// The largest single value (a record, a line) a reader may need in one piece: 64 MiB. Past it ``fill()``
    /// throws instead of doubling the buffer again, so a runaway input (a file with no line breaks, an unclosed
    /// string) costs at most this much memory.
    package var maximumValueSize = 64 << 20
    private let chunkSize: Int

    /// Reads the open file descriptor `fd`, closing it when done if `closes` is true.
    package init(fileDescriptor fd: Int32, name: String, closes: Bool = false, chunkSize: Int = defaultChunkSize) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        source = .descriptor(fd, closes: closes)
        self.name = name
        self.chunkSize = chunkSize
        var info = stat()
        totalBytes = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
        buffer = .allocate(byteCount: chunkSize, alignment: 16)
        highWaterMark = chunkSize
    }

    /// Opens and reads the file at `path`.
    /// - Throws: ``ReadError`` (`cannot read PATH: No such file or directory`).
    package convenience init(path: String, chunkSize: Int = defaultChunkSize) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReadError(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
        self.init(fileDescriptor: fd, name: path, closes: true, chunkSize: chunkSize)
    }

    /// Reads standard input (not closed when done).
    package static func standardInput(chunkSize: Int = defaultChunkSize) -> ByteStream {
        ByteStream(fileDescriptor: STDIN_FILENO, name: "standard input", chunkSize: chunkSize)
    }

    /// Reads `bytes` as if they came from a file, `chunkSize` at a time (so tests can exercise chunk boundaries).
    package init(bytes: [UInt8], chunkSize: Int = defaultChunkSize) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        source = .memory(bytes, offset: 0)
        name = "memory"
        self.chunkSize = chunkSize
        totalBytes = Int64(bytes.count)
        buffer = .allocate(byteCount: chunkSize, alignment: 16)
        highWaterMark = chunkSize
    }

    /// Reads the UTF-8 bytes of `text`.
    package convenience init(_ text: String, chunkSize: Int = defaultChunkSize) {
        self.init(bytes: Array(text.utf8), chunkSize: chunkSize)
    }

    deinit {
        buffer.deallocate()
        if case .descriptor(let fd, true) = source { close(fd) }
    }

    /// The bytes read but not yet consumed. Valid until the next ``fill()``.
    package var window: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[start..<end].bindMemory(to: UInt8.self)[...])
    }

    /// Marks the first `count` bytes of ``window`` as done with.
    package func consume(_ count: Int) {
        precondition(count >= 0 && count <= end - start, "consuming more than the window")
        start += count
        consumed += Int64(count)
    }

    /// Reads more bytes after ``window``, first moving the window to the front of the buffer and doubling the
    /// buffer if the window fills it. Reads until the buffer is full or the input ends, so that a reader that
    /// re-scans a long value from its start does so a logarithmic number of times.
    /// - Returns: false if the input had no more bytes.
    /// - Throws: ``ReadError`` if reading fails.
    @discardableResult
    package func fill() throws -> Bool {
        if isExhausted { return false }
        let pending = end - start
        if start > 0 {
            if pending > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending) }
            start = 0
            end = pending
        }
        if end == buffer.count {
            guard buffer.count < maximumValueSize + chunkSize else {
                let limit = maximumValueSize >= 1 << 20 ? "\(maximumValueSize >> 20) MiB" : "\(maximumValueSize >> 10) KiB"
                throw ReadError(description: "\(name): a single value (record or line) from byte \(consumed) on is larger than "
                                + "\(limit), the most cdstore reads in one piece")
            }
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = larger
            highWaterMark = max(highWaterMark, buffer.count)
        }
        let before = end
        while end < buffer.count {
            let count = try read(into: buffer.baseAddress! + end, max: buffer.count - end)
            if count == 0 {
                isExhausted = true
                break
            }
            end += count
        }
        return end > before
    }

    private func read(into pointer: UnsafeMutableRawPointer, max: Int) throws -> Int {
        switch source {
        case .memory(let bytes, let offset):
            let count = min(max, bytes.count - offset, chunkSize)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { pointer.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            source = .memory(bytes, offset: offset + count)
            return count
        case .descriptor(let fd, _):
            while true {
                #if canImport(Glibc)
                    let count = Glibc.read(fd, pointer, max)
                #else
                    let count = Darwin.read(fd, pointer, max)
                #endif
                if count >= 0 { return count }
                if errno != EINTR {
                    throw ReadError(description: "cannot read \(name): \(String(cString: strerror(errno)))")
                }
            }
        }
    }
}
