import ArgumentParser
import CDStore
import Foundation

/// `cdstore scan PATH…`: every Core Data and SwiftData store under folders and backups, found by content.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Find every Core Data and SwiftData store under folders and iOS backups, and report or export them.",
        discussion: """
        A file is a store when it is an SQLite database with Core Data's tables, whatever its name; other files \
        are passed over, and one that cannot be read or is damaged is reported with its problem. Each store is \
        reported with the app or group that owns it when the folder layout says it (simulator and device \
        containers, app groups, macOS Containers and Group Containers, a backup's domains), its kind, where its \
        model comes from, its objects per entity, its size with its -wal, when it last changed and its problems.

        Nothing under PATH changes: stores are read with SQLite's immutable mode, and one whose -wal holds \
        committed data is read, with it, from a private copy. A folder holding Manifest.db is read as an \
        (unencrypted) iOS backup: each store is put back together with its -wal entry in a private folder and \
        reported with its domain and relativePath.

        --export DIR writes each store into a folder of its own: ENTITY.ndjson per entity (as export --format \
        ndjson writes it) and model.json (as model compile writes it), with DIR/manifest.json listing what was \
        written. A store that fails does not stop the others; the exit status is 4 when any failed.

        Examples:
          cdstore scan ~/Library/Developer/CoreSimulator/Devices
          cdstore scan ~/Library/Developer/CoreSimulator/Devices --app com.example.notes --format ndjson
          cdstore scan /evidence/backup /evidence/image --export out/ --jobs 4
        """)

    @Argument(help: "Folders, backups or files to scan.", completion: .directory)
    var paths: [String]

    @Option(name: .long, help: ArgumentHelp(
        "Output format: table, json or ndjson (one object per store). Default: table on a terminal, ndjson otherwise.",
        valueName: "format"))
    var format: OutputFormat?

    @Option(name: .long, help: ArgumentHelp("Only the stores of this app or group identifier.", valueName: "id"))
    var app: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write every store's objects and model into a folder of its own under this folder.", valueName: "dir"),
            completion: .directory)
    var export: String?

    @Option(name: .long, help: ArgumentHelp("Stores exported at the same time (default: 2).", valueName: "n"))
    var jobs: Int = 2

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one folder, backup or file to scan") }
        if let format, ![.table, .json, .ndjson].contains(format) {
            throw ValidationError("scan prints table, json or ndjson")
        }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let format = self.format ?? .default
        let out = TextOutput.standardOutput()
        let writer = format.writer(columns: Self.tableColumns, output: out)
        let exporter = try export.map { try BatchExport(directory: $0, jobs: jobs) }
        let found = BlockingSequence(StoreScanner(roots: paths, app: app))
        while let store = try found.next() {
            writer.write(format == .table ? Self.tableRecord(store) : Self.record(store))
            if format == .ndjson { out.flush() }
            exporter?.add(store)
        }
        writer.finish()
        guard let exporter else { return }
        let summary = try exporter.finish()
        Console.note("exported \(summary.exported) of \(summary.stores) stores (\(summary.objects) objects) to \(exporter.directory)")
        if summary.failed > 0 {
            Console.error("\(summary.failed) \(summary.failed == 1 ? "store" : "stores") could not be exported "
                          + "(see \(exporter.manifestPath))")
            throw ExitCode(ExitStatus.cannotOpen.rawValue)
        }
    }

    static let tableColumns = ["app", "file", "kind", "objects", "entities", "size", "changed", "problems", "path"]

    /// The store as JSON and NDJSON print it.
    static func record(_ store: ScannedStore) -> [(String, ObjectValue)] {
        var record: [(String, ObjectValue)] = [("path", .string(store.path)), ("app", store.app.map(ObjectValue.string) ?? .null)]
        if let domain = store.domain { record.append(("domain", .string(domain))) }
        if let relativePath = store.relativePath { record.append(("relativePath", .string(relativePath))) }
        record += [
            ("kind", store.kind.map(ObjectValue.string) ?? .null),
            ("model", store.modelSource.map(ObjectValue.string) ?? .null),
            ("entities", .dictionary(store.entities.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
            ("objects", .integer(Int64(store.entities.values.reduce(0, +)))),
            ("size", .integer(store.size)),
            ("lastModified", store.lastModified.map { .date($0.timeIntervalSinceReferenceDate) } ?? .null),
            ("problems", .array(store.problems.map(ObjectValue.string))),
        ]
        return record
    }

    /// The store as a table row: entities and problems in words, the size in KiB or MiB.
    static func tableRecord(_ store: ScannedStore) -> [(String, ObjectValue)] {
        let entities = store.entities.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let changed = store.lastModified.map { ISO8601DateFormatter.string(from: $0, timeZone: .current, formatOptions: [
            .withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]) }
        return [
            ("app", .string(store.app ?? "")), ("file", .string(Self.fileName(store))), ("kind", .string(store.kind ?? "")),
            ("objects", store.kind == nil ? .string("") : .integer(Int64(store.entities.values.reduce(0, +)))), ("entities", .string(entities)),
            ("size", .string(Self.bytes(store.size))), ("changed", .string(changed ?? "")),
            ("problems", .string(store.problems.joined(separator: "; "))), ("path", .string(store.path)),
        ]
    }

    /// The store's file name as the app named it: the end of its path in a backup's domain, else of its path.
    static func fileName(_ store: ScannedStore) -> String {
        ((store.relativePath ?? store.path) as NSString).lastPathComponent
    }

    /// `812 B`, `4.0 KiB`, `12.5 MiB`.
    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " " + units[unit]
    }
}
