import CFuzzDriver

/// Shared helpers for the fuzz targets.
public enum FuzzInput {
    /// The fuzzer's input as an array (libFuzzer owns the buffer; copy it before parsing).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Runs libFuzzer with this process's arguments, calling `target` on every input; returns its exit status.
    public static func run(_ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, target)
    }
}
