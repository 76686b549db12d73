import Foundation

/// A thread stack as small as the default of a secondary thread on Darwin (Linux gives every thread 8 MiB, the
/// main thread's `ulimit -s`), for tests that show deep input fails with an error rather than a stack overflow.
public let smallStackSize = 512 << 10

private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}

/// Runs `body` on a new thread with `stackSize` bytes of stack, waits for it, and returns or throws what it did.
public func onThread<T>(stackSize: Int = smallStackSize, _ body: @escaping @Sendable () throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = Result { try body() }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return try box.result!.get()
}
