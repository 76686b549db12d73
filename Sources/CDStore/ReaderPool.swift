import CDStoreIO
import CDStorePredicate
import CDStoreModel
import CDStoreJSON
import CDStoreEngine
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
    private var lentOut: [Store] = []
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
            lentOut.append(reader)
            condition.unlock()
            return reader
        }
        opened += 1
        condition.unlock()
        do {
            let reader = try primary.makeReadOnlyConnection()
            condition.lock()
            lentOut.append(reader)
            condition.unlock()
            return reader
        } catch {
            condition.lock()
            opened -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    /// Interrupts the statement running on every connection the pool has lent out.
    func interruptLentReaders() {
        condition.lock()
        let lent = lentOut
        condition.unlock()
        for reader in lent { reader.interrupt() }
    }

    private func giveBack(_ reader: Store) {
        condition.lock()
        lentOut.removeAll { $0 === reader }
        idle.append(reader)
        condition.signal()
        condition.unlock()
    }
}
