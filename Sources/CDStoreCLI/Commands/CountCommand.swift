import ArgumentParser
import CDStoreSQLite

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

    @Option(name: .customLong("where"), help: ArgumentHelp("Only count objects matching this predicate.", valueName: "predicate"), completion: .custom(ShellCompletion.keyPaths))
    var predicate: String?

    @Option(name: .customLong("arg"), parsing: .unconditionalSingleValue, help: ArgumentHelp("A value for the next % specifier in --where.", valueName: "value"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("A value for a $variable, as NAME=VALUE.", valueName: "name=value"))
    var variables: [String] = []

    @Flag(name: .customLong("exact-entity"), help: "Leave out objects of sub-entities.")
    var exactEntity = false

    @Argument(help: "The entity whose objects to count.", completion: .custom(ShellCompletion.entities))
    var entity: String

    func run() throws {
        let request = ObjectFetchRequest(entity: entity, predicate: try PredicateInput.parse(predicate, arguments: arguments, variables: variables),
                                   includesSubentities: !exactEntity)
        let count = try storeOptions.withStore(create: true, announce: true, readsOnly: true) { store in try store.count(request) }
        print(count)
    }
}
