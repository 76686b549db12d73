import Foundation

/// What a store's write-ahead log (`<store>-wal`) holds, read from the file as SQLite's format defines it
/// (sqlite.org/fileformat2.html, "The WAL File Format"): its valid frames, the commit frames among them, and the
/// frames after the last commit, which belong to a transaction that has not committed.
///
/// A frame is valid when its salts equal the header's and its cumulative checksum holds, as SQLite checks when it
/// recovers the log: frames a crash left half written, and frames of an earlier generation of the file, are not
/// counted. Reading is incremental (``advance()`` reads only what was appended since), so that a test can watch the
/// log of a running writer every millisecond.
public final class WriteAheadLog {
    /// The `-wal` file.
    public let path: String
    /// Valid frames.
    public private(set) var frames = 0
    /// Valid commit frames (those that end a transaction).
    public private(set) var commits = 0
    /// Valid frames after the last commit frame: pages of a transaction in progress (or cut off by a crash).
    public private(set) var uncommitted = 0

    private var header: (salt1: UInt32, salt2: UInt32, pageSize: Int, bigEndian: Bool)?
    private var checksum: (UInt32, UInt32) = (0, 0)
    private var offset: UInt64 = 32

    /// The log of the store at `store` (its `-wal`), not read yet.
    public init(store: String) {
        path = store + "-wal"
    }

    /// The log of `store` as it is now.
    public static func read(store: String) -> WriteAheadLog {
        let log = WriteAheadLog(store: store)
        log.advance()
        return log
    }

    /// Reads the frames appended since the last call; starts over when SQLite restarted the log (new salts).
    public func advance() {
        guard let handle = FileHandle(forReadingAtPath: path) else { return reset() }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 32), head.count == 32 else { return reset() }
        let bytes = [UInt8](head)
        let magic = Self.word(bytes, 0, bigEndian: true)
        guard magic & 0xFFFF_FFFE == 0x377F_0682 else { return reset() }
        let bigEndian = magic & 1 == 1
        let salts = (Self.word(bytes, 16, bigEndian: true), Self.word(bytes, 20, bigEndian: true))
        if header == nil || header?.salt1 != salts.0 || header?.salt2 != salts.1 {
            reset()
            let headerSum = Self.checksum(bytes[0..<24], from: (0, 0), bigEndian: bigEndian)
            guard headerSum == (Self.word(bytes, 24, bigEndian: true), Self.word(bytes, 28, bigEndian: true)) else { return }
            header = (salts.0, salts.1, Int(Self.word(bytes, 8, bigEndian: true)), bigEndian)
            checksum = headerSum
        }
        guard let header else { return }
        let frameSize = 24 + header.pageSize
        while true {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: frameSize),
                  data.count == frameSize else { return }
            let frame = [UInt8](data)
            guard Self.word(frame, 8, bigEndian: true) == header.salt1, Self.word(frame, 12, bigEndian: true) == header.salt2
            else { return }
            var sum = Self.checksum(frame[0..<8], from: checksum, bigEndian: header.bigEndian)
            sum = Self.checksum(frame[24...], from: sum, bigEndian: header.bigEndian)
            guard sum == (Self.word(frame, 16, bigEndian: true), Self.word(frame, 20, bigEndian: true)) else { return }
            checksum = sum
            offset += UInt64(frameSize)
            frames += 1
            if Self.word(frame, 4, bigEndian: true) != 0 {
                commits += 1
                uncommitted = 0
            } else {
                uncommitted += 1
            }
        }
    }

    private func reset() {
        header = nil
        checksum = (0, 0)
        offset = 32
        frames = 0
        commits = 0
        uncommitted = 0
    }

    private static func word(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    /// SQLite's WAL checksum over `bytes` (a multiple of 8), continuing from `start`.
    private static func checksum(_ bytes: ArraySlice<UInt8>, from start: (UInt32, UInt32), bigEndian: Bool) -> (UInt32, UInt32) {
        let words = Array(bytes)
        var (s0, s1) = start
        var index = 0
        while index + 8 <= words.count {
            s0 = s0 &+ word(words, index, bigEndian: bigEndian) &+ s1
            s1 = s1 &+ word(words, index + 4, bigEndian: bigEndian) &+ s0
            index += 8
        }
        return (s0, s1)
    }
}

/// The write lock of a WAL store, as another process sees it.
///
/// A connection that writes to a WAL store holds an exclusive lock on byte 120 of the store's `-shm` file (the
/// `WAL_WRITE_LOCK` of SQLite's Unix VFS: the lock area starts at byte 120) from the start of its write
/// transaction until it commits or rolls back. `fcntl(F_GETLK)` reports that lock to any other process without
/// taking or disturbing it.
public enum WALWriteLock {
    /// Whether another process holds the write lock of the WAL store at `store`: it is inside a write transaction.
    public static func isHeld(store: String) -> Bool {
        let fd = open(store + "-shm", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 120
        lock.l_len = 1
        guard fcntl(fd, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }
}

/// A store's rollback journal (`<store>-journal`), as SQLite's format defines it.
public enum RollbackJournal {
    /// The eight bytes every journal header starts with.
    static let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    /// Whether `store` has a journal with a header: a write transaction in rollback-journal mode has begun and not
    /// ended (a journal is deleted when its transaction commits or rolls back), or, once its writer is dead, a hot
    /// journal the next open rolls back.
    public static func isOpen(store: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: store + "-journal") else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)).map { [UInt8]($0) == magic } ?? false
    }
}
