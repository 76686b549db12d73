import CDStoreCLI
import CDStoreSwiftData
import Foundation

// The command line with everything linked in: `serve`'s web server and the reader of SwiftData sources. The lean
// `cdstore` hands the commands that need them over to this program (FullProgram in CDStoreCLI).
exit(CommandLineRunner.run(Array(CommandLine.arguments.dropFirst()),
                           program: Program(server: BrowseServing(), modelReaders: .swiftData)))
