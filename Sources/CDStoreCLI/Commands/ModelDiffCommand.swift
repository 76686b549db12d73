import ArgumentParser
import CDStoreModel
import CDStoreSQLite
import Foundation

/// `cdstore model diff A B`: the changes a migration from A to B would make.
struct ModelDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the differences between two models, one change per line.",
        discussion: """
        Entities, attributes and relationships are matched as Core Data's inferred mapping matches them: by \
        renaming identifier (Xcode's elementID) or else by name. Each line is "KIND: Entity[.property] (details)"; \
        nothing is printed when the models have the same entities and properties. TO defaults to FROM, so two \
        versions of one .xcdatamodeld compare with --from-version and --to-version.

        Examples:
          cdstore model diff Schemas/Staff.xcdatamodeld --from-version Staff --to-version "Staff 2"
          cdstore model diff Old.json New.xcdatamodeld
        """)

    @Argument(help: ArgumentHelp("The earlier model.", valueName: "from"))
    var from: String

    @Argument(help: ArgumentHelp("The later model (default: FROM).", valueName: "to"))
    var to: String?

    @Option(name: .customLong("from-version"), help: ArgumentHelp("The version of FROM to use (an .xcdatamodeld's version name).",
                                                                  valueName: "name"))
    var fromVersion: String?

    @Option(name: .customLong("to-version"), help: ArgumentHelp("The version of TO to use.", valueName: "name"))
    var toVersion: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let source = try ModelLoader.load(from, version: fromVersion)
        let destination = try ModelLoader.load(to ?? from, version: toVersion)
        let output = TextOutput.standardOutput()
        for change in ModelDiff.changes(from: source.model, to: destination.model) { output.line(change.description) }
        output.close()
    }
}
