import Foundation
import CDStorePredicate
import FuzzSupport

/// Predicate format strings: `PredicateParser.parse`, then `parseExpression` on the same text. Thrown errors are
/// the parser's job; crashes, hangs and runaway allocations are findings. A parsed predicate is also formatted back
/// (`description`) and parsed again, so the formatter runs on every tree the parser builds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: FuzzInput.bytes(data, size), as: UTF8.self)
    if let node = try? PredicateParser.parse(text) {
        _ = try? PredicateParser.parse(String(describing: node))
    }
    if let expression = try? PredicateParser.parseExpression(text) {
        _ = String(describing: expression)
    }
    return 0
}

@main
enum Main {
    static func main() {
        exit(FuzzInput.run(fuzz))
    }
}
