import Foundation
import CDStoreModel
import FuzzSupport

/// Property lists, binary (`bplist00`) and XML, both read by cdstore's own readers: `PropertyListReader.read`, then
/// `KeyedArchive(plist:)` over the result (what the compiled-model decoder does first). Thrown errors are fine;
/// crashes, hangs and runaway allocations are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard let plist = try? PropertyListReader.read(bytes) else { return 0 }
    if let archive = try? KeyedArchive(plist: plist) {
        _ = archive.describe(plist)
    }
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
