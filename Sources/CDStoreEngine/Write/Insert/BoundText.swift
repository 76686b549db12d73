import Foundation
internal import GRDB
internal import GRDBSQLite

/// The text of new rows, copied where the INSERTs of a load can bind it without SQLite copying it again.
///
/// `SQLITE_TRANSIENT` makes SQLite allocate and copy every bound string, and free the copy when the parameter is
/// bound again, a cost paid per string of every row (figures in ADR 0013). Here the
/// bytes go into chunks this insert owns, bound `SQLITE_STATIC`, and the chunks are reused once the statement ran.
///
/// Safe because of how new rows are written (``GraphInserter/bindNewRow(_:_:plan:to:base:)``): every parameter of
/// those INSERTs is bound again before each step, and SQLite reads bound text only while stepping. So after a
/// statement ran, nothing will read the text bound to it, and ``reuse()`` may hand its bytes out again.
final class BoundText {
    /// Bytes per chunk; a longer string gets an allocation of its own.
    static let chunkBytes = 64 << 10

    private var chunk: UnsafeMutableRawPointer
    private var used = 0
    /// Chunks filled since ``reuse()``, and strings longer than a chunk: freed by ``reuse()``.
    private var retired: [UnsafeMutableRawPointer] = []

    init() {
        chunk = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 8)
    }

    deinit {
        chunk.deallocate()
        for block in retired { block.deallocate() }
    }

    /// Binds `text` to the 1-based parameter `index` of `statement` with its UTF-8 byte length (a NUL inside is
    /// kept), from a copy that stays until ``reuse()``.
    func bind(_ text: String, to statement: SQLiteStatement, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            let copy = self.copy(bytes)
            sqlite3_bind_text64(statement, index, copy.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                                nil, UInt8(SQLITE_UTF8))
        }
    }

    /// Makes the copies handed out so far free for reuse: call once the statements bound to them have run.
    func reuse() {
        used = 0
        for block in retired { block.deallocate() }
        retired.removeAll(keepingCapacity: true)
    }

    private func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeRawPointer {
        let count = bytes.count
        if count > Self.chunkBytes {
            let block = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 8)
            if let base = bytes.baseAddress { block.copyMemory(from: base, byteCount: count) }
            retired.append(block)
            return UnsafeRawPointer(block)
        }
        if used + count > Self.chunkBytes {
            retired.append(chunk)
            chunk = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 8)
            used = 0
        }
        let start = chunk + used
        if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: count) }
        used += count
        return UnsafeRawPointer(start)
    }
}
