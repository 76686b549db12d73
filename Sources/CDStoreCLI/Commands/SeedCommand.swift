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
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: out + suffix) }
        }
        do {
            let store = try Store.open(at: out, loaded: loaded, options: .init(uuid: uuid?.uppercased()))
            var counts: [String] = []
            for file in data {
                counts.append(try load(file, into: store))
            }
            try store.prepareForBundling()
            let problems = try store.verify()
            guard problems.isEmpty else {
                throw CLIError.input("the seed store does not verify:\n" + problems.map(\.description).joined(separator: "\n"))
            }
            try store.close()
            for line in counts { print(line) }
            print("wrote \(out)")
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: out + suffix) }
            throw error
        }
    }

    /// Loads one data file, streaming it, and says what it added.
    private func load(_ file: String, into store: Store) throws -> String {
        let url = URL(fileURLWithPath: file)
        let stem = url.deletingPathExtension().lastPathComponent
        let format = RecordInput.format(forFile: file)
        let stream = try ByteStream(path: file)
        if let entity = store.model.entity(named: stem), let format {
            do {
                var source = RecordInput.reader(stream, format: format, root: mappingOptions.rootPath)
                var options = InsertOptions(mapping: try mappingOptions.mapping(for: store, inputFile: file))
                options.unknownKeys = mappingOptions.unknownKeys
                let summary = try store.insert(from: &source, into: entity.name, options: options)
                MappingOptions.report(summary)
                let count = summary.inserted
                return "\(file): \(count) \(entity.name) \(count == 1 ? "object" : "objects")"
            } catch let error as RecordInput.InputError {
                throw CLIError.input("\(file): \(error.description)")
            } catch let error as StoreError {
                throw CLIError.input("\(file): \(error.description)")
            }
        }
        guard format == .json else {
            throw CLIError.input("\(file): not named after an entity of the model (\(stem)), and not a .json graph document")
        }
        do {
            var source = try GraphInput.reader(stream)
            let count = try store.importGraph(from: &source)
            return "\(file): \(count) \(count == 1 ? "object" : "objects")"
        } catch let error as StoreError {
            throw CLIError.input("\(file): \(error.description)")
        } catch let error as RecordInput.InputError {
            throw CLIError.input("\(file): \(error.description)")
        }
    }
}
