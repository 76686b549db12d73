import ArgumentParser
import CDStore
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
        versions of one .xcdatamodeld compare with --from-version and --to-version. With --store, FROM is the \
        model cached in the store and the one model given (or --model, $CDSTORE_MODEL) is TO: what a migration \
        of the store to it would change.

        Examples:
          cdstore model diff Schemas/Staff.xcdatamodeld --from-version Staff --to-version "Staff 2"
          cdstore model diff Old.json New.xcdatamodeld
          cdstore model diff --store App.sqlite App.xcdatamodeld
        """)

    @Argument(help: ArgumentHelp("The earlier model (with --store: the later model).", valueName: "from"), completion: .file())
    var from: String?

    @Argument(help: ArgumentHelp("The later model (default: FROM).", valueName: "to"), completion: .file())
    var to: String?

    @Option(name: .customLong("from-version"), help: ArgumentHelp(
        "The version of FROM to use (e.g. --from-version \"Staff\").", valueName: "name"))
    var fromVersion: String?

    @Option(name: .customLong("to-version"), help: ArgumentHelp(
        "The version of TO to use (e.g. --to-version \"Staff 2\").", valueName: "name"))
    var toVersion: String?

    @OptionGroup var sourceOptions: ModelSourceOptions

    func run() throws {
        let (source, destination) = try models()
        let output = TextOutput.standardOutput()
        for change in source.model.changes(to: destination.model) { output.line(change.description) }
        output.close()
    }

    /// FROM and TO: two model files, or the store's cached model and one model file.
    func models() throws -> (ModelFile, ModelFile) {
        guard let store = sourceOptions.store else {
            guard let from = from ?? sourceOptions.model else {
                throw CLIError.usage("give the models to compare (FROM and TO), or --store STORE and the model to "
                                     + "compare its cached model with")
            }
            // --model-version goes with --model (the REPL adds both), not with a model named here.
            let version = fromVersion ?? (self.from == nil ? sourceOptions.modelVersion : nil)
            return (try sourceOptions.load(.file(from), version: version),
                    try sourceOptions.load(.file(to ?? from), version: toVersion))
        }
        guard to == nil else {
            throw CLIError.usage("with --store, FROM is the store's model: give one model to compare it with")
        }
        guard fromVersion == nil else {
            throw CLIError.usage("--from-version picks a version of FROM; with --store, FROM is the store's model")
        }
        let environment = ProcessInfo.processInfo.environment["CDSTORE_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        guard let given = from ?? sourceOptions.model ?? environment else {
            throw CLIError.usage("give the model to compare the store's model with (an argument, --model or "
                                 + "CDSTORE_MODEL)")
        }
        return (try sourceOptions.load(.store(store), version: nil),
                try sourceOptions.load(.file(given), version: toVersion ?? (from == nil ? sourceOptions.modelVersion : nil)))
    }
}
