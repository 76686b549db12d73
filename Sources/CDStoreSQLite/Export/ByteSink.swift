/// Where streamed output goes: a file, standard output, memory. The record encoder hands over its buffer in
/// large blocks, so a sink needs no buffering of its own for throughput.
public protocol ByteSink: AnyObject {
    /// Writes `bytes` (valid only during the call).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that keeps everything in memory (tests, small documents).
public final class MemorySink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    /// The bytes as text (invalid UTF-8 repaired).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A growable byte buffer that flushes itself into a ``ByteSink`` in blocks of about 64 KiB.
///
/// Appending is the hot path of every export, so the primitives here write bytes directly instead of going
/// through `String` and its UTF-8 view.
struct ByteBuffer {
    var bytes: [UInt8] = []
    let sink: ByteSink
    static let blockSize = 1 << 16

    init(sink: ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(Self.blockSize + 4096)
    }

    /// Hands full blocks to the sink; call between records so memory stays flat.
    @inline(__always)
    mutating func flushIfFull() throws {
        if bytes.count >= Self.blockSize { try flush() }
    }

    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func append(_ slice: ArraySlice<UInt8>) { bytes.append(contentsOf: slice) }

    /// Empties the buffer without writing it (for buffers used as scratch space).
    mutating func discard() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(_ pointer: UnsafePointer<UInt8>, count: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
    }

    /// The decimal digits of `value`, without an intermediate `String`.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    mutating func appendDigits(_ value: UInt64) {
        if value < 10 { bytes.append(0x30 + UInt8(value)); return }
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &scratch) { raw in
            var n = value, i = raw.count
            while n > 0 {
                i -= 1
                raw[i] = 0x30 + UInt8(n % 10)
                n /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[i...]))
        }
    }

    /// `value` zero-padded to `width` digits (non-negative values below 10^width).
    mutating func appendPadded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var n = value
        while divisor > 0 {
            bytes.append(0x30 + UInt8(n / divisor % 10))
            n %= divisor
            divisor /= 10
        }
    }
}
