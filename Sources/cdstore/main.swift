import CDStoreCLI
import Foundation

exit(CommandLineRunner.run(Array(CommandLine.arguments.dropFirst())))
