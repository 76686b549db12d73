import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreSQLite
import Foundation

/// Read-only connections to a WAL store, lent to one read at a time: reads on different threads run at the same
/// time, each in its own snapshot, and never wait for the writer.
///
/// Connections are opened when every open one is lent out, up to `capacity`; past that a read waits for one to
/// come back. They stay open until the store is released.
final class ReaderPool: @unchecked Sendable {
    private let primary: Store
    private let capacity: Int
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var idle: [Store] = []
    private var opened = 0

    init(primary: Store, capacity: Int) {
        self.primary = primary
        self.capacity = capacity
    }

    /// Runs `body` with a connection of its own, returned to the pool afterwards.
    func withReader<T>(_ body: (Store) throws -> T) throws -> T {
        let reader = try borrow()
        defer { giveBack(reader) }
        return try body(reader)
    }

    private func borrow() throws -> Store {
        condition.lock()
        while idle.isEmpty && opened >= capacity { condition.wait() }
        if let reader = idle.popLast() {
            condition.unlock()
            return reader
        }
        opened += 1
        condition.unlock()
        do {
            return try primary.makeReadOnlyConnection()
        } catch {
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func giveBack(_ reader: Store) {
        condition.lock()
        idle.append(reader)
        condition.signal()
        condition.unlock()
    }
}
