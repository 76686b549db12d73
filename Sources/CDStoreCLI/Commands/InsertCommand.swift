import ArgumentParser
import CDStore
import Foundation

/// `cdstore insert ENTITY …`: add objects.
struct InsertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insert",
        abstract: "Insert objects from JSON, NDJSON, CSV or KEY=VALUE arguments.",
        discussion: """
        All records go in one transaction: if any record is invalid, nothing is written and the error names \
        the record (and its line for NDJSON and CSV), the entity and the attribute. Missing attributes take \
        the model's default. Values are read by the attribute's type: dates as ISO 8601 (2024-05-01, \
        2024-05-01T12:30:00Z) or seconds since 2001-01-01; booleans as true/false, yes/no or 1/0; UUIDs as \
        text; Binary as base64. A record may name a sub-entity with "_entity". \
        Relationships take nested objects (new related objects; a to-many an array of them), object IDs \
        (x-coredata://…/Entity/p3) or {"_ref": {"name": "Ann"}} (the one existing object with those values). \
        Uniqueness constraints are enforced; --upsert merges a record into the object it collides with. \
        JSON keys follow the model's mapping when its user info has one (Groot's JSONKeyPath and \
        identityAttribute, MagicalRecord's mappedKeyName and relatedByAttribute), or a --map file. In CSV an empty field is NULL and \
        a quoted empty field ("") the empty string; leave a column out to get its default.

        Examples:
          cdstore insert Employee name=Ann age=34 --model Co.json --store co.sqlite
          cdstore insert Employee --json '[{"name":"Ann"},{"name":"Bo","age":41}]'
          cdstore insert Employee --file people.ndjson
          cat people.csv | cdstore insert Employee --csv
          cdstore insert Department --json '{"name":"R&D","employees":[{"name":"Ann"}]}'
          cdstore insert Employee --upsert --map api-map.json --file api-response.json
          cdstore insert Venue --file response.json --root response.venues --map venues-map.json
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The entity to insert into.", completion: .custom(ShellCompletion.entities))
    var entity: String

    @Argument(help: ArgumentHelp("Attribute values of one object, as KEY=VALUE.", valueName: "key=value"))
    var assignments: [String] = []

    @Option(name: .long, help: ArgumentHelp("JSON text: one object or an array of objects.", valueName: "text"))
    var json: String?

    @Option(name: .long, help: ArgumentHelp(
        "Read records from this file (.json, .ndjson/.jsonl or .csv; the extension picks the format).", valueName: "path"))
    var file: String?

    @Flag(name: .customLong("nl"), help: "The input is NDJSON: one JSON object per line.")
    var newlineDelimited = false

    @Flag(name: .long, help: "The input is CSV with a header row naming the attributes.")
    var csv = false

    @Flag(name: .long, help: "Merge a record into the existing object with the same uniqueness-constraint values.")
    var upsert = false

    @OptionGroup var mappingOptions: MappingOptions

    @Flag(name: .customLong("skip-invalid"), help: ArgumentHelp(
        "Store the valid records and leave out the others, each reported on stderr (record, line, entity, attribute, "
        + "reason); the exit status is 1 when any was left out. Relationship rules are then checked record by record."))
    var skipInvalid = false

    @Flag(name: .long, help: "No progress line (it is shown only on a terminal anyway).")
    var quiet = false

    func validate() throws {
        if newlineDelimited && csv { throw ValidationError("--nl and --csv cannot be used together") }
        if json != nil && csv { throw ValidationError("--json and --csv cannot be used together (--json takes JSON text)") }
        let sources = [json != nil, file != nil, !assignments.isEmpty].filter { $0 }.count
        if sources > 1 { throw ValidationError("give the records one way: KEY=VALUE arguments, --json or --file") }
    }

    func run() throws {
        let records = try recordText()
        let progress = Progress("inserting", quiet: quiet)
        let skipped = SkipReport()
        let summary: InsertSummary
        do {
            defer { progress.finish() }
            summary = try storeOptions.withStore { store -> InsertSummary in
                let options = mappingOptions.applied(
                    to: InsertOptions(upsert: upsert, progress: progress.update, skipInvalid: skipInvalid, onSkip: skipped.report))
                return try store.write { ctx in try ctx.insert(records, into: entity, options: options) }
            }
        }
        MappingOptions.report(summary)
        print("inserted \(summary.inserted) \(summary.inserted == 1 ? "object" : "objects") into \(entity)")
        if summary.skipped > 0 {
            throw CLIError.input("skipped \(summary.skipped) invalid \(summary.skipped == 1 ? "record" : "records")")
        }
    }

    /// Where the records come from, for the library's insert (which reads files and standard input as they are
    /// consumed, in bounded chunks).
    private func recordText() throws -> RecordsInput {
        if !assignments.isEmpty { return .assignments(assignments) }
        let format: RecordInput.Format = csv ? .csv : newlineDelimited ? .ndjson : .json
        if let json { return .text(json, format: format, root: mappingOptions.rootPath) }
        if let file {
            return .file(URL(fileURLWithPath: file), format: csv || newlineDelimited ? format : nil,
                         root: mappingOptions.rootPath)
        }
        if isatty(STDIN_FILENO) != 0 {
            throw CLIError.usage("no records: give KEY=VALUE arguments, --json, --file, or pipe them in")
        }
        return .file(URL(fileURLWithPath: "/dev/stdin"), format: format, root: mappingOptions.rootPath)
    }
}

/// Prints each record an insert left out on standard error, as it is left out.
final class SkipReport: Sendable {
    func report(_ skipped: CDStoreError) {
        Console.warn("skipped \(skipped)")
    }
}
