import ArgumentParser
import CDStore

/// `cdstore fetch ENTITY …`: print objects.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Print the objects of an entity, filtered, sorted and paged.",
        discussion: """
        Each object has "_id", its URI (x-coredata://STORE-UUID/Entity/pN, as Core Data prints object IDs). \
        To-one relationships print as the related object's URI, to-many relationships as arrays of URIs \
        (counts with --counts; the related objects themselves with --include). Objects of sub-entities are \
        included (with "_entity" naming their entity) unless --exact-entity is given. NULL follows Core Data's SQLite store: name != 'x' does not match objects whose name is nil; \
        use name == nil to find them.

        Examples:
          cdstore fetch Employee --where "age >= 30" --sort -age --limit 10
          cdstore fetch Employee --where "name BEGINSWITH[c] 'a'" --format table
          cdstore fetch Employee --where "name == %@" --arg "Ann O'Neil" --format json
          cdstore fetch Employee --where 'joined < CAST("2020-01-01", "NSDate")'
          cdstore fetch Department --include employees,employees.badge --format json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var query: QueryOptions
    @OptionGroup var formatOptions: FormatOptions

    @Argument(help: "The entity whose objects to print.", completion: .custom(ShellCompletion.entities))
    var entity: String

    @Flag(name: .long, help: "Print to-many relationships as counts instead of arrays of object IDs.")
    var counts = false

    @Option(name: .long, help: ArgumentHelp(
        "Nest the objects of these relationships instead of their IDs, or add these fetched properties (run per object): "
        + "REL[,REL.SUBREL…] (repeatable).", valueName: "paths"))
    var include: [String] = []

    @Flag(name: .customLong("no-relationships"), help: "Print attributes only.")
    var noRelationships = false

    @Flag(name: .long, help: ArgumentHelp(
        "Fail (exit status 4, nothing printed after the error) when a Binary value's external-data file is missing, "
        + "instead of printing it as null with a warning."))
    var strict = false

    func run() throws {
        let format = formatOptions.resolved
        let includes = include.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        let criteria = try query.criteria()
            .relationships(as: noRelationships ? .none : counts || format.isForReading ? .counts : .objectIDs)
            .prefetching(includes)
        // Reading never creates a store: a mistyped --store path is an error (exit 4), not a new empty file.
        try storeOptions.withStore(create: true, announce: true, readsOnly: true, strict: strict) { store in
            var printer = RecordPrinter(entity: entity, format: format, output: .standardOutput())
            printer.headers = !formatOptions.noHeaders
            _ = try store.read { ctx in try printer.print(criteria, in: ctx) }
        }
    }
}
