import Foundation

/// The result of running a program: exit status and everything it printed.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Everything `fd` gives until its end. Foundation's `readDataToEndOfFile()` traps when a signal interrupts the
/// read (EINTR, "Interrupted system call"), which tests that run many processes at once provoke: retry instead.
public func readToEnd(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}

/// Runs external programs (the Python oracles in `../shared/tools`) from tests.
public enum ProcessRunner {
    /// Runs `executable` (looked up on `PATH`) with `arguments` and waits for it. `environment`, when given,
    /// replaces the inherited environment.
    public static func run(_ executable: String, _ arguments: [String], stdin: String? = nil,
                           environment: [String: String]? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read stderr on another thread so a chatty program cannot block on a full pipe.
        let errorData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData.set(readToEnd(err.fileHandleForReading.fileDescriptor))
            group.leave()
        }
        let outputData = readToEnd(out.fileHandleForReading.fileDescriptor)
        group.wait()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                             stderr: String(decoding: errorData.get(), as: UTF8.self))
    }

    /// Runs a Python 3 script given as text, with `../shared/tools/coredata` importable.
    public static func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
        let prelude = "import sys; sys.path.insert(0, \(pythonString(Corpus.tools.path)))\n"
        return try run("python3", ["-c", prelude + script] + arguments)
    }

    private static func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
