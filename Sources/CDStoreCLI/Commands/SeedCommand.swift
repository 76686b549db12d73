import ArgumentParser
import CDStore
import Foundation

/// `cdstore seed`: build a store to bundle with an app.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Build a seed store from JSON, NDJSON and CSV files, ready to bundle with an app.",
        discussion: """
        Each DATA file named after an entity (Employee.json, Employee.ndjson, Employee.csv) holds that entity's \
        records; any other .json file is a graph document as `cdstore export` writes it. Files are read in the \
        order given, each in its own transaction; if any fails, no store is left behind. The result carries \
        Core Data's metadata and version hashes and the model, its WAL is checkpointed, its journal mode is \
        DELETE (one file, as a bundled store must be), it is VACUUMed and verified. The same model and data \
        give the same bytes; give --uuid to fix the store UUID too.

        Example (CI):
          cdstore seed --model App.xcdatamodeld --out Seed.sqlite --uuid 1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10 \\
            seed/Company.json seed/Employee.csv
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var mappingOptions: MappingOptions

    @Option(name: .long, help: ArgumentHelp("The store file to write (must not exist unless --force).", valueName: "path"))
    var out: String

    @Option(name: .long, help: ArgumentHelp("The store UUID (default: a random one).", valueName: "uuid"))
    var uuid: String?

    @Flag(name: .long, help: "Replace --out if it exists.")
    var force = false

    @Argument(help: ArgumentHelp("Data files: ENTITY.json|.ndjson|.csv, or graph documents (.json).", valueName: "data"))
    var data: [String] = []

    func validate() throws {
        if let uuid, UUID(uuidString: uuid) == nil { throw ValidationError("--uuid must be a UUID, e.g. 1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10") }
    }

    func run() throws {
        let loaded = try storeOptions.requireModel()
        if FileManager.default.fileExists(atPath: out) {
            guard force else { throw CLIError.usage("\(out) exists; remove it or give --force") }
            CDStore.destroyStore(at: out)
        }
        let added = try CDStore.seed(at: out, model: .file(loaded), uuid: uuid, from: data,
                                     options: mappingOptions.applied(to: InsertOptions()), root: mappingOptions.rootPath)
        for file in added {
            MappingOptions.report(file.summary)
            let count = file.summary.inserted
            print("\(file.file): \(count)" + (file.entity.map { " \($0)" } ?? "") + " \(count == 1 ? "object" : "objects")")
        }
        print("wrote \(out)")
    }
}
