import Foundation
import CDStoreCLI
import CDStoreJSON
import FuzzSupport

/// CSV records: `RecordInput.reader(_:format: .csv)` read to the end, as `cdstore insert --skip-invalid` does
/// (a skippable error spoils one record and reading goes on). The input is read twice: with the default
/// chunk size and with 3-byte chunks, so tokens split across buffer refills are exercised. Thrown errors are fine;
/// crashes, hangs and runaway allocations are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    for chunkSize in [ByteStream.defaultChunkSize, 3] {
        var reader = RecordInput.reader(ByteStream(bytes: bytes, chunkSize: chunkSize), format: .csv)
        // Every record, and every skipped one, consumes at least one byte: more of them than bytes is a loop.
        var finished = false
        for _ in 0...bytes.count + 1 where !finished {
            do {
                finished = try reader.next() == nil
            } catch let error as RecordInput.InputError where error.isSkippable {
                continue
            } catch {
                finished = true
            }
        }
        precondition(finished, "the reader gives more records than the input has bytes")
    }
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
