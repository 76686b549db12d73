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
        try storeOptions.withStore(create: false, readsOnly: true) { store in
            store.readsMissingExternalDataAsNull = !strict
            for name in entities { _ = try store.resolveEntity(name) }
            // Abstract entities have no objects of their own; their sub-entities' objects are exported under the sub-entities.
            let names = entities.isEmpty ? store.model.entities.filter { !$0.isAbstract }.map(\.name) : entities
            // Progress only when the objects go to a file: on a terminal, standard output is the export itself.
            let progress = Progress("exporting", quiet: quiet || output == nil)
            defer { progress.finish() }
            let counter = progress.isEnabled ? ExportProgress(progress, total: try names.reduce(0) {
                $0 + (try store.count(ObjectFetchRequest(entity: $1, includesSubentities: false)))
            }) : nil
            // Counted while writing: counting again afterwards would read every table a second time.
            var total = 0
            switch format {
            case .csv where names.count > 1 || output.map(isDirectory) == true:
                total = try exportCSVFolder(store, names)
            case .json where names.count > 1 || entities.isEmpty:
                total = try exportJSONDocument(store, names, progress: counter)
            case .ndjson where RecordPrinter.streams:
                let out = try output.map(TextOutput.file) ?? .standardOutput()
                total = try GraphExport.write(store, as: .ndjson, entities: names, to: out, progress: counter?.cumulative)
                out.close()
            case .ndjson:
                let out = try output.map(TextOutput.file) ?? .standardOutput()
                let writer = format.writer(columns: [], output: out)
                for name in names {
                    let request = ObjectFetchRequest(entity: name, includesSubentities: false)
                    if RecordPrinter.streams && store.canStreamRecords(request) {
                        let before = total
                        total += try store.writeRecords(request, style: RecordStyle(syntax: .json, nameEntity: true, terminator: "\n"),
                                                        to: out, progress: counter?.callback(after: before))
                        continue
                    }
                    let printer = RecordPrinter(store: store, entity: name, format: format, output: out, alwaysNameEntity: true)
                    try store.forEach(request) {
                        writer.write(printer.record($0))
                        total += 1
                    }
                }
                writer.finish()
                out.close()
            default:
                let out = try output.map(TextOutput.file) ?? .standardOutput()
                let name = names.first ?? ""
                total = try RecordPrinter(store: store, entity: name, format: format, output: out)
                    .print(ObjectFetchRequest(entity: name, includesSubentities: false))
                out.close()
            }
            if let output {
                print("exported \(total) \(total == 1 ? "object" : "objects") to \(output)")
            }
        }
    }

    private func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// The graph document: `{"format": "cdstore-graph", "formatVersion": 1, "storeUUID": …, "entities":
    /// {"Entity": [objects…], …}}`, each object under its own entity with `_id` and its relationships as object IDs.
    /// `cdstore import` reads it back.
    private func exportJSONDocument(_ store: Store, _ names: [String], progress: ExportProgress?) throws -> Int {
        var total = 0
        let out = try output.map(TextOutput.file) ?? .standardOutput()
        if RecordPrinter.streams {
            total = try GraphExport.write(store, as: .document, entities: names, to: out, progress: progress?.cumulative)
            out.close()
            return total
        }
        // CDSTORE_NO_STREAMING: the general path, which StreamedRecordsTests compares with the library's.
        out.write("{\"format\":\"cdstore-graph\",\"formatVersion\":1,\"storeUUID\":\(JSONText.quoted(store.metadata.uuid)),\"entities\":{")
        for (i, name) in names.enumerated() {
            out.write(i == 0 ? "\n" : ",\n")
            out.write(JSONText.quoted(name) + ": [")
            var count = 0
            let request = ObjectFetchRequest(entity: name, includesSubentities: false)
            if RecordPrinter.streams && store.canStreamRecords(request) {
                count = try store.writeRecords(request, style: RecordStyle(syntax: .json, first: "\n  ", separator: ",\n  "),
                                               to: out, progress: progress?.callback(after: total))
            } else {
                let printer = RecordPrinter(store: store, entity: name, format: .json, output: out)
                try store.forEach(request) { object in
                    out.write(count == 0 ? "\n  " : ",\n  ")
                    out.write(JSONText.encode(.dictionary(printer.record(object))))
                    count += 1
                }
            }
            out.write(count == 0 ? "]" : "\n]")
            total += count
        }
        out.line(names.isEmpty ? "}}" : "\n}}")
        out.close()
        return total
    }

    /// One `ENTITY.csv` per entity in the output folder.
    private func exportCSVFolder(_ store: Store, _ names: [String]) throws -> Int {
        var total = 0
        guard let folder = output else {
            throw CLIError.usage("csv export of several entities writes one file each: give --output FOLDER")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            let out = try TextOutput.file((folder as NSString).appendingPathComponent(name + ".csv"))
            let printer = RecordPrinter(store: store, entity: name, format: .csv, output: out)
            total += try printer.print(ObjectFetchRequest(entity: name, includesSubentities: false))
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
