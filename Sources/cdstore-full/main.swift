import CDStoreCLI
import CDStoreSwiftData
import Foundation

// The command line with everything linked in: `serve`'s web server and the reader of SwiftData sources. The
// lean `cdstore` hands those over to this program (FullProgram in CDStoreCLI).
SwiftDataSources.install()
exit(CommandLineRunner.run(Array(CommandLine.arguments.dropFirst()), server: BrowseServing()))
