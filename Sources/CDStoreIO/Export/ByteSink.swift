import CDStoreEngine
import CDStoreJSON
/// Where streamed output goes: a file, standard output, memory. The record encoder hands over its buffer in
/// large blocks, so a sink needs no buffering of its own for throughput.
package protocol ByteSink: AnyObject {
    /// Writes `bytes` (valid only during the call).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that keeps everything in memory (tests, small documents).
package final class MemorySink: ByteSink {
    /// Everything written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty sink.
    package init() {}

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    /// The bytes as text (invalid UTF-8 repaired).
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// A growable byte buffer that flushes itself into a ``ByteSink`` in blocks of about 64 KiB.
///
/// Appending is the hot path of every export: the primitives here store bytes through a raw pointer after one
/// capacity check, instead of going through `String` or `Array.append` (a uniqueness check per byte).
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    let sink: ByteSink
    static let blockSize = 1 << 16

    init(sink: ByteSink) {
        self.sink = sink
        capacity = Self.blockSize + 4096
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Hands full blocks to the sink; call between records so memory stays flat.
    @inline(__always)
    func flushIfFull() throws {
        if count >= Self.blockSize { try flush() }
    }

    func flush() throws {
        guard count > 0 else { return }
        try sink.write(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    /// Empties the buffer without writing it (for buffers used as scratch space).
    func discard() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private func grow(_ needed: Int) {
        let larger = max(capacity * 2, needed)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

    func append(_ other: [UInt8]) { other.withUnsafeBytes { append($0) } }

    func append(_ slice: ArraySlice<UInt8>) { slice.withUnsafeBytes { append($0) } }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Bytes `range` of another buffer.
    func append(_ other: ByteBuffer, _ range: Range<Int>) {
        append(UnsafeRawBufferPointer(start: other.base + range.lowerBound, count: range.count))
    }

    /// The decimal digits of `value`, without an intermediate `String`.
    func appendInteger(_ value: Int64) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    func appendDigits(_ value: UInt64) {
        reserve(20)
        if value < 10 {
            base[count] = 0x30 + UInt8(value)
            count += 1
            return
        }
        var length = 0
        var n = value
        while n > 0 { length += 1; n /= 10 }
        n = value
        var i = count + length
        while n > 0 {
            i -= 1
            base[i] = 0x30 + UInt8(n % 10)
            n /= 10
        }
        count += length
    }

    /// `value` (0 ≤ value < 10^width, width 2…4) as exactly `width` digits.
    @inline(__always)
    func appendPadded(_ value: Int, width: Int) {
        reserve(width)
        let v = UInt32(truncatingIfNeeded: value)
        if width == 4 {
            base[count] = 0x30 + UInt8(v / 1000 % 10)
            count += 1
        }
        if width >= 3 {
            base[count] = 0x30 + UInt8(v / 100 % 10)
            count += 1
        }
        base[count] = 0x30 + UInt8(v / 10 % 10)
        base[count + 1] = 0x30 + UInt8(v % 10)
        count += 2
    }
}
