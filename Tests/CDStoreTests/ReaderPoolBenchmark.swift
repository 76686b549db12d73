import CDStore
import Foundation
import Testing

/// Concurrent reads with and without the reader pool (docs/decisions/0010-library-concurrency.md). Slow and
/// machine-dependent, so it runs only with CDSTORE_BENCH=1.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CDSTORE_BENCH"] == "1"))
struct ReaderPoolBenchmark {
    @Test func concurrentReads() throws {
        for readers in [0, 4] {
            let fixture = try CompanyFixture(configuration: .init(maximumReaderCount: readers))
            try fixture.store.write { ctx in
                for number in 0..<2000 {
                    try ctx.insert("Employee", ["firstName": "F\(number)", "lastName": "L", "employeeNumber": 100 + number,
                                                "salary": Double(number), "department": fixture.sales])
                }
            }
            for threads in [1, 2, 4] {
                let start = Date()
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<(40 / threads) {
                        _ = try? fixture.store.read { ctx in try ctx.fetch("Employee", matching: try Criteria("salary > %@", 500)).count }
                    }
                }
                let seconds = Date().timeIntervalSince(start)
                print("readers \(readers), threads \(threads): 40 fetches of 1,500 objects in \(String(format: "%.2f", seconds)) s")
            }
        }
    }
}
