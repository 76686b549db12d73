import Foundation

/// `cdstore-full`, the program that runs what the lean `cdstore` hands over: `serve`, the REPL, and models read
/// from SwiftData sources.
///
/// Both programs run the same command line. `cdstore-full` also links the web server (Hummingbird) and
/// swift-syntax. Together these add about 6,900 of the program's 13,500 protocol-conformance records, and the
/// Swift runtime scans every record at each first conformance lookup. Leaving them out of `cdstore` took
/// `count` on a small store from 59.5 M to 36.1 M instructions at start-up; with the other changes of
/// docs/decisions/0014-lean-program.md, 33.9 M and 7.5 ms.
///
/// The hand-over replaces the process (`execv`), before anything was written: the same arguments, environment,
/// standard streams and process ID, so scripts see one program.
enum FullProgram {
    /// The file name, looked for beside the running program.
    static let name = "cdstore-full"

    /// Where `cdstore-full` is: beside the running program (symbolic links resolved, so a link to an installed
    /// `cdstore` finds the `cdstore-full` installed with it), or nil.
    static var path: String? {
        guard let running = runningProgram else { return nil }
        let candidate = URL(fileURLWithPath: running).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// The running program's file.
    private static var runningProgram: String? {
        #if os(Linux)
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #else
        Bundle.main.executablePath
        #endif
    }

    /// Replaces this process by `cdstore-full arguments…`; returns only by throwing. `why` completes the
    /// error when the program is missing: "cdstore serve needs cdstore-full …".
    static func replaceProcess(arguments: [String], why: String) throws -> Never {
        guard let path else {
            throw CLIError(status: .cannotOpen, message: "\(why) needs \(name), installed beside cdstore; it is "
                           + "not there (make install installs both)")
        }
        fflush(nil)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        throw CLIError(status: .cannotOpen, message: "cannot run \(path): \(reason)")
    }
}
