import Foundation

/// Reads the records of a source on a second thread, a bounded number of batches ahead of the insert that consumes
/// them, so that a bulk load costs about max(parse, write) rather than their sum (figures in
/// docs/decisions/0013-bulk-load-speed.md).
///
/// Records, errors and end of input reach the consumer in the order the source gave them, so an insert behaves as
/// it does reading the source itself: a skippable error is handed over in its place and reading goes on after it,
/// any other error ends reading. At most ``capacity`` batches are held, so memory stays flat in the input size.
///
/// Not generic over the source: the consumer's loop of a generic reader was not specialized (the insert is called
/// from another module), and looking up the metadata of its generic types cost 650 instructions per record.
final class ReadAhead: @unchecked Sendable {
    /// A record (as read, or prepared by the ``RecordPreparer``), or the error reading it gave.
    enum Item {
        case record(SourceItem)
        case failure(any Error)
    }

    /// Records read together, and how far the input had been read after them.
    struct Batch {
        var items: [Item] = []
        var position = InputPosition(bytesRead: 0, totalBytes: nil)
    }

    /// Records per batch: enough that the lock is taken rarely, few enough that the writer starts at once.
    static var batchSize: Int { 256 }
    /// Input bytes after which a batch is handed over early (records of nested graphs are large).
    static var batchBytes: Int64 { 256 << 10 }
    /// Batches the reader may be ahead by.
    static var capacity: Int { 4 }

    // Guarded by `condition`.
    private var source: any RecordSource
    /// Converts and checks records on the reading thread; nil reads them only.
    private let preparer: RecordPreparer?
    private var ready: [Batch] = []
    /// Batches the consumer is done with, freed on the reading thread (``recycle(_:)``).
    private var spent: [Batch] = []
    private var readerDone = false
    private var readerExited = false
    private var stopped = false
    private let condition = NSCondition()

    /// Starts reading `source` on a thread of its own; with a `preparer`, the records it can prepare are handed
    /// over prepared.
    init(_ source: some RecordSource, preparer: RecordPreparer? = nil) {
        self.source = source
        self.preparer = preparer
        let work = ThreadWork { [self] in read() }
        let thread = Thread { work.body() }
        // JSON nests up to 512 levels, read recursively: the stack the main thread has.
        thread.stackSize = 8 << 20
        thread.name = "cdstore-read-ahead"
        thread.start()
    }

    /// The next batch, in input order; nil once the input is exhausted (or reading stopped at an error, which is
    /// the last item of the last batch).
    func nextBatch() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !readerDone { condition.wait() }
        guard !ready.isEmpty else { return nil }
        let batch = ready.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Hands a consumed batch back, so that the reading thread frees its records: a nested record is a tree of
    /// arrays and strings, and freeing the Company graph's records took a fifth of the writing thread's work.
    func recycle(_ batch: consuming Batch) {
        condition.lock()
        spent.append(batch)
        // Wakes a reader that is done reading and waits for batches to free (``freeSpentUntilStopped()``).
        if readerDone { condition.broadcast() }
        condition.unlock()
    }

    /// Stops the reader (if it is still reading) and waits for its thread to end; returns the source as the
    /// reader left it.
    func finish() -> any RecordSource {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        ready.removeAll()
        spent.removeAll()
        condition.broadcast()
        while !readerExited { condition.wait() }
        return source
    }

    private func read() {
        var local: any RecordSource
        condition.lock()
        local = source
        condition.unlock()
        var batch = Batch()
        batch.items.reserveCapacity(Self.batchSize)
        var lastHanded = local.position.bytesRead
        var more = true
        while more {
            do {
                if let record = try local.next() {
                    batch.items.append(.record(preparer?.prepare(record) ?? .record(record)))
                } else {
                    more = false
                }
            } catch {
                batch.items.append(.failure(error))
                more = (error as? any SkippableRecordError)?.isSkippable ?? false
            }
            let position = local.position
            guard !more || batch.items.count >= Self.batchSize || position.bytesRead - lastHanded >= Self.batchBytes else { continue }
            lastHanded = position.bytesRead
            batch.position = position
            guard hand(batch) else { break }
            batch = Batch()
            batch.items.reserveCapacity(Self.batchSize)
        }
        condition.lock()
        source = local
        readerDone = true
        condition.broadcast()
        freeSpentUntilStopped()
        readerExited = true
        condition.broadcast()
        condition.unlock()
    }

    /// Once the input is read, frees the batches the consumer hands back until it stops, so that the writing thread
    /// does not free the last ones itself: the reader is ahead, and those were 13 M of the 963 M instructions of
    /// the Company graph's writing thread (22,000 objects). Called and returns with `condition` locked.
    private func freeSpentUntilStopped() {
        while !stopped {
            guard !spent.isEmpty else {
                condition.wait()
                continue
            }
            var freed: [Batch] = []
            swap(&freed, &spent)
            condition.unlock()
            freed.removeAll()
            condition.lock()
        }
    }

    /// Queues `batch`, waiting while ``capacity`` batches are queued; false once the consumer stopped. Frees the
    /// batches handed back meanwhile, outside the lock.
    private func hand(_ batch: Batch) -> Bool {
        var freed: [Batch] = []
        defer { freed.removeAll() }
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.capacity && !stopped { condition.wait() }
        guard !stopped else { return false }
        ready.append(batch)
        swap(&freed, &spent)
        condition.broadcast()
        return true
    }
}

/// What a thread runs, handed to it whole: the closure captures a ``ReadAhead``, whose source the reader thread
/// alone uses until ``ReadAhead/finish()`` (its state is guarded by its condition).
private final class ThreadWork: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// The records a ``ReadAhead`` reads, one at a time, as a ``RecordSource``.
struct ReadAheadRecordSource: RecordSource {
    let reader: ReadAhead
    private var batch = ReadAhead.Batch()
    private var index = 0
    private var lastPosition: InputPosition

    init(_ reader: ReadAhead, position: InputPosition) {
        self.reader = reader
        lastPosition = position
    }

    /// The next record; for a reader without a ``RecordPreparer`` (with one, read ``nextItem()``).
    mutating func next() throws -> InputRecord? {
        switch try nextItem() {
        case .record(let record)?: return record
        case .prepared?, .graph?: preconditionFailure("a prepared record read as a record: read nextItem()")
        case nil: return nil
        }
    }

    /// The next record, as read or prepared.
    mutating func nextItem() throws -> SourceItem? {
        if index == batch.items.count {
            if !batch.items.isEmpty {
                var done = ReadAhead.Batch()
                swap(&done, &batch)
                reader.recycle(done)
            }
            guard let next = reader.nextBatch() else { return nil }
            batch = next
            index = 0
            lastPosition = next.position
            if batch.items.isEmpty { return nil }
        }
        let item = batch.items[index]
        index += 1
        switch item {
        case .record(let record): return record
        case .failure(let error): throw error
        }
    }

    /// How far the reader had read after the batch being consumed.
    var position: InputPosition { lastPosition }
}
