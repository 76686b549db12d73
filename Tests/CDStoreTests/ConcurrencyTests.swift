import CDStore
import Foundation
import Testing

/// Readers on several threads and a writer on another, in one process, on one `CDStore`.
@Suite struct ConcurrencyTests {
    /// Runs `body(index)` on `count` threads at once and returns the errors they threw.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let errors = Errors()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do { try body(index) } catch { errors.add("\(index): \(error)") }
        }
        return errors.all
    }

    @Test(arguments: [4, 0])
    func readersAndAWriterLoseNothing(readers: Int) throws {
        let fixture = try CompanyFixture(configuration: .init(maximumReaderCount: readers))
        let store = fixture.store
        #expect(store.usesReaderPool == (readers > 0))
        let inserts = 60
        let errors = onThreads(5) { thread in
            if thread == 0 {
                for number in 0..<inserts {
                    try store.write { ctx in
                        try ctx.insert("Employee", ["firstName": "W\(number)", "lastName": "Writer", "employeeNumber": 100 + number,
                                                    "department": fixture.sales])
                    }
                }
                return
            }
            var last = 0
            for _ in 0..<40 {
                let (count, fetched, sales) = try store.read { ctx in
                    (try ctx.count("Employee"), try ctx.fetch("Employee").count,
                     try ctx.object(fixture.sales)?.relatedMany("employees").count ?? -1)
                }
                // One snapshot per read: every call in it sees the same objects.
                guard count == fetched, sales == count - 3 else { throw Mismatch(text: "\(count) \(fetched) \(sales)") }
                // Snapshots only move forward.
                guard count >= last else { throw Mismatch(text: "count went back from \(last) to \(count)") }
                last = count
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        let numbers = try store.read { ctx in
            try ctx.fetch("Employee", matching: try Criteria("lastName == 'Writer'").sorted(by: ["employeeNumber"])).compactMap { $0.int("employeeNumber") }
        }
        #expect(numbers == Array(100..<(100 + inserts)))
    }

    @Test func readsDoNotWaitForAWriteInProgress() throws {
        let fixture = try CompanyFixture()
        let store = fixture.store
        let writing = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let seen = Errors()
        let errors = onThreads(2) { thread in
            if thread == 0 {
                try store.write { ctx in
                    try ctx.insert("Employee", ["firstName": "Late", "lastName": "Writer", "employeeNumber": 99])
                    writing.signal()
                    // The read on the other thread finishes while this transaction is still open. A read that
                    // waited for the write would wait for ever, so the timeout only decides how long a failure
                    // takes; 20 s was too short for a full parallel test run on a starved 2-core machine.
                    if readDone.wait(timeout: .now() + 90) == .timedOut { throw Mismatch(text: "the read waited for the write") }
                }
            } else {
                writing.wait()
                let count = try store.read { try $0.count("Employee") }
                seen.add("\(count)")
                readDone.signal()
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        // The read saw the store as it was before the write committed.
        #expect(seen.all == ["4"])
    }

    @Test func twoWritersTakeTurns() throws {
        let fixture = try CompanyFixture()
        let store = fixture.store
        let errors = onThreads(3) { thread in
            for number in 0..<20 {
                try store.write { ctx in
                    let key = 1000 + thread * 100 + number
                    try ctx.insert("Employee", ["firstName": "T\(thread)", "lastName": "N\(number)", "employeeNumber": key])
                    // Read-your-writes inside the transaction, while the other writers wait.
                    guard try ctx.count("Employee", matching: try Criteria("employeeNumber == %@", key)) == 1 else { throw Mismatch(text: "lost \(key)") }
                }
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(try store.read { try $0.count("Employee") } == 4 + 60)
    }
}

struct Mismatch: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

/// Errors gathered from several threads.
final class Errors: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
