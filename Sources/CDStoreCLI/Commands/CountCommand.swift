import ArgumentParser
import CDStore

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

    @OptionGroup var filter: PredicateOptions

    @Flag(name: .customLong("exact-entity"), help: "Leave out objects of sub-entities.")
    var exactEntity = false

    @Argument(help: "The entity whose objects to count.", completion: .custom(ShellCompletion.entities))
    var entity: String

    func run() throws {
        let criteria = try filter.criteria(includingSubentities: !exactEntity)
        let count = try storeOptions.withStore(create: true, announce: true, readsOnly: true) { store in
            try store.read { ctx in try ctx.count(entity, matching: criteria) }
        }
        print(count)
    }
}
