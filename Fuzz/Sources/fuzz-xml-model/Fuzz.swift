import CDStoreModel
import Foundation
import FuzzBodies
import FuzzSupport

/// The `contents` XML of an `.xcdatamodel`: `XcodeModelReader.read`, then what `cdstore model` does with a loaded model: validate it and compute its version hashes.
/// Thrown errors are fine; crashes, hangs and runaway allocations are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = Data(FuzzInput.bytes(bytes, size))
    guard let loaded = try? XcodeModelReader.read(data, file: URL(fileURLWithPath: "/fuzz/Model.xcdatamodel/contents")) else { return 0 }
    FuzzBodies.useModel(loaded)
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
