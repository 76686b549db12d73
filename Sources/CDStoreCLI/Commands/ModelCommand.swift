import ArgumentParser
import CDStoreModel
import CDStoreSQLite
import Foundation

/// `cdstore model …`: look at, check, convert and hash models.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Show, validate, compile and hash managed object models.",
        discussion: """
        Each subcommand takes the model as an argument, or from --model / $CDSTORE_MODEL. A model is an \
        .xcdatamodeld bundle (its current version, or --model-version NAME), one .xcdatamodel, its contents \
        file, or a cdstore JSON model.
        """,
        subcommands: [ModelShowCommand.self, ModelValidateCommand.self, ModelCompileCommand.self, ModelHashesCommand.self, ModelDiffCommand.self, ModelDiagramCommand.self])
}

/// The model argument shared by the `model` subcommands.
struct ModelArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The model (default: --model or $CDSTORE_MODEL).", valueName: "model"))
    var path: String?

    @OptionGroup var storeOptions: StoreOptions

    func load() throws -> LoadedModel {
        guard let path = path ?? storeOptions.modelPath else {
            throw CLIError.usage("no model: give it as an argument, with --model, or in CDSTORE_MODEL")
        }
        let loaded = try ModelLoader.load(path, version: storeOptions.modelVersion)
        for warning in loaded.warnings { Console.warn(warning) }
        return loaded
    }
}

struct ModelShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the entities, attributes and relationships of a model.",
        discussion: """
        Examples:
          cdstore model show Schemas/Library.xcdatamodeld
          cdstore model show App.xcdatamodeld --model-version "App 3" --format json
        """)

    @OptionGroup var model: ModelArgument

    @Option(name: .long, help: ArgumentHelp("Output format: text or json (default text).", valueName: "format"))
    var format: ModelShowFormat = .text

    func run() throws {
        let loaded = try model.load()
        let output = TextOutput.standardOutput()
        switch format {
        case .text: ModelDescription.text(loaded.model, output: output)
        case .json: output.line(JSONText.encode(ModelDescription.json(loaded.model)))
        }
        output.close()
    }
}

enum ModelShowFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct ModelValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a model for every problem Xcode would report; prints \"ok\" or each problem.",
        discussion: """
        Problems are printed one per line with the file, line, entity and property; the exit status is 1 when \
        there is any error (warnings alone exit 0).

        Example:
          cdstore model validate Schemas/Company.json
        """)

    @OptionGroup var model: ModelArgument

    func run() throws {
        let loaded = try model.load()
        let issues = ModelValidator.validate(loaded)
        for issue in issues { print(issue.description) }
        if issues.contains(where: { $0.severity == .error }) {
            throw ExitCode(ExitStatus.badInput.rawValue)
        }
        if issues.isEmpty { print("ok") }
    }
}

struct ModelCompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Write a model as a cdstore JSON model (the canonical form).",
        discussion: """
        Loading the JSON model gives back an equal model. Schemas/README.md documents the format.

        Example:
          cdstore model compile App.xcdatamodeld -o App.json
        """)

    @OptionGroup var model: ModelArgument

    @Option(name: .shortAndLong, help: ArgumentHelp("The JSON file to write (default: standard output).", valueName: "path"))
    var output: String?

    func run() throws {
        let loaded = try model.load()
        let data = try JSONModelCodec.encode(loaded.model)
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: data) else {
                throw CLIError.input("cannot write \(output)")
            }
        } else {
            FileHandle.standardOutput.write(data)
            if data.last != UInt8(ascii: "\n") { FileHandle.standardOutput.write(Data("\n".utf8)) }
        }
    }
}

struct ModelHashesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hashes",
        abstract: "Print each entity's Core Data version hash (base64), one \"NAME HASH\" line per entity, sorted by name.",
        discussion: """
        These are the hashes Core Data writes into a store's metadata (NSStoreModelVersionHashes) and Xcode \
        into a compiled model's VersionInfo.plist.

        Example:
          cdstore model hashes Schemas/Library.xcdatamodeld
        """)

    @OptionGroup var model: ModelArgument

    func run() throws {
        let loaded = try model.load()
        let hashes = VersionHasher.entityHashes(of: loaded.model)
        let output = TextOutput.standardOutput()
        for name in hashes.keys.sorted() {
            output.line("\(name) \(Data(hashes[name]!).base64EncodedString())")
        }
        output.close()
    }
}
