import ArgumentParser
import CDStoreSQLite

/// `cdstore fetch ENTITY …`: print objects.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Print the objects of an entity, filtered, sorted and paged.",
        discussion: """
        Objects of sub-entities are included (with "_entity" naming their entity) unless --exact-entity is \
        given. NULL follows Core Data's SQLite store: name != 'x' does not match objects whose name is nil; \
        use name == nil to find them.

        Examples:
          cdstore fetch Employee --where "age >= 30" --sort -age --limit 10
          cdstore fetch Employee --where "name BEGINSWITH[c] 'a'" --format table
          cdstore fetch Employee --where "name == %@" --arg "Ann O'Neil" --format json
          cdstore fetch Employee --where 'joined < CAST("2020-01-01", "NSDate")'
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var query: QueryOptions
    @OptionGroup var formatOptions: FormatOptions

    @Argument(help: "The entity whose objects to print.")
    var entity: String

    func run() throws {
        let request = try query.request(for: entity)
        // Reading never creates a store: a mistyped --store path is an error (exit 4), not a new empty file.
        try storeOptions.withStore(create: false) { store in
            try RecordPrinter(store: store, entity: entity, format: formatOptions.resolved, output: .standardOutput())
                .print(request)
        }
    }
}

/// `cdstore count ENTITY …`: print how many objects match.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Print the number of objects of an entity (matching --where), as a bare number.",
        discussion: """
        Examples:
          cdstore count Employee
          cdstore count Employee --where "manager == nil OR age < 25"
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customLong("where"), help: ArgumentHelp("Only count objects matching this predicate.", valueName: "predicate"))
    var predicate: String?

    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A value for the next % specifier in --where.", valueName: "value"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for a $variable, as NAME=VALUE.", valueName: "name=value"))
    var variables: [String] = []

    @Flag(name: .customLong("exact-entity"), help: "Leave out objects of sub-entities.")
    var exactEntity = false

    @Argument(help: "The entity whose objects to count.")
    var entity: String

    func run() throws {
        let request = ObjectFetchRequest(entity: entity, predicate: try PredicateInput.parse(predicate, arguments: arguments, variables: variables),
                                   includesSubentities: !exactEntity)
        let count = try storeOptions.withStore(create: false) { store in try store.count(request) }
        print(count)
    }
}

/// `cdstore delete ENTITY --where … | --all`.
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the objects matching --where (or every object with --all).",
        discussion: """
        Refuses to run without --where or --all. Everything is deleted in one transaction; prints how many \
        objects were deleted.

        Examples:
          cdstore delete Employee --where "age > 65"
          cdstore delete Employee --all
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customLong("where"), help: ArgumentHelp("Delete the objects matching this predicate.", valueName: "predicate"))
    var predicate: String?

    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A value for the next % specifier in --where.", valueName: "value"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for a $variable, as NAME=VALUE.", valueName: "name=value"))
    var variables: [String] = []

    @Flag(name: .long, help: "Delete every object of the entity (and its sub-entities).")
    var all = false

    @Flag(name: .customLong("exact-entity"), help: "Leave objects of sub-entities alone.")
    var exactEntity = false

    @Argument(help: "The entity whose objects to delete.")
    var entity: String

    func validate() throws {
        if predicate == nil && !all { throw ValidationError("say which objects: --where PREDICATE, or --all for every object") }
        if predicate != nil && all { throw ValidationError("--where and --all cannot be used together") }
    }

    func run() throws {
        let request = ObjectFetchRequest(entity: entity, predicate: try PredicateInput.parse(predicate, arguments: arguments, variables: variables),
                                   includesSubentities: !exactEntity)
        let deleted = try storeOptions.withStore(create: false) { store in try store.delete(request) }
        print("deleted \(deleted) \(deleted == 1 ? "object" : "objects")")
    }
}
