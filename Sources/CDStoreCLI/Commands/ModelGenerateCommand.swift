import ArgumentParser
import CDStore
import Foundation

/// `cdstore model generate`: source code from a model, through the library's ``CodeGenerator``.
struct ModelGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write code from a model: Xcode's NSManagedObject classes, SwiftData @Model classes or Codable records.",
        discussion: """
        swift and objc write per entity <Class>+CoreDataClass and <Class>+CoreDataProperties files exactly as \
        Xcode writes them (today's format; --xcode 15 for plain imports without the …CoreDataClassSet typealias). \
        swiftdata writes one @Model class per entity and prints on stderr each thing SwiftData cannot express \
        (ordered relationships, abstract entities, fetched properties, configurations, custom Transformable \
        classes, …). codable writes one Codable struct per entity for the CDStore library: \
        ctx.fetch(Employee.self) and ctx.insert(employee). Each file's header names the model, its version and its \
        version hash. Existing files are replaced only with --force (exit status 1 naming them otherwise).

        Examples:
          cdstore model generate --language swift Schemas/Library.xcdatamodeld -o Gen
          cdstore model generate --language swiftdata App.xcdatamodeld -o Models --dry-run
          cdstore model generate --language codable Schemas/Company.json -o Records --force
        """)

    @OptionGroup var model: ModelArgument

    @Option(name: .long, help: ArgumentHelp("The language: swift, objc, swiftdata or codable (e.g. --language swiftdata).",
                                            valueName: "language"))
    var language: GenerateLanguage

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the files into, created when missing (e.g. -o Generated).",
                                                    valueName: "dir"), completion: .directory)
    var output: String

    @Flag(name: .customLong("dry-run"), help: ArgumentHelp("List the files that would be written, and write nothing."))
    var dryRun = false

    @Flag(name: .long, help: ArgumentHelp("Replace files that exist (without it, existing files stop the command)."))
    var force = false

    @Option(name: .long, help: ArgumentHelp("The Xcode version whose format swift output follows: 15 for plain imports, "
                                            + "16 or later for today's, e.g. --xcode 15.", valueName: "version"))
    var xcode: Int = 26

    @Option(name: .long, help: ArgumentHelp("For codable: declare the structs inside this enum, e.g. --namespace Company.",
                                            valueName: "name"))
    var namespace: String?

    func validate() throws {
        if let namespace, namespace.isEmpty || !namespace.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            || namespace.first!.isNumber {
            throw ValidationError("--namespace must be a Swift identifier, e.g. --namespace Company")
        }
        if namespace != nil && language != .codable { throw ValidationError("--namespace is for --language codable") }
    }

    func run() throws {
        let loaded = try model.load()
        let displayPath = model.path ?? model.sourceOptions.model ?? loaded.path
        let generated = CodeGenerator.generate(loaded, language: CodeGenerator.Language(rawValue: language.rawValue)!,
                                               xcodeVersion: xcode, namespace: namespace, displayPath: displayPath)
        for loss in generated.losses { Console.write("lost: " + loss) }
        let directory = URL(fileURLWithPath: output)
        let existing = Set(generated.files.map(\.name).filter {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        })
        if dryRun {
            let text = TextOutput.standardOutput()
            for file in generated.files {
                let path = directory.appendingPathComponent(file.name).relativePath
                text.line(existing.contains(file.name) ? "\(path) (exists: \(force ? "would be replaced" : "--force replaces it"))" : path)
            }
            text.close()
            return
        }
        do {
            let written = try CodeGenerator.write(generated, to: directory, replacing: force)
            let text = TextOutput.standardOutput()
            text.line("wrote \(written.count) file\(written.count == 1 ? "" : "s") to \(output)")
            text.close()
        } catch let error as CDStoreError where error.code == .invalidInput {
            throw CLIError.input("\(output): \(existing.count == 1 ? "a file exists" : "files exist"): "
                                 + "\(existing.sorted().joined(separator: ", ")); --force replaces them (nothing was written)")
        } catch let error as CDStoreError {
            throw CLIError(status: .cannotOpen, message: error.message)
        }
    }
}

enum GenerateLanguage: String, ExpressibleByArgument, CaseIterable {
    case swift, objc, swiftdata, codable
}
