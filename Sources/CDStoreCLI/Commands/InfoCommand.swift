import ArgumentParser
import CDStore
import Foundation

/// `cdstore info`: what a store is.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a store's metadata, its entities' version hashes against the model, and object counts.",
        discussion: """
        Shows the store UUID, what it is (Core Data or SwiftData, CloudKit mirroring, persistent history), the \
        Core Data framework version that wrote it, the model version identifiers, journal mode, whether it carries \
        a cached model, and per entity its number, whether its version hash matches the model, and how many \
        objects it has. Works on any Core Data store, read-only; a store that carries no model is read with one \
        inferred from its tables.

        Examples:
          cdstore info --store App.sqlite
          cdstore info --store App.sqlite --model App.xcdatamodeld --format json
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: ArgumentHelp("Output format: text or json (default text).", valueName: "format"))
    var format: ModelShowFormat = .text

    func run() throws {
        var options = storeOptions
        options.readOnly = true
        let info = try options.withStore(create: false) { store in try store.info() }
        let output = TextOutput.standardOutput()
        switch format {
        case .json: output.line(Self.json(info).description)
        case .text: Self.text(info, output)
        }
        output.close()
    }

    static func text(_ info: StoreInfo, _ output: TextOutput) {
        let rows: [(String, String)] = [
            ("store", info.path), ("uuid", info.uuid), ("type", info.storeType ?? "(none)"), ("kind", info.kind.description),
            ("framework version", info.frameworkVersion.map(String.init) ?? "(none)"),
            ("model identifiers", info.versionIdentifiers.isEmpty ? "(none)" : info.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", ")),
            ("journal mode", info.journalMode), ("auto vacuum", String(info.autoVacuum)), ("page size", String(info.pageSize)),
            ("model cache", info.hasCoreDataModelCache ? "Z_MODELCACHE" : info.hasCDStoreModel ? "cdstore model in metadata" : "none"),
            ("model used", info.modelSource.rawValue),
            ("hashes", !info.hashesChecked ? "not checked (model inferred from the tables)"
                : info.hashesMatch ? "match the model" : "differ from the model"),
        ]
        for (label, value) in rows { output.line(label.padding(toLength: 18, withPad: " ", startingAt: 0) + value) }
        output.line("")
        let width = max(6, info.entities.map(\.name.count).max() ?? 0)
        output.line("Z_ENT  " + "entity".padding(toLength: width, withPad: " ", startingAt: 0) + "  objects  Z_MAX  hash")
        for entity in info.entities {
            let number = String(entity.number).padding(toLength: 5, withPad: " ", startingAt: 0)
            let objects = (entity.objects.map(String.init) ?? "-").padding(toLength: 7, withPad: " ", startingAt: 0)
            let zMax = String(entity.maxPrimaryKey).padding(toLength: 5, withPad: " ", startingAt: 0)
            let hash = entity.storedHash == nil ? "missing" : !info.hashesChecked ? "-" : entity.hashMatches ? "ok" : "differs"
            output.line("\(number)  \(entity.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(objects)  \(zMax)  \(hash)")
        }
        for history in info.historyEntities {
            let role = history.name.hasPrefix("NSCK") ? "CloudKit mirroring" : "persistent history"
            output.line("\(history.number)  \(history.name) (\(role)): \(history.rows.map(String.init) ?? "-") rows")
        }
    }

    static func json(_ info: StoreInfo) -> ObjectValue {
        .dictionary([
            ("path", .string(info.path)), ("uuid", .string(info.uuid)), ("storeType", info.storeType.map { .string($0) } ?? .null),
            ("kind", .dictionary([("framework", .string(info.kind.framework.rawValue)),
                                  ("cloudKitMirroring", .bool(info.kind.cloudKitMirroring)),
                                  ("persistentHistory", .bool(info.kind.persistentHistory))])),
            ("frameworkVersion", info.frameworkVersion.map { .integer(Int64($0)) } ?? .null),
            ("versionIdentifiers", .array(info.versionIdentifiers.map { .string($0) })),
            ("journalMode", .string(info.journalMode)), ("autoVacuum", .integer(Int64(info.autoVacuum))),
            ("pageSize", .integer(Int64(info.pageSize))), ("coreDataModelCache", .bool(info.hasCoreDataModelCache)),
            ("cdstoreModel", .bool(info.hasCDStoreModel)), ("modelSource", .string(info.modelSource.rawValue)),
            ("hashesChecked", .bool(info.hashesChecked)), ("hashesMatch", .bool(info.hashesMatch)), ("metadataKeys", .array(info.metadataKeys.map { .string($0) })),
            ("entities", .array(info.entities.map { entity in
                .dictionary([("name", .string(entity.name)), ("number", .integer(Int64(entity.number))),
                             ("super", .integer(Int64(entity.superNumber))), ("hash", entity.storedHash.map { .string($0) } ?? .null),
                             ("hashMatches", .bool(entity.hashMatches)), ("objects", entity.objects.map { .integer(Int64($0)) } ?? .null),
                             ("zMax", .integer(entity.maxPrimaryKey))])
            })),
            ("history", .array(info.historyEntities.map {
                .dictionary([("name", .string($0.name)), ("number", .integer(Int64($0.number))), ("rows", $0.rows.map { .integer(Int64($0)) } ?? .null)])
            })),
        ])
    }
}

/// `cdstore verify`: is the store sound?
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a store's integrity as Core Data needs it; prints \"ok\" or each problem (exit status 1).",
        discussion: """
        Checks the metadata hashes against the model, Z_PRIMARYKEY, the tables and columns of the layout, every \
        row's Z_ENT, Z_MAX against the largest Z_PK, foreign keys and join tables pointing at existing objects \
        of the right entity, both sides of one-to-one relationships, and the files of external binary data. \
        What Core Data itself leaves in stores (old entity names after a rename, history and CloudKit tables, \
        Z_MAX = -1) is not a problem. A Z_MAX below the largest key is: Core Data reads the store, but its next \
        insert would take a key in use and fail. Read-only, except with --repair.

        --repair first fixes, in one transaction, the bookkeeping that has exactly one right value derived from \
        the rows — a Z_MAX below the largest Z_PK is raised to it, as Core Data's own inserts keep it — and \
        prints each change ("repaired: …"); then it verifies. Everything else verify reports needs a decision \
        about data (delete a dangling row or restore its object? which side of a one-to-one is right?) and is \
        left alone. --repair never migrates: a store saved with another model version is refused (exit status 3).

        Examples:
          cdstore verify --store Seed.sqlite
          cdstore verify --store Seed.sqlite --repair
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Flag(name: .long, help: ArgumentHelp(
        "Fix the purely mechanical bookkeeping (a Z_MAX below the largest Z_PK) in one transaction, print what changed, then verify."))
    var repair = false

    func run() throws {
        var options = storeOptions
        // A repair writes, but only bookkeeping: it never migrates the store to another model version.
        if repair { options.noMigrate = true } else { options.readOnly = true }
        let findings = try options.withStore(create: false) { store in
            let library = store
            if repair {
                for repaired in try library.repair() { print("repaired: \(repaired.kind.rawValue): \(repaired.subject): \(repaired.message)") }
            }
            return try library.verify()
        }
        for finding in findings { print(finding.description) }
        if findings.contains(where: { $0.severity == .problem }) { throw ExitCode(ExitStatus.badInput.rawValue) }
        print("ok")
    }
}
