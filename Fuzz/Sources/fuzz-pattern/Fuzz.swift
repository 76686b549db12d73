import CDStoreFuzzing
import Foundation
import FuzzSupport

/// `FuzzTargets.pattern` (Sources/CDStoreFuzzing) on each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTargets.pattern(FuzzInput.bytes(data, size))
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
