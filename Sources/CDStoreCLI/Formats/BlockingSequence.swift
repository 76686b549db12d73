import Foundation

/// The library's asynchronous sequences (stores found, changes watched) stepped from a synchronous command: a
/// task steps the sequence and hands each element over, a few at a time, to the command's thread.
///
/// ```swift
/// let elements = BlockingSequence(StoreScanner(roots: paths))
/// while let store = elements.next() { print(store.path) }
/// ```
///
/// ``cancel()`` (from a signal handler's queue, say) cancels the task, which ends the library's sequences, and
/// ends ``next()`` at once.
final class BlockingSequence<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer: [Element] = []
    private var finished = false
    private var failure: Error?
    private var task: Task<Void, Never>?
    /// How many elements may wait for the command before the task waits: memory stays bounded.
    private let capacity = 16

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        task = Task.detached { [self] in
            do {
                for try await element in sequence {
                    guard put(element) else { break }
                }
                finish(nil)
            } catch {
                finish(error)
            }
        }
    }

    /// The next element; nil at the end, or after ``cancel()``. Rethrows what the sequence threw.
    func next() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while buffer.isEmpty && !finished { condition.wait() }
        if !buffer.isEmpty {
            condition.broadcast()
            return buffer.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the sequence: its task is cancelled and ``next()`` returns nil.
    func cancel() {
        condition.lock()
        finished = true
        buffer.removeAll()
        condition.broadcast()
        condition.unlock()
        task?.cancel()
    }

    /// Hands `element` over, waiting while the buffer is full; false once the command stopped listening.
    private func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while buffer.count >= capacity && !finished { condition.wait() }
        guard !finished else { return false }
        buffer.append(element)
        condition.broadcast()
        return true
    }

    private func finish(_ error: Error?) {
        condition.lock()
        if !finished { failure = error }
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    deinit {
        task?.cancel()
    }
}
