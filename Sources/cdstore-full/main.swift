import CDStoreCLI
import Foundation

// The command line with everything linked in: `serve`'s web server and (with CDStoreSwiftData) the reader of
// SwiftData sources. The lean `cdstore` hands those over to this program (FullProgram in CDStoreCLI).
exit(CommandLineRunner.run(Array(CommandLine.arguments.dropFirst()), server: BrowseServing()))
