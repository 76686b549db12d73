import ArgumentParser
import Foundation

/// `cdstore-full`, the program that runs what the lean `cdstore` lacks: `serve` (the web server), the REPL (any
/// statement may need either part), and models read from SwiftData sources.
///
/// Both programs run the same command line. `cdstore-full` also links the web server (Hummingbird) and swift-syntax,
/// whose protocol-conformance records the Swift runtime scans at the first dynamic cast of every process that
/// links them; leaving them out keeps the lean program's start-up small (ADR 0014).
///
/// The hand-over is decided once, from the parsed command, before it runs (``needs(_:arguments:)``), and replaces
/// the process (`execv`): the same arguments, environment, standard streams and process ID, so scripts see one
/// program. Nothing is ever retried in `cdstore-full` after a failure.
enum FullProgram {
    /// The file name, looked for beside the running program.
    static let name = "cdstore-full"

    /// What in `command` only `cdstore-full` can do, in words for the error when it is missing; nil when the lean
    /// program runs it. `arguments` are the command line as given (model paths are among them).
    static func needs(_ command: ParsableCommand, arguments: [String]) -> String? {
        if command is ServeCommand { return "cdstore serve" }
        if command is REPLCommand { return "the REPL" }
        let environment = ProcessInfo.processInfo.environment["CDSTORE_MODEL"].map { [$0] } ?? []
        if (arguments + environment).contains(where: namesSwiftSources) { return "reading SwiftData sources" }
        return nil
    }

    /// Whether `argument` is a path to SwiftData sources: a `.swift` file, or a folder holding `.swift` files that
    /// is not a model bundle. The same test the model loader applies, made on every argument, so that an option
    /// value that is no model at all only costs the start of the larger program.
    static func namesSwiftSources(_ argument: String) -> Bool {
        let url = URL(fileURLWithPath: argument)
        let ext = url.pathExtension.lowercased()
        if ext == "swift" { return true }
        var isDirectory: ObjCBool = false
        guard !argument.hasPrefix("-"), !["xcdatamodeld", "xcdatamodel", "momd"].contains(ext),
              FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil,
                                                          options: [.skipsHiddenFiles])
        else { return false }
        for case let file as URL in walker {
            if ["xcdatamodeld", "build"].contains(file.pathExtension) || file.lastPathComponent == ".build" {
                walker.skipDescendants()
            } else if file.pathExtension == "swift" {
                return true
            }
        }
        return false
    }

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
