import ArgumentParser
import CDStore
import Foundation

/// `cdstore diff A B`: the objects that differ between two stores (or a store and an export).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare the objects of two stores, or of a store and an export; exit status 1 when they differ.",
        discussion: """
        Objects are matched per entity by key, not by row: by --key, else by the entity's first uniqueness \
        constraint (a to-one relationship in it stands for the related object's key), else by the attribute its \
        user info names (identityAttribute, as Groot and Sync use it), else by Z_PK (said on stderr). Relationships compare by the keys of the related \
        objects, so renumbered primary keys and another insertion order are not differences. When A and B were \
        saved with different versions of one model, properties are matched as migration matches them (renaming \
        identifiers included) and the model changes are printed first; properties only one version has are not \
        compared.

        A and B are stores or exports (`cdstore export` graph documents or NDJSON, read into a temporary store). \
        With one argument, A is --store. Each store is read with --model-a / --model-b, else --model, else the \
        model it carries; an export takes the other side's model when none is given.

        The table (the default) has one row per entity: objects only in A, only in B, changed and the same. \
        json and ndjson print one record per difference instead: \
        {"entity":…,"key":{…},"change":"added|removed|changed","fields":{"salary":[72000,75600]}} \
        ("values" for added and removed objects), after one {"change":"model",…} record per model change.

        Exit status: 0 the objects are the same (model changes alone do not count); 1 they differ; 2 the \
        comparison could not be made (bad option, predicate, key or export); 3 and 4 as for every command.

        Examples:
          cdstore diff Seed.sqlite Golden.sqlite --model App.xcdatamodeld
          cdstore diff before.sqlite after.sqlite --format ndjson --ignore updatedAt
          cdstore diff --store App.sqlite golden.json --entity Employee --where 'salary > 50000' --tolerance 0.01
        """)

    @Argument(help: ArgumentHelp("Store or export A, the \"before\" side (with only one argument, that one is B and A is --store).",
                                 valueName: "a"), completion: .file())
    var a: String?

    @Argument(help: ArgumentHelp("Store or export B, the \"after\" side.", valueName: "b"), completion: .file())
    var b: String?

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customLong("model-a"), help: ArgumentHelp("The model of A (default: --model, else A's own).", valueName: "path"),
            completion: .file())
    var modelA: String?

    @Option(name: .customLong("model-b"), help: ArgumentHelp("The model of B (default: --model, else B's own).", valueName: "path"),
            completion: .file())
    var modelB: String?

    @Option(name: .long, help: ArgumentHelp("Match objects of ENTITY (and its sub-entities) by these attributes (repeatable).",
                                            valueName: "entity=attr[,attr]"))
    var key: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare only these entities and their sub-entities (repeatable, or comma-separated).",
                                            valueName: "entity"), completion: .custom(ShellCompletion.entities))
    var entity: [String] = []

    @Option(name: .customLong("where"), help: ArgumentHelp("Compare only objects matching this NSPredicate, in both (needs --entity).",
                                                           valueName: "predicate"))
    var predicate: String?

    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A value for the next %@, %K, %d or %f in --where (repeatable).", valueName: "value"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for a $variable in --where, as NAME=VALUE (repeatable).",
                                                         valueName: "name=value"))
    var variables: [String] = []

    @Option(name: .long, help: ArgumentHelp("Leave out this property: NAME of any entity or ENTITY.NAME (repeatable, or comma-separated).",
                                            valueName: "property"))
    var ignore: [String] = []

    @Option(name: .long, help: ArgumentHelp("Double, Float and Decimal values this close are equal (default 0).", valueName: "amount"))
    var tolerance: Double = 0

    @Option(name: .long, help: ArgumentHelp("Output format: table or csv (a summary per entity), json or ndjson (one record per difference). Default table.",
                                            valueName: "format"))
    var format: OutputFormat = .table

    func validate() throws {
        guard a != nil else { throw ValidationError("give two stores or exports to compare: cdstore diff A B") }
        if b == nil && storeOptions.storePath == nil {
            throw ValidationError("give two stores or exports to compare (cdstore diff A B), or --store A and B")
        }
        guard tolerance >= 0, tolerance.isFinite else { throw ValidationError("--tolerance must be 0 or more") }
        if predicate != nil && entity.isEmpty { throw ValidationError("--where needs --entity: the entities whose objects it selects") }
        for spec in key where Self.parseKey(spec) == nil {
            throw ValidationError("--key takes ENTITY=ATTR[,ATTR], got '\(spec)'")
        }
    }

    func run() throws {
        let differs: Bool
        do {
            differs = try compare()
        } catch let error as DiffSideError {
            throw ComparisonTrouble(error: error.error, modelFlag: error.modelFlag)
        } catch {
            throw ComparisonTrouble(error: error)
        }
        if differs { throw ExitCode(ExitStatus.badInput.rawValue) }
    }

    /// Runs the diff; true when the objects differ.
    private func compare() throws -> Bool {
        let (pathA, pathB) = if let b { (a!, b) } else { (storeOptions.storePath!, a!) }
        let criteria = predicate == nil ? nil : try PredicateOptions.criteria(predicate, arguments: arguments, variables: variables)
        var keys: [String: [String]] = [:]
        for spec in key {
            let (name, attributes) = Self.parseKey(spec)!
            keys[name] = attributes
        }
        let sides = DiffSides(storeOptions: storeOptions)
        defer { sides.removeTemporaryFiles() }
        let (a, b) = try sides.open(pathA, model: modelA, pathB, model: modelB)
        let diff = try a.compare(with: b, entities: Self.list(entity), matching: criteria, keys: keys,
                                 ignoring: Self.list(ignore), tolerance: tolerance)
        for note in DiffPrinter.notes(planned: diff.plannedEntities, ran: []) { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        let output = TextOutput.standardOutput()
        let comparisons = try DiffPrinter(format: format, output: output).print(diff)
        output.close()
        for note in DiffPrinter.notes(planned: [], ran: comparisons) { FileHandle.standardError.write(Data((note + "\n").utf8)) }
        return comparisons.contains { $0.differs }
    }

    /// `Employee=employeeNumber` or `Department=company,name`.
    static func parseKey(_ spec: String) -> (String, [String])? {
        guard let equals = spec.firstIndex(of: "=") else { return nil }
        let name = spec[..<equals].trimmingCharacters(in: .whitespaces)
        let attributes = list([String(spec[spec.index(after: equals)...])])
        return name.isEmpty || attributes.isEmpty ? nil : (name, attributes)
    }

    /// Repeated and comma-separated values as one list.
    static func list(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }
}

/// Opens the two sides of a diff: stores read-only, exports read into temporary stores.
final class DiffSides {
    let storeOptions: StoreOptions
    private var temporary: [URL] = []

    init(storeOptions: StoreOptions) { self.storeOptions = storeOptions }

    /// Opens A and B, stores first, so that an export can be read with the other side's model.
    func open(_ pathA: String, model modelA: String?, _ pathB: String, model modelB: String?) throws -> (CDStore, CDStore) {
        let storeA = try isStore(pathA) ? side("A", modelA) { try openStore(pathA, model: modelA, side: "A") } : nil
        let storeB = try isStore(pathB) ? side("B", modelB) { try openStore(pathB, model: modelB, side: "B") } : nil
        let a = try storeA ?? side("A", modelA) { try readExport(pathA, model: modelA, other: storeB, side: "A") }
        let b = try storeB ?? side("B", modelB) { try readExport(pathB, model: modelB, other: a, side: "B") }
        return (a, b)
    }

    /// Runs `body` for one side; an error says which option gave that side's model when it was not `--model`.
    private func side(_ name: String, _ modelPath: String?, _ body: () throws -> CDStore) throws -> CDStore {
        do {
            return try body()
        } catch {
            throw DiffSideError(error: error, modelFlag: modelPath == nil ? nil : "--model-\(name.lowercased())")
        }
    }

    func removeTemporaryFiles() {
        for folder in temporary { try? FileManager.default.removeItem(at: folder) }
    }

    /// Whether `path` is a SQLite database (else an export).
    private func isStore(_ path: String) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CDStoreError(.cannotOpen, "no store or export at \(path)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\u{0}".utf8)
    }

    private func model(_ path: String?) throws -> ModelFile? {
        let version = path == nil ? storeOptions.modelVersion : nil
        let schema = path == nil ? storeOptions.schema : nil
        guard let path = path ?? storeOptions.modelPath else { return nil }
        let file = try ModelFile(contentsOf: path, version: version, schema: schema, readers: Program.current.modelReaders)
        for warning in file.warnings { Console.warn(warning) }
        return file
    }

    private func openStore(_ path: String, model modelPath: String?, side: String) throws -> CDStore {
        // Read-only with .migrate: a store saved with another version of the model is read with that version.
        var options: CDStore.Options = [.readOnly, .migrate]
        if storeOptions.immutable { options.insert(.immutable) }
        let store = try CDStore(path: path, model: try model(modelPath).map { .file($0) }, options: options,
                                configuration: .init(busyTimeout: Double(max(0, storeOptions.busyTimeout)) / 1000,
                                                     maximumReaderCount: 0))
        for warning in store.warnings { Console.warn("\(side): " + warning.description) }
        return store
    }

    /// Reads an export into a new temporary store, keeping its objects' primary keys.
    private func readExport(_ path: String, model modelPath: String?, other: CDStore?, side: String) throws -> CDStore {
        guard let model = try model(modelPath)?.model ?? other?.model else {
            throw CLIError.usage("\(side) is an export: give its model with --model or --model-\(side.lowercased())")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cdstore-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        temporary.append(folder)
        let library = try CDStore(path: folder.appendingPathComponent("\(side).sqlite").path, model: .model(model),
                                  options: [.create], configuration: .init(maximumReaderCount: 0))
        do {
            try library.write { ctx in try ctx.importGraph(from: URL(fileURLWithPath: path)) }
        } catch var error as CDStoreError {
            error.file = path
            error.fileIsData = true
            throw error
        }
        return library
    }
}

/// An error opening one side of a diff, with the option that gave that side's model (nil: `--model` or none).
struct DiffSideError: Error {
    var error: Error
    var modelFlag: String?
}
