import ArgumentParser
import CDStore
import Foundation

/// `cdstore mapping`: mapping models (heavyweight migration).
struct MappingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapping",
        abstract: "Show mapping models, or the mapping inference would use.",
        discussion: """
        Examples:
          cdstore mapping show Model_1_0_to_1_1.xcmappingmodel
          cdstore mapping show V1toV2.cdm --format json
          cdstore mapping infer --from Books.xcdatamodeld --from-version V1 --to Books.xcdatamodeld --to-version V2
        """,
        subcommands: [MappingShowCommand.self, MappingInferCommand.self])
}

/// How a mapping model is printed.
enum MappingFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `cdstore mapping show PATH`.
struct MappingShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a mapping model (.xcmappingmodel or compiled .cdm) readably.",
        discussion: """
        Entity mappings in the order the migration manager runs them: source → destination, type, policy class, \
        filter, and every value expression ("(none)": the property keeps its default). Expressions Xcode \
        generates are filled in as momc compiles them, completed against the model versions the file names when \
        they are found beside it. A damaged file is an error naming the file and the object (exit status 1).

        Examples:
          cdstore mapping show Model_1_0_to_1_1.xcmappingmodel
          cdstore mapping show Model_1_0_to_1_1.cdm --format json
        """)

    @Argument(help: ArgumentHelp("The mapping model: an .xcmappingmodel folder, its xcmapping.xml, or a .cdm file.",
                                 valueName: "path"), completion: .file())
    var path: String

    @Option(help: ArgumentHelp("Output format (e.g. --format json).", valueName: "format"))
    var format: MappingFormat = .text

    func run() throws {
        let output = TextOutput.standardOutput()
        defer { output.close() }
        MappingDescription.write(try MappingModel(contentsOf: path), as: format, to: output)
    }
}

/// `cdstore mapping infer --from A --to B`.
struct MappingInferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Print the mapping model inference would use from one model to another.",
        discussion: """
        In the form of `cdstore mapping show` (what Core Data's inferredMappingModel gives), to compare with the \
        mapping model an app ships. A change inference cannot follow is refused with Core Data's 134190 (exit \
        status 3).

        Examples:
          cdstore mapping infer --from Books.xcdatamodeld --from-version V1 --to Books.xcdatamodeld --to-version V2
          cdstore mapping infer --from Old.json --to New.xcdatamodeld --format json
        """)

    @Option(help: ArgumentHelp("The source model (e.g. --from Books.xcdatamodeld).", valueName: "model"), completion: .file())
    var from: String

    @Option(help: ArgumentHelp("The destination model (e.g. --to Books.xcdatamodeld).", valueName: "model"), completion: .file())
    var to: String

    @Option(name: .customLong("from-version"), help: ArgumentHelp("The version of the source model (e.g. --from-version V1).",
                                                                  valueName: "name"))
    var fromVersion: String?

    @Option(name: .customLong("to-version"), help: ArgumentHelp("The version of the destination model (e.g. --to-version V2).",
                                                                valueName: "name"))
    var toVersion: String?

    @Option(help: ArgumentHelp("Output format (e.g. --format json).", valueName: "format"))
    var format: MappingFormat = .text

    func run() throws {
        let output = TextOutput.standardOutput()
        defer { output.close() }
        let mapping = try MappingModel.inferred(from: .path(from, version: fromVersion), to: .path(to, version: toVersion))
        MappingDescription.write(mapping, as: format, to: output)
    }
}
