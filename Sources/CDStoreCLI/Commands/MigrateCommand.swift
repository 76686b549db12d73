import ArgumentParser
import CDStore
import Foundation

/// `cdstore migrate`: migration of a store to the model given, with mapping models or inferred mappings.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store saved with another version of the model to the model given.",
        discussion: """
        The store's model is the version of the --model .xcdatamodeld whose entity hashes equal the store's, else \
        the model the store carries. Each hop runs the mapping model whose source and destination entity hashes \
        match it, as Core Data's migration manager does: every .xcmappingmodel and .cdm under the folder holding \
        the model (recursively) and each --mapping PATH. Where none matches, the mapping is inferred (lightweight \
        migration), through the versions in between when needed; one chain may mix both. Prints the plan: a line \
        per step (which mapping model, or inferred), per entity mapping the objects it takes, creates and leaves \
        behind, objects dropped because nothing takes them (marked !!), then a line per change with the number of \
        SQL statements on its tables. Everything runs in one transaction: on any failure or refusal the store, its \
        -wal and -shm files are left byte for byte as they were.

        A mapping model that names an NSEntityMigrationPolicy subclass or calls $entityPolicy needs the app's \
        code: it is refused naming the class or selector and the entity mappings (exit status 3), unless \
        --without-policies, which runs the default policy, leaves those values out and warns once per mapping.

        Before the first change the store (with its -wal and -shm files) is copied to \
        STORE.backup-<yyyyMMdd-HHmmss>, unless --no-backup is given. Other commands that write migrate \
        automatically when opening such a store (--no-migrate makes them refuse it with exit status 3 and the \
        list of differences); read-only commands (info, verify, --read-only) never migrate.

        Changes that cannot be inferred are refused with Core Data's error number (134190; 134130 when no \
        model matches the store) and exit status 3.

        Examples:
          cdstore migrate --store Staff.sqlite --model Schemas/Staff.xcdatamodeld --dry-run
          cdstore migrate --store Books.sqlite --model Books_1.1.xcdatamodeld --mapping Books_1_0_to_1_1.cdm
          cdstore migrate --store Staff.sqlite --model Schemas/Staff.xcdatamodeld --no-backup --without-policies
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Flag(name: .customLong("dry-run"), help: "Print the plan without changing the store (it runs on a temporary copy).")
    var dryRun = false

    @Option(name: .customLong("mapping"), help: ArgumentHelp(
        "A mapping model (.xcmappingmodel or .cdm) to use besides those found beside the model; repeatable "
        + "(e.g. --mapping V1toV2.cdm).", valueName: "path"), completion: .file())
    var mappings: [String] = []

    @Flag(name: .customLong("without-policies"), help: ArgumentHelp(
        "Run mappings that name a migration policy class or call $entityPolicy with the default policy, leaving "
        + "those values out (e.g. --without-policies), instead of refusing them."))
    var withoutPolicies = false

    func run() throws {
        guard let path = storeOptions.storePath else {
            throw CLIError.usage("no store: give --store PATH or set CDSTORE_STORE")
        }
        let loaded = try storeOptions.requireModel()
        if storeOptions.readOnly && !dryRun {
            throw CLIError.usage("--read-only: nothing can be migrated (use --dry-run to see the plan)")
        }
        let plan = try CDStore.migrate(storeAt: path, to: .file(loaded), mappingModels: mappings, dryRun: dryRun,
                                       withoutPolicies: withoutPolicies, backup: !storeOptions.noBackup)
        for warning in plan.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        let output = TextOutput.standardOutput()
        defer { output.close() }
        if plan.steps.isEmpty {
            output.line("the store already matches the model; nothing to migrate")
            return
        }
        for line in MigrationPlanText.lines(plan) { output.line(line) }
        if dryRun {
            output.line("dry run: the store was not changed")
        } else {
            output.line("migrated \(path)" + (plan.backupPath.map { "; backup at \($0)" } ?? ""))
        }
    }
}
