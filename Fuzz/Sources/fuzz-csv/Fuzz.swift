import Foundation
import CDStoreIO
import FuzzBodies
import FuzzSupport

/// CSV records: `RecordInput.reader(_:format: .csv)` read to the end, as `cdstore insert --skip-invalid` does
/// (a skippable error spoils one record and reading goes on). The input is read twice: with the default
/// chunk size and with 3-byte chunks, so tokens split across buffer refills are exercised. Thrown errors are fine;
/// crashes, hangs and runaway allocations are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzBodies.readRecords(FuzzInput.bytes(data, size), format: .csv)
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
