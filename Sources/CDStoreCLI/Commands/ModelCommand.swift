import ArgumentParser
import CDStore
import Foundation

/// `cdstore model …`: look at, check, convert and hash models.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Show, validate, compile and hash managed object models.",
        discussion: """
        Each subcommand takes the model as an argument, or from --model / $CDSTORE_MODEL. A model is an \
        .xcdatamodeld bundle (its current version, or --model-version NAME), one .xcdatamodel, its contents \
        file, a compiled .momd or .mom, or a cdstore JSON model. --store STORE uses the model cached in a \
        store instead (cdstore's, or Core Data's Z_MODELCACHE), and so does $CDSTORE_STORE when no model is named.

        Examples:
          cdstore model show Schemas/Library.xcdatamodeld
          cdstore model hashes --store App.sqlite
          cdstore model compile App.momd -o App.xcdatamodeld
        """,
        subcommands: [ModelShowCommand.self, ModelValidateCommand.self, ModelCompileCommand.self, ModelHashesCommand.self, ModelDiffCommand.self, ModelDiagramCommand.self,
                      ModelGenerateCommand.self])
}

/// The model argument shared by the `model` subcommands, with where else the model may come from.
struct ModelArgument: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The model (default: --model, the model cached in --store, $CDSTORE_MODEL, then the model cached in "
        + "$CDSTORE_STORE).", valueName: "model"), completion: .file())
    var path: String?

    @OptionGroup var sourceOptions: ModelSourceOptions

    /// The model the command works on, its warnings printed.
    func load() throws -> ModelFile {
        try sourceOptions.load(try sourceOptions.source(argument: path), version: sourceOptions.modelVersion)
    }

    /// Every version of the model (one for a store's cache), their warnings printed.
    func loadVersions() throws -> [ModelFile] {
        try sourceOptions.loadVersions(try sourceOptions.source(argument: path))
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
          cdstore model show --store App.sqlite
        """)

    @OptionGroup var model: ModelArgument

    @Option(name: .long, help: ArgumentHelp("Output format: text or json (e.g. --format json).", valueName: "format"))
    var format: ModelShowFormat = .text

    func run() throws {
        let loaded = try model.load()
        let output = TextOutput.standardOutput()
        switch format {
        case .text: ModelDescription.text(loaded.model, output: output)
        case .json: output.line(ModelDescription.json(loaded.model).description)
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

        Examples:
          cdstore model validate Schemas/Company.json
          cdstore model validate --store App.sqlite
        """)

    @OptionGroup var model: ModelArgument

    func run() throws {
        let issues = try model.load().problems()
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
        abstract: "Write a model as an Xcode model (.xcdatamodeld, .xcdatamodel) or a cdstore JSON model.",
        discussion: """
        The output's name picks the form: OUT.xcdatamodeld gets every version of the input (of a .momd or \
        .xcdatamodeld) and an .xccurrentversion naming the current one (--model-version picks another); \
        OUT.xcdatamodel gets the current version; any other name, and standard output, get cdstore's JSON model \
        (Schemas/README.md). Xcode 15 and later open the Xcode forms, and reading any output back gives the same \
        entity version hashes and store layout. What a form cannot hold is printed as a warning. An existing \
        OUT is replaced.

        Examples:
          cdstore model compile App.momd -o App.xcdatamodeld
          cdstore model compile --store App.sqlite -o Recovered.xcdatamodel
          cdstore model compile App.xcdatamodeld -o App.json
        """)

    @OptionGroup var model: ModelArgument

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Where to write: a path ending in .xcdatamodeld or .xcdatamodel for an Xcode model, any other for JSON "
        + "(e.g. -o App.xcdatamodeld). Default: JSON on standard output.", valueName: "path"))
    var output: String?

    func run() throws {
        guard let output else {
            let data = try model.load().model.jsonModel()
            FileHandle.standardOutput.write(data)
            if data.last != UInt8(ascii: "\n") { FileHandle.standardOutput.write(Data("\n".utf8)) }
            return
        }
        // Only a bundle holds every version; the other forms need the current one alone.
        let versions = URL(fileURLWithPath: output).pathExtension.lowercased() == "xcdatamodeld"
            ? try model.loadVersions() : [try model.load()]
        let problems: [String]
        do {
            problems = try ModelFile.write(versions, to: output)
        } catch let error as CDStoreError {
            throw error   // the model's own trouble, said by the library
        } catch {
            throw CLIError.input("cannot write \(output) (\(error.localizedDescription))")
        }
        for problem in problems { Console.warn("\(output): \(problem)") }
    }
}

struct ModelHashesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hashes",
        abstract: "Print each entity's Core Data version hash (base64), one \"NAME HASH\" line per entity, sorted by name.",
        discussion: """
        These are the hashes Core Data writes into a store's metadata (NSStoreModelVersionHashes) and Xcode \
        into a compiled model's VersionInfo.plist. With --store, the hashes of the model the store caches, which \
        equal the store's own when the cache is current.

        Examples:
          cdstore model hashes Schemas/Library.xcdatamodeld
          cdstore model hashes --store App.sqlite
        """)

    @OptionGroup var model: ModelArgument

    func run() throws {
        let loaded = try model.load()
        let hashes = loaded.model.versionHashes
        let output = TextOutput.standardOutput()
        for name in hashes.keys.sorted() {
            output.line("\(name) \(hashes[name]!.base64EncodedString())")
        }
        output.close()
    }
}
