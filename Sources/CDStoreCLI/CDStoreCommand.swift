import ArgumentParser

/// The root command: `cdstore SUBCOMMAND …`.
public struct CDStoreCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "cdstore",
        abstract: "Read and write Core Data SQLite stores from the command line.",
        discussion: """
        cdstore loads a managed object model (Xcode .xcdatamodeld/.xcdatamodel, or a cdstore JSON model) and \
        opens or creates a SQLite store laid out exactly as Core Data lays it out, so stores made here open in \
        an app without migration, and stores an app made can be read and written here.

        --model, --model-version, --store and --read-only are accepted by every subcommand, before or after \
        its name; $CDSTORE_MODEL and $CDSTORE_STORE give defaults.

        A store saved with an earlier version of the model is migrated when opened for writing (a backup copy \
        is kept; --no-backup skips it, --no-migrate refuses instead); see cdstore migrate --help.

        Exit status: 0 success; 1 bad input or data (nothing was written); 2 wrong use of the command line; \
        3 the store does not match the model; 4 a store or model that cannot be opened.

        Example session:
          export CDSTORE_MODEL=Schemas/Company.json CDSTORE_STORE=/tmp/co.sqlite
          cdstore insert Company --file Schemas/demo/Company.json
          cdstore fetch Employee --where "department.name == 'R&D'" --format table
          cdstore project Employee --properties 'department.name,average:salary' --group-by department.name
          cdstore export --format ndjson
        """,
        version: BuildVersion.description,
        subcommands: [
            InsertCommand.self, FetchCommand.self, CountCommand.self, ProjectCommand.self, UpdateCommand.self,
            DeleteCommand.self, ExportCommand.self, ImportCommand.self, SeedCommand.self, MigrateCommand.self,
            InfoCommand.self, VerifyCommand.self, HistoryCommand.self, REPLCommand.self,
            DiffCommand.self, ScanCommand.self, WatchCommand.self,
            ModelCommand.self, MappingCommand.self,
            ServeCommand.self, MCPCommand.self,
        ])

    public init() {}
}
