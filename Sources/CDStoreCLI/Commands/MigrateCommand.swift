import ArgumentParser
import CDStore
import Foundation

/// `cdstore migrate`: lightweight migration of a store to the model given.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store saved with another version of the model to the model given.",
        discussion: """
        Core Data's lightweight migration with an inferred mapping model. The store's model is the version of \
        the --model .xcdatamodeld whose entity hashes equal the store's, else the model the store carries; when \
        the mapping from it cannot be inferred directly, the store goes through the versions in between. \
        Prints the plan: a line per step, then a line per change with the number of SQL statements on its \
        tables. Everything runs in one transaction: on any failure the store is left as it was.

        Before the first change the store (with its -wal and -shm files) is copied to \
        STORE.backup-<yyyyMMdd-HHmmss>, unless --no-backup is given. Other commands that write migrate \
        automatically when opening such a store (--no-migrate makes them refuse it with exit status 3 and the \
        list of differences); read-only commands (info, verify, --read-only) never migrate: they read the store \
        with the version it was saved with.

        Changes that cannot be inferred are refused with Core Data's error number (134190; 134130 when no \
        model matches the store) and exit status 3.

        Examples:
          cdstore migrate --store Staff.sqlite --model Schemas/Staff.xcdatamodeld --dry-run
          cdstore migrate --store Staff.sqlite --model Schemas/Staff.xcdatamodeld --no-backup
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Flag(name: .customLong("dry-run"), help: "Print the plan without changing the store (it runs on a temporary copy).")
    var dryRun = false

    func run() throws {
        guard let path = storeOptions.storePath else {
            throw CLIError.usage("no store: give --store PATH or set CDSTORE_STORE")
        }
        let loaded = try storeOptions.requireModel()
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(.cannotOpen, "no store at \(path)")
        }
        if storeOptions.readOnly && !dryRun {
            throw CLIError.usage("--read-only: nothing can be migrated (use --dry-run to see the plan)")
        }
        let output = TextOutput.standardOutput()
        defer { output.close() }
        if try Store.modelDifferences(at: path, destination: loaded).isEmpty {
            output.line("the store already matches the model; nothing to migrate")
            return
        }
        let report = try Store.migrate(at: path, to: loaded,
                                       options: MigrationOptions(backup: !storeOptions.noBackup, dryRun: dryRun))
        for line in report.lines { output.line(line) }
        if dryRun {
            output.line("dry run: the store was not changed")
        } else {
            output.line("migrated \(path)" + (report.backupPath.map { "; backup at \($0)" } ?? ""))
        }
    }
}
