import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory cdstore-generate --model M --language L -o DIR`: code from
/// a model, written into the package by `cdstore model generate` with the same arguments. Relative paths are the
/// package's: the command runs in the package's folder.
@main
struct CDStoreGeneratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let cdstore = try context.tool(named: "cdstore").url
        let process = Process()
        process.executableURL = cdstore
        process.arguments = ["model", "generate"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            Diagnostics.error("cdstore model generate \(arguments.joined(separator: " ")) failed (exit status \(process.terminationStatus))")
            throw GenerateFailed(status: process.terminationStatus)
        }
    }
}

/// `cdstore model generate` ended with a failure, which it has described on its standard error.
struct GenerateFailed: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "cdstore model generate failed with exit status \(status)" }
}
