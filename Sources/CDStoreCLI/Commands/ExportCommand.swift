import ArgumentParser
import CDStore
import Foundation

/// `cdstore export [ENTITY …]`: write objects out for other tools or for `insert`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every object of the named entities (all entities when none is named) as JSON, NDJSON or CSV.",
        discussion: """
        Each object is written once, under its own entity: objects of sub-entities are not repeated under \
        their parent. Objects carry "_id" (their URI) and their relationships as object IDs. With one entity, \
        json is an array of objects; with none or several, a graph document \
        ({"format":"cdstore-graph",…,"entities":{"Entity":[…]}}) that `cdstore import` reads back into an \
        empty store as the same graph. ndjson writes one object per line with "_entity" (import reads it too). csv writes one file per entity into the \
        --output folder (ENTITY.csv), or one entity to standard output. Dates are ISO 8601 with milliseconds (more digits \
        when a stored date has sub-millisecond parts, so that it reads back exactly), \
        Binary and Transformable values base64, numbers in their shortest exact form. A Binary value whose \
        external-data file is missing (a store copied without its .NAME_SUPPORT folder) is written as null (an empty \
        CSV field), and one warning at the end counts them; --strict makes that an error.

        Examples:
          cdstore export --format json --output dump.json
          cdstore export Employee --format csv > employees.csv
          cdstore export --format csv --output dump/
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "Entities to export (default: every entity).", completion: .custom(ShellCompletion.entities))
    var entities: [String] = []

    @Option(name: .long, help: ArgumentHelp("Output format: json, ndjson or csv (default json).", valueName: "format"))
    var format: OutputFormat = .json

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Write to this file (a folder for csv with several entities) instead of standard output.", valueName: "path"))
    var output: String?

    func validate() throws {
        if format.isForReading { throw ValidationError("export writes json, ndjson or csv; use fetch for a table") }
    }

    @Flag(name: .long, help: "No progress line (it is shown only on a terminal, when writing to a file).")
    var quiet = false

    @Flag(name: .long, help: ArgumentHelp(
        "Fail (exit status 4, nothing printed after the error) when a Binary value's external-data file is missing, "
        + "instead of printing it as null with a warning."))
    var strict = false

    func run() throws {
        try storeOptions.withStore(create: false, readsOnly: true, strict: strict) { store in
            try store.read { ctx in
                // Abstract entities have no objects of their own; their sub-entities' objects are exported under them.
                let names = entities.isEmpty ? ctx.model.entities.filter { !$0.isAbstract }.map(\.name) : entities
                let own = Criteria.all.excludingSubentities()
                for name in entities { _ = try ctx.columns(of: name) }
                // Progress only when the objects go to a file: on a terminal, standard output is the export itself.
                let progress = Progress("exporting", quiet: quiet || output == nil)
                defer { progress.finish() }
                let counter = progress.isEnabled ? ExportProgress(progress, total: try names.reduce(0) {
                    $0 + (try ctx.count($1, matching: own))
                }) : nil
                var total = 0
                switch format {
                case .csv where names.count > 1 || output.map(isDirectory) == true:
                    total = try exportCSVFolder(ctx, names)
                case .json where names.count > 1 || entities.isEmpty, .ndjson:
                    let out = try output.map(TextOutput.file) ?? .standardOutput()
                    total = try ctx.exportGraph(as: format == .json ? .document : .ndjson, entities: names,
                                                progress: counter?.cumulative) { try out.write($0) }
                    out.close()
                default:
                    let out = try output.map(TextOutput.file) ?? .standardOutput()
                    total = try RecordPrinter(entity: names.first ?? "", format: format, output: out)
                        .print(own, in: ctx, progress: counter?.cumulative)
                    out.close()
                }
                if let output {
                    print("exported \(total) \(total == 1 ? "object" : "objects") to \(output)")
                }
            }
        }
    }

    private func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// One `ENTITY.csv` per entity in the output folder.
    private func exportCSVFolder(_ ctx: CDStore.Context, _ names: [String]) throws -> Int {
        var total = 0
        guard let folder = output else {
            throw CLIError.usage("csv export of several entities writes one file each: give --output FOLDER")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            let out = try TextOutput.file((folder as NSString).appendingPathComponent(name + ".csv"))
            total += try RecordPrinter(entity: name, format: .csv, output: out).print(Criteria.all.excludingSubentities(), in: ctx)
            out.close()
        }
        return total
    }
}

/// The objects written so far out of the export's total, on the progress line.
struct ExportProgress {
    let line: Progress
    let total: Int

    init(_ line: Progress, total: Int) {
        self.line = line
        self.total = total
    }

    /// A callback for counts of the whole export so far.
    var cumulative: (Int) -> Void {
        { [line, total] done in line.update(done, of: total) }
    }

    /// A callback for one entity's objects, written after `before` others.
    func callback(after before: Int) -> (Int) -> Void {
        { done in line.update(before + done, of: total) }
    }
}
