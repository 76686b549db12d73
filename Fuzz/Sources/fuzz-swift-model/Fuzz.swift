import CDStoreModel
import Foundation
import FuzzBodies
import FuzzSupport

/// SwiftData `@Model` sources: `SwiftModelReader.read` (swift-syntax's parser, then cdstore's declaration
/// collector, type mapping and inverse inference), then validate and hash the model, as `cdstore model` does.
/// Thrown errors are fine; crashes, hangs and runaway allocations are findings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: FuzzInput.bytes(bytes, size), as: UTF8.self)
    let origin = URL(fileURLWithPath: "/fuzz/Model.swift")
    guard let loaded = try? SwiftModelReader.read([("/fuzz/Model.swift", text)], origin: origin) else { return 0 }
    FuzzBodies.useModel(loaded)
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
